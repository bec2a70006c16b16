import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTenant, injectAs } from './test/factories.js';
import { createTestApp, type TestApp } from './test/test-app.js';

/** The Accept header of a browser's page load. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

let t: TestApp;
const inject = injectAs(() => t.app);
let web: string;
beforeAll(async () => {
  web = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-web-'));
  fs.writeFileSync(
    path.join(web, 'index.html'),
    '<!doctype html><title>Zapdesk</title><div id="root"></div>',
  );
  fs.mkdirSync(path.join(web, 'assets'));
  fs.writeFileSync(path.join(web, 'assets', 'app.js'), 'console.log(1)');
  t = await createTestApp({ WEB_DIST: web });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(web, { recursive: true, force: true });
});

describe('errors', () => {
  it('unknown API routes answer 404 ERR_NOT_FOUND as JSON', async () => {
    for (const url of ['/api/nothing', '/api/users/1/nothing', '/api']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ error: 'ERR_NOT_FOUND' });
    }
  });

  it('bad input never gives a 500', async () => {
    const { admin } = await createTenant(t.app);
    const bodies: (string | undefined)[] = [
      '{',
      'null',
      '[]',
      '"x"',
      '{"email":1}',
      '{"name":{"$gt":""}}',
      'a'.repeat(2_000_000),
      undefined,
    ];
    const urls = [
      '/api/auth/login',
      '/api/users',
      '/api/companies/cadastro',
      '/api/users/abc',
      '/api/users/-1',
      '/api/users/99999999999999999999',
    ];
    for (const url of urls) {
      for (const payload of bodies) {
        for (const method of ['POST', 'PUT'] as const) {
          const res = await t.app.inject({
            method,
            url,
            headers: { ...bearer(admin), 'content-type': 'application/json' },
            payload,
          });
          expect(res.statusCode, `${method} ${url} ${payload?.slice(0, 20)}`).toBeLessThan(500);
          expect(res.json().error, `${method} ${url}`).toMatch(/^ERR_/);
        }
      }
    }
    const wrongType = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'text/xml' },
      payload: '<a/>',
    });
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json().error).toBe('ERR_UNSUPPORTED_MEDIA_TYPE');
  });

  it('paths answer with and without a trailing slash', async () => {
    const { agent } = await createTenant(t.app);
    expect((await inject('GET', '/api/settings/', agent)).statusCode).toBe(200);
    expect((await inject('GET', '/api/settings', agent)).statusCode).toBe(200);
  });
});

describe('web app, docs and metrics', () => {
  it('serves the built web app with an index.html fallback for client routes', async () => {
    const root = await t.app.inject({
      method: 'GET',
      url: '/tickets/abc',
      headers: { accept: BROWSER_ACCEPT },
    });
    expect(root.statusCode).toBe(200);
    expect(root.headers['content-type']).toContain('text/html');
    expect(root.body).toContain('<div id="root">');
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(asset.body).toBe('console.log(1)');
  });

  it('answers 404 for unknown files, and the page for client routes whatever the Accept header', async () => {
    const page = await t.app.inject({
      method: 'GET',
      url: '/contacts?x=1',
      headers: { accept: BROWSER_ACCEPT },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');
    for (const url of ['/favicon.ico', '/foo.js', '/assets/missing.css', '/deep/path/robots.txt?v=1']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { accept: BROWSER_ACCEPT } });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ error: 'ERR_NOT_FOUND' });
    }
    // curl, an uptime monitor, a fetch without Accept: the client route is still the page.
    for (const accept of ['*/*', 'application/json', 'application/json, text/plain, */*', undefined]) {
      const headers: Record<string, string> = { 'user-agent': 'curl/8.5.0' };
      if (accept) headers.accept = accept;
      for (const url of ['/login', '/tickets']) {
        const res = await t.app.inject({ method: 'GET', url, headers });
        expect(res.statusCode, `${url} ${accept}`).toBe(200);
        expect(res.headers['content-type']).toContain('text/html');
        expect(res.body).toContain('<div id="root">');
      }
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/login', headers: { accept: '*/*' } });
    expect(head.statusCode).toBe(200);
    // The API, socket.io and /metrics keep their JSON 404 whatever the Accept header.
    for (const url of ['/api/nothing', '/api', '/socket.io/nothing', '/api/users/1/nothing']) {
      for (const accept of ['*/*', BROWSER_ACCEPT]) {
        const res = await t.app.inject({ method: 'GET', url, headers: { accept } });
        expect(res.statusCode, `${url} ${accept}`).toBe(404);
        expect(res.json(), url).toEqual({ error: 'ERR_NOT_FOUND' });
      }
    }
    const post = await t.app.inject({ method: 'POST', url: '/login', headers: { accept: '*/*' } });
    expect(post.statusCode).toBe(404);
  });

  it('publishes OpenAPI at /api/docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/auth/login', '/api/users/{id}']));
    expect((await t.app.inject({ method: 'GET', url: '/api/docs' })).statusCode).toBeLessThan(400);
  });

  it('exposes Prometheus metrics with request durations', async () => {
    await t.app.inject({ method: 'GET', url: '/api/health' });
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('http_request_duration_seconds_bucket');
    expect(res.body).toContain('route="/api/health"');
    expect(res.body).toContain('process_cpu_user_seconds_total');
  });
});

