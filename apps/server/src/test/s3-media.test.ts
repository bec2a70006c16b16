/**
 * Media in an S3 bucket (STORAGE=s3, s3rver on loopback): uploads and inbound media land in the
 * bucket, not on the node's disk, and are streamed back through /api/public/:name to the owning
 * company only, with byte ranges (206) for audio and video seeking. During a storage outage an
 * upload answers 503 ERR_STORAGE_UNAVAILABLE and leaves no row pointing at a missing object.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Storage } from '../lib/storage/create-storage.js';
import {
  bearer,
  createSimulatorConnection,
  createTenantPair,
  customerNumber,
  injectAs,
  injectMessage,
} from './factories.js';
import { multipartBody, PNG } from './multipart.js';
import { startTestS3, type TestS3 } from './s3-server.js';
import { a, b, t, useTenantPairSuite } from './tenant-pair-suite.js';
import { createTestApp, type TestApp } from './test-app.js';

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
// After hooks run in reverse order: the bucket closes after the app.
afterAll(() => s3?.close());
useTenantPairSuite(() => s3.env);

const inject = injectAs(() => t.app);
const quickUpload = (data: Buffer, fileName: string, type: string) =>
  multipartBody([
    { name: 'typeArch', value: 'quickMessage' },
    { name: 'file', value: data, filename: fileName, type },
  ]);

/** Uploads PNG as a new quick message's media in `app` as `user`: the answer and the quick message's id. */
async function uploadQuickMedia(app: TestApp['app'], user: { token: string }) {
  const created = await app.inject({
    method: 'POST',
    url: '/api/quick-messages',
    headers: bearer(user),
    payload: { shortcode: `foto${Date.now()}` },
  });
  const id = created.json().id as number;
  const body = quickUpload(PNG, 'pixel.png', 'image/png');
  const res = await app.inject({
    method: 'POST',
    url: `/api/quick-messages/${id}/media-upload`,
    payload: body.payload,
    headers: { ...body.headers, ...bearer(user) },
  });
  return { res, id };
}

