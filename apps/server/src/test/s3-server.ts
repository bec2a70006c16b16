import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/** An S3-protocol server on loopback for one test file (s3rver: files in a temporary folder). */
export interface TestS3 {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  /** The bucket created at start. */
  bucket: string;
  /** The environment that points Zapdesk at it (STORAGE=s3 and the S3_* variables). */
  env: Record<string, string>;
  /** Stops the server and deletes its folder. */
  close(): Promise<void>;
}

/** s3rver's built-in account: any other access key id is refused (InvalidAccessKeyId, 403). */
export const S3RVER_KEYS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** Starts s3rver on 127.0.0.1 with a random port, a temporary folder and one bucket. */
export async function startTestS3(bucket = 'zapdesk-media'): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      STORAGE: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: S3RVER_KEYS.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3RVER_KEYS.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    },
    close: async () => {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