describe('GET /api/health', () => {
  it('answers ok, then 503 once the database is gone', async () => {
    const other = await createTestApp();
    const ok = await other.app.inject({ method: 'GET', url: '/api/health' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ status: 'ok' });
    await other.database.close();
    const down = await other.app.inject({ method: 'GET', url: '/api/health' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ status: 'error', error: 'ERR_SERVICE_UNAVAILABLE' });
    await other.close();
  });
});

describe('GET /api/ready', () => {
  it('is ready with the database up and migrations applied, and 503 while draining', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/ready', headers: { accept: '*/*' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers.connection).not.toBe('close');
    expect(res.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', redis: 'off', migrations: 'ok', draining: false },
    });
    t.app.readiness.draining = true;
    try {
      const draining = await t.app.inject({ method: 'GET', url: '/api/ready' });
      expect(draining.statusCode).toBe(503);
      expect(draining.json()).toMatchObject({ status: 'error', error: 'ERR_SERVICE_UNAVAILABLE' });
      expect(draining.json().checks.draining).toBe(true);
      // Liveness is not readiness: a draining node is still alive.
      const health = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(200);
      // While draining every answer closes its connection, so a proxy does not reuse it.
      expect(health.headers.connection).toBe('close');
      expect(draining.headers.connection).toBe('close');
    } finally {
      t.app.readiness.draining = false;
    }
  });

  it('is not ready when a migration of this build is missing or the database is gone', async () => {
    const other = await createTestApp();
    const newest = await other.database.executor.executeSql(
      'select max(created_at)::text as newest from drizzle.__drizzle_migrations',
    );
    await other.database.executor.executeSql(
      'delete from drizzle.__drizzle_migrations where created_at = $1',
      [newest.rows[0]!.newest],
    );
    const behind = await other.app.inject({ method: 'GET', url: '/api/ready' });
    expect(behind.statusCode).toBe(503);
    expect(behind.json().checks).toMatchObject({ database: 'ok', migrations: 'error' });
    await other.database.close();
    const down = await other.app.inject({ method: 'GET', url: '/api/ready' });
    expect(down.statusCode).toBe(503);
    expect(down.json().checks).toMatchObject({ database: 'error', migrations: 'error' });
    await other.close();
  });

  it.runIf(process.env.TEST_REDIS_URL)('checks Redis when REDIS_URL is set', async () => {
    const other = await createTestApp({ REDIS_URL: process.env.TEST_REDIS_URL! });
    const up = await other.app.inject({ method: 'GET', url: '/api/ready' });
    expect(up.statusCode).toBe(200);
    expect(up.json().checks.redis).toBe('ok');
    await other.app.ctx.redis!.quit();
    const down = await other.app.inject({ method: 'GET', url: '/api/ready' });
    expect(down.statusCode).toBe(503);
    expect(down.json().checks.redis).toBe('error');
    await other.close();
  });
});
