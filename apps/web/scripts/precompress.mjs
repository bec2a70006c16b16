/**
 * Writes a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) sibling next to every text file of
 * the web build (apps/web/dist) of at least 1 KiB, when it is smaller than the original. The server
 * serves them as such (@fastify/static `preCompressed`), so no request pays for compression.
 *
 *   node scripts/precompress.mjs [distDir]
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const TEXT = /\.(js|mjs|css|html|json|svg|txt|map|webmanifest)$/i;
const MIN_BYTES = 1024;

const dist = path.resolve(
  process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '../dist'),
);

/** Every file under `dir`, recursively. */
function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

let count = 0;
let raw = 0;
let br = 0;
for (const file of files(dist)) {
  if (!TEXT.test(file)) continue;
  const body = fs.readFileSync(file);
  if (body.length < MIN_BYTES) continue;
  const brotli = zlib.brotliCompressSync(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    },
  });
  const gzip = zlib.gzipSync(body, { level: 9 });
  if (brotli.length < body.length) fs.writeFileSync(`${file}.br`, brotli);
  if (gzip.length < body.length) fs.writeFileSync(`${file}.gz`, gzip);
  count += 1;
  raw += body.length;
  br += Math.min(brotli.length, body.length);
}
console.log(
  `precompress: ${count} files, ${(raw / 1024).toFixed(0)} KiB raw, ${(br / 1024).toFixed(0)} KiB brotli (${dist})`,
);
