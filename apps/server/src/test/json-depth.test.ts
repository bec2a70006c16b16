/**
 * JSON bodies nested beyond MAX_JSON_DEPTH are refused with 400 before they are parsed, and such
 * requests in flight do not hold up the server: `/api/health` keeps answering within a second. A
 * body at the allowed depth still reaches the route's schema, and a normal login still succeeds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNulByte } from '../lib/input-guard.js';
import { jsonTooDeep, MAX_JSON_DEPTH } from '../lib/json-body.js';
import { createTenant, TEST_PASSWORD, type TenantFixture } from './factories.js';
import { listenLocally } from './sockets.js';
import { createTestApp, type TestApp } from './test-app.js';

/** `levels` arrays, one inside the other, around `inner`, as JSON text. */
const deepArray = (levels: number, inner = '1') => `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`;
/** `levels` objects `{"a":...}`, one inside the other, around `inner`, as JSON text. */
const deepObject = (levels: number, inner = '1') => `${'{"a":'.repeat(levels)}${inner}${'}'.repeat(levels)}`;

describe('jsonTooDeep', () => {
  it('counts brackets outside strings only', () => {
    expect(jsonTooDeep(deepArray(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonTooDeep(deepArray(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonTooDeep(deepObject(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonTooDeep(JSON.stringify({ a: '['.repeat(500), b: '\\"{{{{' }))).toBe(false);
    expect(jsonTooDeep(`{"a":"\\\\",${deepArray(3)}}`, 4)).toBe(false);
    expect(jsonTooDeep(`{"a":"\\"",${deepArray(4)}}`, 4)).toBe(true);
  });
});

describe('findNulByte', () => {
  it('walks any depth without recursion and names the path', () => {
    let deep: unknown = 'a\u0000b';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findNulByte(deep)).toBe(Array(100_000).fill('0').join('.'));
    expect(findNulByte({ a: [{ b: 'x' }, { c: 'y\u0000' }] })).toBe('a.1.c');
    expect(findNulByte({ a: { 'k\u0000': 1 } })).toBe('a.k\u0000');
    expect(findNulByte('\u0000')).toBe('');
    expect(findNulByte({ a: ['x', { b: 'y' }] })).toBeUndefined();
  });
});

describe('deeply nested JSON bodies', () => {
  let t: TestApp;
  let a: TenantFixture;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_MAX: '1000' });
    a = await createTenant(t.app);
    base = await listenLocally(t.app);
  });
  afterAll(async () => t?.close());

  const login = (body: string) =>
    fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });

  it('answers 10 logins nested 20,000 deep with 4xx while /api/health answers within a second', {
    timeout: 60_000,
  }, async () => {
    const bodies = Array.from({ length: 10 }, (_, i) =>
      i % 2
        ? `{"email":"x@example.test","password":${deepArray(20_000, '"p"')}}`
        : `{"email":"x@example.test","password":"p","extra":${deepObject(20_000)}}`,
    );
    let inFlight = true;
    const healthTimes: number[] = [];
    const healthStatuses: number[] = [];
    const probe = (async () => {
      while (inFlight) {
        const started = performance.now();
        const res = await fetch(`${base}/api/health`);
        await res.arrayBuffer();
        healthTimes.push(performance.now() - started);
        healthStatuses.push(res.status);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const answers = await Promise.all(
      bodies.map(async (body) => {
        const res = await login(body);
        return { status: res.status, body: (await res.json()) as { error?: string } };
      }),
    );
    inFlight = false;
    await probe;
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('ERR_VALIDATION');
    }
    expect(healthStatuses.length).toBeGreaterThan(0);
    expect(new Set(healthStatuses)).toEqual(new Set([200]));
    expect(Math.max(...healthTimes)).toBeLessThan(1000);

    // Positive control: a normal login succeeds afterwards.
    const good = await login(JSON.stringify({ email: a.admin.email, password: TEST_PASSWORD }));
    expect(good.status).toBe(200);
    expect(((await good.json()) as { token?: string }).token).toEqual(expect.any(String));
  });

  it('lets a body at the allowed depth reach the schema', async () => {
    // Within the bound, the route's own schema answers (the password must be a string).
    const atLimit = await login(
      `{"email":"x@example.test","password":${deepArray(MAX_JSON_DEPTH - 1, '"p"')}}`,
    );
    expect(atLimit.status).toBe(400);
    expect(await atLimit.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'password' });
    const beyond = await login(`{"email":"x@example.test","password":${deepArray(MAX_JSON_DEPTH, '"p"')}}`);
    expect(beyond.status).toBe(400);
    expect(await beyond.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'body' });
    // Fastify's own refusals stay: empty and malformed bodies, __proto__ keys.
    expect((await login('')).status).toBe(400);
    expect((await login('{"email":')).status).toBe(400);
    expect((await login('{"__proto__":{"x":1},"email":"x@example.test","password":"p"}')).status).toBe(400);
  });
});
