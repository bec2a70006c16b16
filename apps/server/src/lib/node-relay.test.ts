/** Calls between nodes over Redis. Runs when TEST_REDIS_URL is set. */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from './app-error.js';
import { NodeRelay } from './node-relay.js';

const redisUrl = process.env.TEST_REDIS_URL;

describe.runIf(redisUrl)('NodeRelay', () => {
  const id = crypto.randomBytes(4).toString('hex');
  const a = new NodeRelay(redisUrl!, `relay-a-${id}`);
  const b = new NodeRelay(redisUrl!, `relay-b-${id}`, 300);
  beforeAll(async () => {
    a.handle('echo', async (payload) => ({ echoed: payload, by: a.nodeId }));
    a.handle('refuse', async () => {
      throw new AppError('ERR_NO_PERMISSION');
    });
    a.handle('break', async () => {
      throw new Error('boom');
    });
    a.handle('hang', () => new Promise(() => {}));
    await Promise.all([a.start(), b.start()]);
  });
  afterAll(async () => {
    await Promise.all([a.stop(), b.stop()]);
  });

  it('runs a call on the named node and brings its answer back', async () => {
    expect(await b.call(a.nodeId, 'echo', { n: 1, text: 'olá' })).toEqual({
      echoed: { n: 1, text: 'olá' },
      by: a.nodeId,
    });
  });

  it("brings the handler's error code back; other failures are internal errors", async () => {
    await expect(b.call(a.nodeId, 'refuse', null)).rejects.toMatchObject({
      code: 'ERR_NO_PERMISSION',
      status: 403,
    });
    await expect(b.call(a.nodeId, 'break', null)).rejects.toMatchObject({
      code: 'ERR_INTERNAL_SERVER_ERROR',
    });
    await expect(b.call(a.nodeId, 'missing', null)).rejects.toMatchObject({ code: 'ERR_NOT_FOUND' });
  });

  it('answers ERR_SERVICE_UNAVAILABLE when no node listens or no answer comes in time', async () => {
    await expect(b.call('nobody-listens', 'echo', null)).rejects.toMatchObject({
      code: 'ERR_SERVICE_UNAVAILABLE',
    });
    const started = Date.now();
    await expect(b.call(a.nodeId, 'hang', null)).rejects.toMatchObject({ code: 'ERR_SERVICE_UNAVAILABLE' });
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
