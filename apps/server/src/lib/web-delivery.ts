/**
 * How the server hands out bytes (docs/web.md, "Web delivery"): brotli or gzip for text
 * answers, the built web app's precompressed files, and cache headers that let browsers keep the
 * hashed assets forever while always revalidating the page that names them.
 */
import path from 'node:path';
import zlib from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';

/** API answers (and other dynamic text) smaller than this many bytes go out uncompressed. */
export const COMPRESS_THRESHOLD_BYTES = 1024;
/**
 * Answers in memory (strings, buffers) up to this many bytes are compressed in one synchronous
 * zlib call; larger ones and streams go through a zlib stream. A page of tickets (20–60 KiB) costs
 * about 0.1 ms of brotli at quality 4 in one call, while a stream per answer costs several times
 * that in setup and scheduling on a 2-core machine (docs/benchmarks.md, "the plain list's CPU").
 */
export const COMPRESS_SYNC_MAX_BYTES = 64 * 1024;

/** Cache-Control of the build's content-hashed files (apps/web/dist/assets): a new build renames them. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** Cache-Control of everything whose name does not change with its content (index.html, the manifest). */
export const REVALIDATE_CACHE = 'no-cache';

/** Extensions of the web app's files that are text (compressible); the build precompresses them. */
const TEXT_EXTENSIONS = new Set([
  '.js',
  '.mjs',
  '.css',
  '.html',
  '.json',
  '.svg',
  '.txt',
  '.map',
  '.webmanifest',
]);

/**
 * Registers @fastify/compress for every route: brotli (preferred, at the plugin's recommended
 * quality 4) or gzip per Accept-Encoding, for compressible content types at or above
 * COMPRESS_THRESHOLD_BYTES; in-memory answers up to COMPRESS_SYNC_MAX_BYTES in one call. Answers that already carry a Content-Encoding (the precompressed
 * static files) pass untouched. Request bodies are not decompressed (clients send plain JSON).
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD_BYTES,
    syncThreshold: COMPRESS_SYNC_MAX_BYTES,
    globalDecompression: false,
    // Text only: media (audio, images, octet-stream downloads) is already compressed or binary.
    customTypes: COMPRESSIBLE_TYPES,
  });
}

/** Content types worth compressing: text, JSON, JavaScript, XML and SVG. */
const COMPRESSIBLE_TYPES = /^text\/(?!event-stream)|[/+]json(?:;|$)|javascript(?:;|$)|[/+]xml(?:;|$)/u;

/**
 * The web app's page (index.html with the API prefix in it), compressed once with brotli and gzip
 * at startup; `send` answers a request with the variant its Accept-Encoding allows (brotli
 * preferred), `no-cache` (the page names the hashed assets of the current build) and
 * `Vary: Accept-Encoding`. Fastify's not-found handler, which serves client routes, runs no route
 * hooks, so the page cannot rely on @fastify/compress.
 */
export function precompressedPage(
  html: string,
): (request: FastifyRequest, reply: FastifyReply) => FastifyReply {
  const plain = Buffer.from(html);
  const variants: Record<string, Buffer> = {
    br: zlib.brotliCompressSync(plain, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: zlib.gzipSync(plain, { level: 9 }),
  };
  return (request, reply) => {
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', REVALIDATE_CACHE)
      .header('vary', 'Accept-Encoding');
    const accepted = new Negotiator(request).encodings(['br', 'gzip']);
    const encoding = accepted.includes('br') ? 'br' : accepted.includes('gzip') ? 'gzip' : undefined;
    if (!encoding || plain.length < COMPRESS_THRESHOLD_BYTES) return reply.send(plain);
    return reply.header('content-encoding', encoding).send(variants[encoding]);
  };
}

/**
 * The `setHeaders` hook of @fastify/static for the built web app (`preCompressed: true` picks the
 * `.br`/`.gz` sibling that Accept-Encoding allows): hashed files under /assets are immutable, the
 * rest revalidates; text files vary by Accept-Encoding since their bytes depend on it.
 */
export function staticAssetHeaders(
  res: { setHeader(name: string, value: string): unknown },
  filePath: string,
): void {
  const parts = filePath.split(path.sep);
  const hashed = parts.at(-2) === 'assets';
  res.setHeader('Cache-Control', hashed ? IMMUTABLE_CACHE : REVALIDATE_CACHE);
  const name = parts.at(-1) ?? '';
  const plain = name.replace(/\.(br|gz)$/, '');
  if (TEXT_EXTENSIONS.has(path.extname(plain).toLowerCase())) res.setHeader('Vary', 'Accept-Encoding');
}
