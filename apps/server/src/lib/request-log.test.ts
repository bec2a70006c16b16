import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/test-app.js';
import { requestLogLevel } from './request-log.js';

describe('requestLogLevel', () => {
  it('logs failures and slowness above debug, and quick successes at debug', () => {
    expect(requestLogLevel(200, 5, 1000)).toBe('debug');
    expect(requestLogLevel(304, 5, 1000)).toBe('debug');
    expect(requestLogLevel(404, 5, 1000)).toBe('info');
    expect(requestLogLevel(200, 1500, 1000)).toBe('warn');
    expect(requestLogLevel(404, 1500, 1000)).toBe('warn');
    expect(requestLogLevel(500, 5, 1000)).toBe('error');
    expect(requestLogLevel(503, 1500, 1000)).toBe('error');
  });
});

/** An app whose log lines (parsed JSON) are collected, at pino level `level`. */
async function loggedApp(level: string) {
  const lines: { level: number; msg: string; res?: { statusCode: number }; req?: { url: string } }[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const t = await createTestApp({}, {}, { logger: { level, stream } });
  return { t, lines };
}

describe('request logging', () => {
  it('writes one line per failed request at info and none for a success', async () => {
    const { t, lines } = await loggedApp('info');
    try {
      const ok = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(ok.statusCode).toBe(200);
      const missing = await t.app.inject({ method: 'GET', url: '/api/no-such-route' });
      expect(missing.statusCode).toBe(404);
      const requests = lines.filter((l) => l.req);
      expect(requests.map((l) => [l.req?.url, l.res?.statusCode, l.msg])).toEqual([
        ['/api/no-such-route', 404, 'request completed'],
      ]);
      expect(requests[0]!.level).toBe(30);
    } finally {
      await t.close();
    }
  });

  it('writes successful requests at debug', async () => {
    const { t, lines } = await loggedApp('debug');
    try {
      await t.app.inject({ method: 'GET', url: '/api/health' });
      const health = lines.filter((l) => l.req?.url === '/api/health');
      expect(health).toHaveLength(1);
      expect(health[0]).toMatchObject({ level: 20, msg: 'request completed', res: { statusCode: 200 } });
    } finally {
      await t.close();
    }
  });
});
