import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { assertKey, type ByteRange, type Storage, StorageUnavailableError } from './storage.js';

/** Where the bucket is and how to reach it (STORAGE=s3; see config.ts for the variables). */
export interface S3Options {
  bucket: string;
  /** S3_ENDPOINT, e.g. 'http://minio:9000'; AWS's own endpoint for the region when unset. */
  endpoint?: string;
  region: string;
  /** S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY; the SDK's default chain (role, profile) when unset. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Bucket in the path (`endpoint/bucket/key`) rather than the host name: MinIO and most self-hosted servers. */
  forcePathStyle: boolean;
}

/** The HTTP status an SDK error carries, if any. */
function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

function isMissing(error: unknown): boolean {
  const name = (error as Error).name;
  return name === 'NoSuchKey' || name === 'NotFound' || statusOf(error) === 404;
}

/**
 * Objects in one bucket of an S3-compatible service (AWS S3, MinIO, Cloudflare R2, Backblaze B2,
 * DigitalOcean Spaces). Keys are the storage keys as they are (`<companyId>/<name>`). The bucket is
 * private: objects are only ever read by Zapdesk, which streams them to the owning company.
 */
export class S3Storage implements Storage {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(private readonly options: S3Options) {
    this.bucket = options.bucket;
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      forcePathStyle: options.forcePathStyle,
      // Checksums only where the protocol requires them: several S3-compatible servers reject the
      // newer default checksum headers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 5000, requestTimeout: 60_000 },
    });
  }

  /** Sends one command; a missing key gives `onMissing`, any other failure StorageUnavailableError. */
  private async call<T>(run: () => Promise<T>, onMissing?: () => T): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (onMissing && isMissing(error)) return onMissing();
      throw new StorageUnavailableError(error);
    }
  }

  async save(key: string, data: Buffer): Promise<void> {
    assertKey(key);
    await this.call(() =>
      this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: data, ContentLength: data.length }),
      ),
    );
  }

  async open(key: string, range?: ByteRange): Promise<Readable | undefined> {
    assertKey(key);
    return this.call(
      async () => {
        const answer = await this.client.send(
          new GetObjectCommand({
            Bucket: this.bucket,
            Key: key,
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
        );
        return answer.Body as Readable;
      },
      () => undefined,
    );
  }

  async read(key: string): Promise<Buffer | undefined> {
    assertKey(key);
    return this.call(
      async () => {
        const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
        return Buffer.from(await answer.Body!.transformToByteArray());
      },
      () => undefined,
    );
  }

  async stat(key: string): Promise<{ size: number } | undefined> {
    assertKey(key);
    return this.call(
      async () => {
        const answer = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
        return { size: answer.ContentLength ?? 0 };
      },
      () => undefined,
    );
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== undefined;
  }

  async remove(key: string): Promise<void> {
    assertKey(key);
    await this.call(
      () => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })),
      () => undefined,
    );
  }

  async removeFolder(prefix: string): Promise<void> {
    assertKey(prefix);
    let token: string | undefined;
    do {
      const page = await this.call(() =>
        this.client.send(
          new ListObjectsV2Command({ Bucket: this.bucket, Prefix: `${prefix}/`, ContinuationToken: token }),
        ),
      );
      const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
      if (keys.length) {
        await this.call(() =>
          this.client.send(
            new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys, Quiet: true } }),
          ),
        );
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /**
   * HeadBucket: the bucket exists and accepts the keys.
   * @throws Error naming S3_BUCKET (missing), S3_ACCESS_KEY_ID/S3_SECRET_ACCESS_KEY (refused),
   * S3_REGION (wrong region) or S3_ENDPOINT (unreachable).
   */
  async check(): Promise<void> {
    const where = this.options.endpoint ?? `AWS region ${this.options.region}`;
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      const status = statusOf(error);
      const detail = (error as Error).message || (error as Error).name;
      if (
        status === 404 ||
        (error as Error).name === 'NotFound' ||
        (error as Error).name === 'NoSuchBucket'
      ) {
        throw new Error(`S3_BUCKET: the bucket "${this.bucket}" does not exist at ${where}`);
      }
      if (status === 401 || status === 403) {
        throw new Error(
          `S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: ${where} refused the keys for bucket "${this.bucket}" (${status})`,
        );
      }
      if (status === 301 || status === 400) {
        throw new Error(
          `S3_REGION: bucket "${this.bucket}" is not in region ${this.options.region} (${status})`,
        );
      }
      throw new Error(`S3_ENDPOINT: cannot reach ${where} (${detail})`);
    }
  }
}
