import type { Readable } from 'node:stream';
import { AppError } from '../app-error.js';

/** An inclusive byte range of a stored object: `start` to `end`, both counted from 0. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where Zapdesk keeps its files (media of every company), as flat keys such as `12/ab…cd.jpg`
 * (`<companyId>/<name>`). Two drivers: local disk under DATA_DIR/media (the default) and
 * S3-compatible object storage. Every method throws StorageUnavailableError when the storage cannot
 * be reached or refuses the call; a missing key is not an error (undefined, false or nothing).
 */
export interface Storage {
  /** 'local' or 's3'. */
  readonly kind: 'local' | 's3';
  /** Stores `data` under `key`, replacing any object there; the object is complete or absent. */
  save(key: string, data: Buffer): Promise<void>;
  /** A stream of the object (or of `range` of it), or undefined when the key is missing. */
  open(key: string, range?: ByteRange): Promise<Readable | undefined>;
  /** The whole object, or undefined when the key is missing. */
  read(key: string): Promise<Buffer | undefined>;
  /** The object's size in bytes, or undefined when the key is missing. */
  stat(key: string): Promise<{ size: number } | undefined>;
  /** True when the key holds an object. */
  exists(key: string): Promise<boolean>;
  /** Deletes the object; nothing when it is missing. */
  remove(key: string): Promise<void>;
  /** Deletes every object whose key starts with `prefix` + '/' (a company's folder). */
  removeFolder(prefix: string): Promise<void>;
  /**
   * Checks the storage at start-up (the bucket exists and accepts the keys; the folder is writable).
   * @throws Error whose message names the environment variable to fix.
   */
  check(): Promise<void>;
}

/** The storage could not be reached or refused a call: answered 503 ERR_STORAGE_UNAVAILABLE. */
export class StorageUnavailableError extends AppError {
  constructor(cause: unknown) {
    super('ERR_STORAGE_UNAVAILABLE', { message: `storage unavailable: ${describe(cause)}` });
    this.cause = cause;
  }
}

function describe(error: unknown): string {
  if (error instanceof Error)
    return error.name && error.name !== 'Error' ? `${error.name}: ${error.message}` : error.message;
  return String(error);
}

/** Keys are `<folder>/<name>` of letters, digits, '.', '_' and '-', never '..': no path escapes. */
const KEY = /^[\w-]+(\/[\w.-]+)*$/;

/** @throws Error when `key` is not a safe storage key (see KEY). */
export function assertKey(key: string): void {
  if (!KEY.test(key) || key.split('/').some((part) => part === '.' || part === '..')) {
    throw new Error(`invalid storage key: ${key}`);
  }
}
