/**
 * The local-folder-to-bucket copy behind `npm run media:migrate`: copies every company's files
 * under the same keys, skips what is already there with the same size, and prints counts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMediaMigrate } from '../../media-migrate.js';
import { S3RVER_KEYS, startTestS3, type TestS3 } from '../../test/s3-server.js';
import { copyFolderToStorage } from './copy-folder.js';
import { S3Storage } from './s3-storage.js';

let s3: TestS3;
let dataDir: string;
let bucket: S3Storage;
const root = () => path.join(dataDir, 'media');
const write = (key: string, body: string) => {
  fs.mkdirSync(path.dirname(path.join(root(), key)), { recursive: true });
  fs.writeFileSync(path.join(root(), key), body);
};

beforeAll(async () => {
  s3 = await startTestS3('migrate-target');
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-migrate-'));
  bucket = new S3Storage({
    bucket: s3.bucket,
    endpoint: s3.endpoint,
    region: 'us-east-1',
    credentials: S3RVER_KEYS,
    forcePathStyle: true,
  });
});
afterAll(async () => {
  await s3.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('copyFolderToStorage', () => {
  it('copies every file once, skips same-size objects, recopies changed ones, leaves temporary files', async () => {
    write('1/aaaa.png', 'one');
    write('1/bbbb.pdf', 'two two');
    write('2/cccc.mp4', 'three');
    write('2/dddd.png.1a2b.tmp', 'half');
    const first = await copyFolderToStorage(root(), bucket);
    expect(first).toEqual({ copied: 3, skipped: 0, failed: 0, problems: [] });
    expect((await bucket.read('1/bbbb.pdf'))?.toString()).toBe('two two');
    expect(await bucket.exists('2/dddd.png.1a2b.tmp')).toBe(false);

    const again = await copyFolderToStorage(root(), bucket);
    expect(again).toMatchObject({ copied: 0, skipped: 3, failed: 0 });

    write('1/aaaa.png', 'one, longer');
    write('3/eeee.jpg', 'new');
    write('3/bad name.jpg', 'x');
    const seen: string[] = [];
    const third = await copyFolderToStorage(root(), bucket, (key, outcome) => seen.push(`${key} ${outcome}`));
    expect(third).toMatchObject({ copied: 2, skipped: 2, failed: 1 });
    expect(third.problems).toEqual(['3/bad name.jpg: invalid storage key: 3/bad name.jpg']);
    expect(seen).toContain('1/aaaa.png copied');
    expect((await bucket.read('1/aaaa.png'))?.toString()).toBe('one, longer');
  });

  it('runs as a command: checks the bucket, prints the counts and exits 1 when a file failed', async () => {
    const lines: string[] = [];
    const env = { ...s3.env, STORAGE: 'local', DATA_DIR: dataDir };
    expect(await runMediaMigrate(env, [], (line) => lines.push(line))).toBe(1);
    expect(lines.at(-1)).toBe('copied 0, already there 4, failed 1');
    fs.rmSync(path.join(root(), '3', 'bad name.jpg'));
    expect(await runMediaMigrate(env, [], (line) => lines.push(line))).toBe(0);

    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-migrate-'));
    expect(await runMediaMigrate(env, [path.join(empty, 'none')], (line) => lines.push(line))).toBe(0);
    expect(lines.at(-1)).toMatch(/^No media folder at/);
    await expect(
      runMediaMigrate({ ...env, S3_BUCKET: 'missing-bucket' }, [], (line) => lines.push(line)),
    ).rejects.toThrow(/^S3_BUCKET/);
    fs.rmSync(empty, { recursive: true, force: true });
  });
});
