/**
 * The Storage drivers against one contract: local disk (a temporary folder) and S3 (s3rver on
 * loopback). Then the S3 driver's start-up check (missing bucket, refused keys, unreachable
 * endpoint) and its answer during an outage.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3RVER_KEYS, startTestS3, type TestS3 } from '../../test/s3-server.js';
import { LocalStorage } from './local-storage.js';
import { S3Storage } from './s3-storage.js';
import { type Storage, StorageUnavailableError } from './storage.js';

let s3: TestS3;
let folder: string;

beforeAll(async () => {
  s3 = await startTestS3();
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-storage-'));
});
afterAll(async () => {
  await s3.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

const s3Storage = (options: Partial<ConstructorParameters<typeof S3Storage>[0]> = {}) =>
  new S3Storage({
    bucket: s3.bucket,
    endpoint: s3.endpoint,
    region: 'us-east-1',
    credentials: S3RVER_KEYS,
    forcePathStyle: true,
    ...options,
  });

async function text(stream: Readable | undefined): Promise<string | undefined> {
  if (!stream) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString();
}

/** A closed loopback port: connections to it are refused. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.each([
  ['local', () => new LocalStorage(folder) as Storage],
  ['s3', () => s3Storage() as Storage],
])('%s driver', (kind, make) => {
  it('saves, reads, streams ranges, sizes and deletes objects; a missing key is not an error', async () => {
    const storage = make();
    expect(storage.kind).toBe(kind);
    await storage.check();
    await storage.save('7/a.txt', Buffer.from('0123456789'));
    expect((await storage.read('7/a.txt'))?.toString()).toBe('0123456789');
    expect(await storage.stat('7/a.txt')).toEqual({ size: 10 });
    expect(await storage.exists('7/a.txt')).toBe(true);
    expect(await text(await storage.open('7/a.txt'))).toBe('0123456789');
    expect(await text(await storage.open('7/a.txt', { start: 2, end: 5 }))).toBe('2345');
    expect(await text(await storage.open('7/a.txt', { start: 9, end: 9 }))).toBe('9');

    // Saving again replaces the object.
    await storage.save('7/a.txt', Buffer.from('new'));
    expect(await storage.stat('7/a.txt')).toEqual({ size: 3 });

    // Missing keys.
    expect(await storage.read('7/missing.txt')).toBeUndefined();
    expect(await storage.stat('7/missing.txt')).toBeUndefined();
    expect(await storage.exists('7/missing.txt')).toBe(false);
    expect(await storage.open('7/missing.txt')).toBeUndefined();
    await storage.remove('7/missing.txt');

    await storage.remove('7/a.txt');
    expect(await storage.exists('7/a.txt')).toBe(false);
  });

  it("deletes a company's folder and nothing of another company", async () => {
    const storage = make();
    await storage.save('8/one.png', Buffer.from('1'));
    await storage.save('8/two.png', Buffer.from('22'));
    await storage.save('80/other.png', Buffer.from('3'));
    await storage.removeFolder('8');
    expect(await storage.exists('8/one.png')).toBe(false);
    expect(await storage.exists('8/two.png')).toBe(false);
    expect(await storage.exists('80/other.png')).toBe(true);
    await storage.removeFolder('9');
  });

  it('refuses keys that could leave the storage', async () => {
    const storage = make();
    for (const key of ['../x', '7/../../x', '/etc/passwd', '7/', '7//a', '7/a b']) {
      await expect(storage.save(key, Buffer.from('x'))).rejects.toThrow('invalid storage key');
    }
  });
});

describe('S3 start-up check and outage', () => {
  it('names S3_BUCKET when the bucket does not exist', async () => {
    await expect(s3Storage({ bucket: 'no-such-bucket' }).check()).rejects.toThrow(
      /^S3_BUCKET: the bucket "no-such-bucket" does not exist/,
    );
  });

  it('names the key variables when the server refuses the keys', async () => {
    await expect(
      s3Storage({ credentials: { accessKeyId: 'WRONG', secretAccessKey: 'WRONG' } }).check(),
    ).rejects.toThrow(/^S3_ACCESS_KEY_ID \/ S3_SECRET_ACCESS_KEY: .* refused the keys/);
  });

  it('names S3_ENDPOINT when nothing answers there', async () => {
    const endpoint = `http://127.0.0.1:${await closedPort()}`;
    await expect(s3Storage({ endpoint }).check()).rejects.toThrow(/^S3_ENDPOINT: cannot reach/);
  });

  it('answers StorageUnavailableError (503 ERR_STORAGE_UNAVAILABLE) while the server is down', async () => {
    const down = s3Storage({ endpoint: `http://127.0.0.1:${await closedPort()}` });
    const failure = await down.save('7/a.txt', Buffer.from('x')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StorageUnavailableError);
    expect(failure).toMatchObject({ code: 'ERR_STORAGE_UNAVAILABLE', status: 503 });
    await expect(down.stat('7/a.txt')).rejects.toBeInstanceOf(StorageUnavailableError);
  });
});
