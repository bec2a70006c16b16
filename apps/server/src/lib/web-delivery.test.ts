import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts } from '../db/schema/index.js';
import { bearer, createTenant } from '../test/factories.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { COMPRESS_SYNC_MAX_BYTES, COMPRESS_THRESHOLD_BYTES, IMMUTABLE_CACHE } from './web-delivery.js';

/** The Accept header of a browser's page load. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/** A built asset of a few KiB, with its precompressed siblings as the build writes them. */
const APP_JS = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word-${i}`))};\n`;
let brFile: Buffer;
let gzFile: Buffer;

let t: TestApp;
let web: string;
beforeAll(async () => {
  web = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-web-'));
  fs.writeFileSync(
    path.join(web, 'index.html'),
    `<!doctype html><title>Zapdesk</title><!-- ${'padding '.repeat(300)}--><div id="root"></div>`,
  );
  fs.writeFileSync(path.join(web, 'manifest.json'), JSON.stringify({ name: 'Zapdesk' }));
  // The installable app's files (vite-plugin-pwa): the web manifest and the service worker.
  fs.writeFileSync(path.join(web, 'manifest.webmanifest'), JSON.stringify({ name: 'Zapdesk' }));
  const sw = `self.addEventListener('push', () => {}); // ${'padding '.repeat(200)}\n`;
  fs.writeFileSync(path.join(web, 'sw.js'), sw);
  fs.writeFileSync(path.join(web, 'sw.js.br'), zlib.brotliCompressSync(sw));
  fs.mkdirSync(path.join(web, 'assets'));
  const js = path.join(web, 'assets', 'index-Ab12Cd34.js');
  fs.writeFileSync(js, APP_JS);
  brFile = zlib.brotliCompressSync(APP_JS);
  gzFile = zlib.gzipSync(APP_JS, { level: 9 });
  fs.writeFileSync(`${js}.br`, brFile);
  fs.writeFileSync(`${js}.gz`, gzFile);
  // A hashed file the build left uncompressed (an image): no siblings, no Vary.
  fs.writeFileSync(path.join(web, 'assets', 'logo-Ef56Gh78.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  t = await createTestApp({ WEB_DIST: web });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(web, { recursive: true, force: true });
});

const vary = (value: unknown) => String(value ?? '').toLowerCase();

describe('static web app files', () => {
  it('sends the brotli sibling to a browser that accepts br, with Vary and an immutable Cache-Control', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/assets/index-Ab12Cd34.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(vary(res.headers.vary)).toContain('accept-encoding');
    expect(res.headers['cache-control']).toBe(IMMUTABLE_CACHE);
    // The precompressed file itself, byte for byte (not compressed again per request).
    expect(res.rawPayload.equals(brFile)).toBe(true);
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(APP_JS);
  });

  it('sends the gzip sibling when only gzip is accepted', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/assets/index-Ab12Cd34.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.rawPayload.equals(gzFile)).toBe(true);
    expect(vary(res.headers.vary)).toContain('accept-encoding');
    expect(res.headers['cache-control']).toBe(IMMUTABLE_CACHE);
  });

  it('sends the plain file without Accept-Encoding (negative control), still immutable and varying', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/index-Ab12Cd34.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe(APP_JS);
    expect(vary(res.headers.vary)).toContain('accept-encoding');
    expect(res.headers['cache-control']).toBe(IMMUTABLE_CACHE);
  });

  it('keeps binary hashed files uncompressed and without Vary', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/assets/logo-Ef56Gh78.png',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['cache-control']).toBe(IMMUTABLE_CACHE);
    expect(vary(res.headers.vary)).not.toContain('accept-encoding');
  });

  it('revalidates files whose name does not change with their content', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/manifest.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('serves the web manifest and the service worker with their types, revalidated, never the page', async () => {
    const manifest = await t.app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(manifest.json()).toEqual({ name: 'Zapdesk' });
    for (const encoding of ['br', 'identity']) {
      const sw = await t.app.inject({
        method: 'GET',
        url: '/sw.js',
        headers: { 'accept-encoding': encoding },
      });
      expect(sw.statusCode).toBe(200);
      expect(sw.headers['content-type']).toMatch(/^(application|text)\/javascript/);
      expect(sw.headers['cache-control']).toBe('no-cache');
      expect(sw.headers['content-encoding']).toBe(encoding === 'br' ? 'br' : undefined);
    }
  });

  it('sends the page (index.html) with no-cache, compressed for a browser', async () => {
    for (const url of ['/', '/tickets', '/login']) {
      const res = await t.app.inject({
        method: 'GET',
        url,
        headers: { accept: BROWSER_ACCEPT, 'accept-encoding': 'gzip, deflate, br' },
      });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(vary(res.headers.vary), url).toContain('accept-encoding');
      expect(zlib.brotliDecompressSync(res.rawPayload).toString(), url).toContain('<div id="root">');
    }
  });
});

describe('API answers', () => {
  it('compresses an answer above the threshold with brotli or gzip, per Accept-Encoding', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);

    const br = await t.app.inject({
      method: 'GET',
      url: '/api/docs/json',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(vary(br.headers.vary)).toContain('accept-encoding');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);

    const gzip = await t.app.inject({
      method: 'GET',
      url: '/api/docs/json',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
  });

  it('leaves an answer below the threshold uncompressed (negative control)', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeLessThan(COMPRESS_THRESHOLD_BYTES);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toBeTypeOf('object');
  });

  it('leaves a large answer uncompressed for a client that accepts no compression', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/docs/json',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toHaveProperty('openapi');
  });

  it('compresses a page-sized answer in one call: Content-Length set, same JSON back', async () => {
    // Contacts with long names: a page of 20 weighs some 20 KiB, like a page of tickets.
    const tenant = await createTenant(t.app);
    const rows = Array.from({ length: 40 }, (_, i) => ({
      companyId: tenant.companyId,
      name: `Cliente ${i} ${'nome comprido '.repeat(70)}`,
      number: `55119${String(10_000_000 + i)}`,
    }));
    await t.app.ctx.db.insert(contacts).values(rows);
    const url = '/api/contacts?pageNumber=1';
    const plain = await t.app.inject({ method: 'GET', url, headers: bearer(tenant.admin) });
    expect(plain.statusCode).toBe(200);
    expect(plain.rawPayload.length).toBeGreaterThan(8 * 1024);
    expect(plain.rawPayload.length).toBeLessThanOrEqual(COMPRESS_SYNC_MAX_BYTES);

    const br = await t.app.inject({
      method: 'GET',
      url,
      headers: { ...bearer(tenant.admin), 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    // A zlib stream drops Content-Length (chunked); the one-call path knows the size.
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
  });

  it('still reads a plain JSON request body (no request decompression in the way)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'accept-encoding': 'br' },
      payload: { email: 'nobody@example.com', password: 'wrong-password' },
    });
    expect(res.statusCode).toBeLessThan(500);
    expect(res.statusCode).not.toBe(415);
  });
});
