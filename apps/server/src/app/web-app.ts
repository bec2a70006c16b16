import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import type { Config } from '../config.js';
import type { ZodApp } from '../context.js';
import { AppError } from '../lib/app-error.js';
import { precompressedPage, staticAssetHeaders } from '../lib/web-delivery.js';

/** The built web app: its folder and the sender of its page (index.html with the API prefix). */
export interface WebApp {
  dist: string;
  sendIndex: (request: FastifyRequest, reply: FastifyReply) => unknown;
}

/**
 * The built web app at WEB_DIST (default apps/web/dist), or undefined when there is no build. At the
 * root prefix, where client routes (/tickets) and API routes share paths, a browser navigation (asks
 * for HTML, carries no token) to an API route gets the page; API calls go on to their handler.
 */
export function serveWebApp(app: ZodApp, config: Config): WebApp | undefined {
  const dist = config.WEB_DIST ?? path.resolve(import.meta.dirname ?? '.', '../../../web/dist');
  const indexHtml = readIndexHtml(dist, config.API_PREFIX);
  if (indexHtml === undefined) return undefined;
  const page = precompressedPage(indexHtml);
  const web: WebApp = { dist, sendIndex: (request, reply) => page(request, reply) };
  if (config.API_PREFIX === '') {
    app.addHook('onRequest', async (request, reply) => {
      if (isNavigation(request) && request.routeOptions.config?.auth) return web.sendIndex(request, reply);
    });
  }
  return web;
}

/**
 * After the API routes: the web app's files (when built) and the not-found handler, which answers
 * a page request outside the API with the web app (its client routes) and anything else with 404
 * ERR_NOT_FOUND.
 */
export async function registerWebFiles(app: ZodApp, web: WebApp | undefined, prefix: string): Promise<void> {
  if (web) {
    await app.register(fastifyStatic, {
      root: web.dist,
      wildcard: false,
      index: false,
      // index.html goes out only as the page above, with the API prefix in it.
      allowedPath: (pathName) => pathName !== '/index.html',
      // The build's .br/.gz siblings (apps/web/scripts/precompress.mjs), per Accept-Encoding.
      preCompressed: true,
      // The cache headers are set per file (immutable hashed assets); see lib/web-delivery.ts.
      cacheControl: false,
      setHeaders: staticAssetHeaders,
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    const underApi = prefix !== '' && (url === prefix || url.startsWith(`${prefix}/`));
    const isApi = underApi || url.startsWith('/socket.io') || url === '/metrics';
    if (web && !isApi && isPageRequest(request, url, prefix)) return web.sendIndex(request, reply);
    throw new AppError('ERR_NOT_FOUND');
  });
}

/** A browser loading a page: GET or HEAD asking for HTML, without a bearer token. */
function isNavigation(request: FastifyRequest): boolean {
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    !request.headers.authorization &&
    (request.headers.accept ?? '').includes('text/html')
  );
}

/**
 * Whether an unknown path gets the web app (its client routes): a GET or HEAD of a path whose last
 * segment has no file extension (/index.html is the page too). With the API under a prefix, such a
 * path is a client route whatever the Accept header (curl and uptime monitors accept any type). At the
 * root prefix, where API and client routes share paths, it must be a navigation (above) with HTML
 * preferred to JSON in Accept (negotiated: an Accept of only any type is not enough). /favicon.ico,
 * /foo.js or (at the root prefix) an API client's call answer 404 instead.
 */
function isPageRequest(request: FastifyRequest, url: string, prefix: string): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const lastSegment = url.slice(url.lastIndexOf('/') + 1);
  if (url !== '/index.html' && path.posix.extname(lastSegment) !== '') return false;
  if (prefix !== '') return true;
  if (!isNavigation(request)) return false;
  return new Negotiator(request).mediaType(['application/json', 'text/html']) === 'text/html';
}

/**
 * The built web app's index.html with the API prefix in `<meta name="zapdesk-api-base">` (the web
 * app reads it to reach the API wherever API_PREFIX puts it), or undefined when there is no build.
 */
function readIndexHtml(webDist: string, prefix: string): string | undefined {
  const file = path.join(webDist, 'index.html');
  if (!fs.existsSync(file)) return undefined;
  const html = fs.readFileSync(file, 'utf8');
  const meta = `<meta name="zapdesk-api-base" content="${prefix}" />`;
  return html.includes('</head>') ? html.replace('</head>', `${meta}</head>`) : `${meta}${html}`;
}