describe('STORAGE=s3', () => {
  it('stores an upload in the bucket and serves it, whole and by range, to its company only', async () => {
    const { res } = await uploadQuickMedia(t.app, a.agent);
    expect(res.statusCode, res.body).toBe(200);
    const name = res.json().mediaPath as string;
    expect(name).toMatch(/^[0-9a-f]{32}\.png$/);

    // In the bucket under <companyId>/<name>; nothing on this node's disk.
    const bucket = createS3Storage(t.config);
    expect(await bucket.stat(`${a.companyId}/${name}`)).toEqual({ size: PNG.length });
    expect(fs.existsSync(path.join(t.config.dataDir, 'media'))).toBe(false);

    const whole = await inject('GET', `/api/public/${name}`, a.agent);
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(PNG)).toBe(true);
    expect(whole.headers['content-type']).toBe('image/png');
    expect(whole.headers['content-length']).toBe(String(PNG.length));
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.headers['x-content-type-options']).toBe('nosniff');
    expect(whole.headers['content-security-policy']).toBe("default-src 'none'; sandbox");

    const part = await t.app.inject({
      method: 'GET',
      url: `/api/public/${name}`,
      headers: { ...bearer(a.agent), range: 'bytes=1-8' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1-8/${PNG.length}`);
    expect(part.headers['content-length']).toBe('8');
    expect(part.rawPayload.equals(PNG.subarray(1, 9))).toBe(true);

    const tail = await t.app.inject({
      method: 'GET',
      url: `/api/public/${name}`,
      headers: { ...bearer(a.agent), range: 'bytes=-4' },
    });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(PNG.subarray(PNG.length - 4))).toBe(true);

    const beyond = await t.app.inject({
      method: 'GET',
      url: `/api/public/${name}`,
      headers: { ...bearer(a.agent), range: `bytes=${PNG.length + 10}-` },
    });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${PNG.length}`);

    // Another company's user, and nobody signed in, do not get it.
    expect((await inject('GET', `/api/public/${name}`, b.admin)).statusCode).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/public/${name}`,
          headers: { ...bearer(b.admin), range: 'bytes=0-3' },
        })
      ).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/public/${name}` })).statusCode).toBe(401);
  });

  it('keeps inbound media in the bucket and lets audio seek; sends uploaded files from it', async () => {
    const whatsappId = await createSimulatorConnection(t.app, a.admin);
    const audio = Buffer.alloc(4096, 7);
    audio.write('ID3', 0);
    const from = customerNumber();
    const { ticketId } = await injectMessage(t.app, a.admin, whatsappId, {
      from,
      body: 'áudio',
      mediaUrl: `data:audio/mpeg;base64,${audio.toString('base64')}`,
      mediaType: 'audio',
    });
    const list = (await inject('GET', `/api/messages/${ticketId}`, a.admin)).json();
    const stored = list.messages.find((m: { mediaUrl: string | null }) => m.mediaUrl);
    const url = stored.mediaUrl as string;
    expect(url).toMatch(/\/public\/[0-9a-f]{32}\.mpga$/);
    const seek = await t.app.inject({
      method: 'GET',
      url,
      headers: { ...bearer(a.agent), range: 'bytes=1024-' },
    });
    expect(seek.statusCode).toBe(206);
    expect(seek.headers['content-type']).toBe('audio/mpeg');
    expect(seek.headers['content-range']).toBe('bytes 1024-4095/4096');
    expect(seek.rawPayload.equals(audio.subarray(1024))).toBe(true);
    expect((await t.app.inject({ method: 'GET', url, headers: bearer(b.admin) })).statusCode).toBe(404);

    // An agent's file goes to the bucket, and the outbound delivery reads it from there.
    const upload = multipartBody([{ name: 'medias', value: PNG, filename: 'pixel.png', type: 'image/png' }]);
    const sent = await t.app.inject({
      method: 'POST',
      url: `/api/messages/${ticketId}`,
      headers: { ...bearer(a.admin), ...upload.headers },
      payload: upload.payload,
    });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(t.app.simulator.outbox(whatsappId, from).at(-1)?.kind).toBe('image');
    const mediaUrl = sent.json()[0].mediaUrl as string;
    const back = await inject('GET', mediaUrl, a.agent);
    expect(back.rawPayload.equals(PNG)).toBe(true);
  });

  it('answers 503 ERR_STORAGE_UNAVAILABLE during an outage and stores nothing half-way', async () => {
    // A second node of the same setup whose bucket endpoint refuses connections.
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as net.AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const down = await createTestApp({ ...s3.env, S3_ENDPOINT: `http://127.0.0.1:${port}` });
    try {
      const { a: tenant } = await createTenantPair(down.app);
      const { res, id } = await uploadQuickMedia(down.app, tenant.agent);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ error: 'ERR_STORAGE_UNAVAILABLE' });
      const quick = await down.app.inject({
        method: 'GET',
        url: `/api/quick-messages/${id}`,
        headers: bearer(tenant.agent),
      });
      expect(quick.json()).toMatchObject({ mediaPath: null, mediaName: null });

      // A message with a file: refused, and no message row was written.
      const whatsappId = await createSimulatorConnection(down.app, tenant.admin);
      const { ticketId } = await injectMessage(down.app, tenant.admin, whatsappId, {
        from: customerNumber(),
        body: 'oi',
      });
      const upload = multipartBody([
        { name: 'medias', value: PNG, filename: 'pixel.png', type: 'image/png' },
      ]);
      const sent = await down.app.inject({
        method: 'POST',
        url: `/api/messages/${ticketId}`,
        headers: { ...bearer(tenant.admin), ...upload.headers },
        payload: upload.payload,
      });
      expect(sent.statusCode).toBe(503);
      expect(sent.json()).toEqual({ error: 'ERR_STORAGE_UNAVAILABLE' });
      const messages = (
        await down.app.inject({
          method: 'GET',
          url: `/api/messages/${ticketId}`,
          headers: bearer(tenant.admin),
        })
      ).json().messages as unknown[];
      expect(messages).toHaveLength(1);
    } finally {
      await down.close();
    }
  });
});
