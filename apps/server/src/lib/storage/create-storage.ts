import path from 'node:path';
import type { Config } from '../../config.js';
import { LocalStorage } from './local-storage.js';
import { S3Storage } from './s3-storage.js';
import type { Storage } from './storage.js';

/** The storage config.ts settles: STORAGE=s3 with the S3_* variables, else DATA_DIR/media on disk. */
export type StorageConfig = Pick<
  Config,
  | 'dataDir'
  | 'STORAGE'
  | 'S3_ENDPOINT'
  | 'S3_BUCKET'
  | 'S3_REGION'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY'
  | 'S3_FORCE_PATH_STYLE'
>;

/** The local media folder: DATA_DIR/media (one sub-folder per company). */
export const localMediaRoot = (config: Pick<Config, 'dataDir'>) => path.join(config.dataDir, 'media');

/** The S3 driver for the S3_* variables (whatever STORAGE says: media:migrate uses it too). */
export function createS3Storage(config: StorageConfig): S3Storage {
  if (!config.S3_BUCKET) throw new Error('S3_BUCKET: required for S3 storage');
  return new S3Storage({
    bucket: config.S3_BUCKET,
    region: config.S3_REGION,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    ...(config.S3_ENDPOINT ? { endpoint: config.S3_ENDPOINT } : {}),
    ...(config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
      ? {
          credentials: { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY },
        }
      : {}),
  });
}

/** The configured media storage (not yet checked: call `check()` before serving). */
export function createStorage(config: StorageConfig): Storage {
  return config.STORAGE === 's3' ? createS3Storage(config) : new LocalStorage(localMediaRoot(config));
}
