/**
 * Active content: media that can carry script goes out as a download with
 * nosniff and a sandboxing CSP, while images stay inline; the web app and the API carry a strict
 * CSP and the usual headers (HSTS only in production); /metrics is closed in production without
 * its token.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaHeaders } from '../channels/media-store.js';
import {
  createSimulatorConnection,
  createTenant,
  customerNumber,
  injectAs,
  injectMessage,
  type TenantFixture,
} from './factories.js';
import { PNG } from './multipart.js';
import { createTestApp, type TestApp } from './test-app.js';

const dataUrl = (type: string, body: string | Buffer) =>
  `data:${type};base64,${Buffer.from(body).toString('base64')}`;
const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>';
const HTML = '<html><body><script>alert(document.cookie)</script></body></html>';

let t: TestApp;
const inject = injectAs(() => t.app);
let tenant: TenantFixture;
let web: string;
beforeAll(async () => {
  web = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-web-'));
  fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
  t = await createTestApp({ WEB_DIST: web });
  tenant = await createTenant(t.app);
});
afterAll(async () => {
  await t.close();
  fs.rmSync(web, { recursive: true, force: true });
});

/** Receives a customer message carrying `mediaUrl` and answers the URL its media is served at. */
async function receiveMedia(mediaUrl: string, mediaType: string): Promise<string> {
  const whatsappId = await createSimulatorConnection(t.app, tenant.admin);
  const { ticketId } = await injectMessage(t.app, tenant.admin, whatsappId, {
    from: customerNumber(),
    body: 'file',
    mediaUrl,
    mediaType,
  });
  const list = await inject('GET', `/api/messages/${ticketId}`, tenant.admin);
  const stored = list.json().messages.find((m: { mediaUrl: string | null }) => m.mediaUrl);
  expect(stored, 'the media was stored').toBeDefined();
  return stored.mediaUrl as string;
}

describe('media that can carry script', () => {
  it('an inbound SVG or HTML file is a download with nosniff and a sandboxing CSP', async () => {
    for (const [type, body] of [
      ['image/svg+xml', SVG],
      ['text/html', HTML],
    ] as const) {
      const url = await receiveMedia(dataUrl(type, body), type.startsWith('image') ? 'image' : 'document');
      const res = await inject('GET', url, tenant.admin);
      expect(res.statusCode, type).toBe(200);
      expect(res.body, type).toBe(body);
      expect(res.headers['content-type'], type).toBe('application/octet-stream');
      expect(res.headers['content-disposition'], type).toMatch(/^attachment; filename="[0-9a-f]{32}\.\w+"$/);
      expect(res.headers['x-content-type-options'], type).toBe('nosniff');
      expect(res.headers['content-security-policy'], type).toBe("default-src 'none'; sandbox");
    }
  });

  it('an image on the allow-list stays inline with its type (positive control)', async () => {
    const url = await receiveMedia(dataUrl('image/png', PNG), 'image');
    const res = await inject('GET', url, tenant.admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toMatch(/^inline;/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.rawPayload.equals(PNG)).toBe(true);
  });

  it('only the inline allow-list keeps its type', () => {
    for (const name of ['a.svg', 'a.html', 'a.htm', 'a.xml', 'a.xhtml', 'a.js', 'a.docx', 'a.bin', 'a']) {
      expect(mediaHeaders(name)['content-disposition'], name).toMatch(/^attachment;/);
      expect(mediaHeaders(name)['content-type'], name).toBe('application/octet-stream');
    }
    for (const [name, type] of [
      ['a.png', 'image/png'],
      ['a.jpg', 'image/jpeg'],
      ['a.webp', 'image/webp'],
      ['a.mp3', 'audio/mpeg'],
      ['a.ogg', 'audio/ogg'],
      ['a.mp4', 'video/mp4'],
      ['a.pdf', 'application/pdf'],
    ]) {
      expect(mediaHeaders(name!)['content-type'], name).toBe(type);
      expect(mediaHeaders(name!)['content-disposition'], name).toMatch(/^inline;/);
    }
  });
});

describe('security headers', () => {
  it('the web app carries a strict CSP, frame-ancestors, nosniff and Referrer-Policy', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/tickets', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toMatch(/img-src 'self' data: blob:/);
    expect(csp).toMatch(/connect-src 'self'/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('API answers carry them too', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('forces https on no install served over plain http (web app and API docs)', async () => {
    for (const url of ['/api/health', '/api/docs/']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(String(res.headers['content-security-policy']), url).toMatch(/default-src 'self'/);
      expect(String(res.headers['content-security-policy']), url).not.toContain('upgrade-insecure-requests');
    }
  });

  it('HSTS only in production', async () => {
    const dev = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(dev.headers['strict-transport-security']).toBeUndefined();
    const prod = await createTestApp({ METRICS_TOKEN: 'scrape-me' }, { production: true });
    try {
      const res = await prod.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+; includeSubDomains/);
    } finally {
      await prod.close();
    }
  });
});

describe('/metrics', () => {
  it('is open outside production without METRICS_TOKEN (positive control)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
  });

  it('answers 404 in production without METRICS_TOKEN', async () => {
    const prod = await createTestApp({}, { production: true });
    try {
      const res = await prod.app.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NOT_FOUND' });
    } finally {
      await prod.close();
    }
  });

  it('needs its token in production when METRICS_TOKEN is set', async () => {
    const prod = await createTestApp({ METRICS_TOKEN: 'scrape-me' }, { production: true });
    try {
      const refused = await prod.app.inject({ method: 'GET', url: '/metrics' });
      expect(refused.statusCode).toBe(401);
      const wrong = await prod.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer nope' },
      });
      expect(wrong.statusCode).toBe(401);
      const ok = await prod.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer scrape-me' },
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.body).toContain('http_request_duration_seconds');
    } finally {
      await prod.close();
    }
  });
});
