import crypto from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import mime from 'mime-types';
import type { ByteRange, Storage } from '../lib/storage/storage.js';

/** Stored media name: 32 random hex characters plus a short extension (unguessable, no path parts). */
const NAME = /^[0-9a-f]{32}(\.[a-z0-9]{1,8})?$/;

/**
 * Types a browser may show inline: images, audio, video and PDF, which cannot run script in the
 * page's origin. Anything else (SVG, HTML, XML, scripts, office files, unknown) is active or
 * opaque content and goes out as a download.
 */
const INLINE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/bmp',
  'audio/mpeg',
  'audio/ogg',
  'audio/opus',
  'audio/mp4',
  'audio/aac',
  'audio/wav',
  'audio/webm',
  'audio/amr',
  'video/mp4',
  'video/webm',
  'video/ogg',
  'video/3gpp',
  'video/quicktime',
  'application/pdf',
]);

/** Headers that serve one stored media file: its type and how the browser may treat it. */
export type MediaHeaders = Record<
  'content-type' | 'content-disposition' | 'x-content-type-options' | 'content-security-policy',
  string
>;

/**
 * How a stored media file is served (docs/security.md, "Active content"): types on the inline
 * allow-list keep their type and show inline; every other file (SVG, HTML, XML, unknown) is sent as
 * `application/octet-stream` with `Content-Disposition: attachment`, so neither the page nor a blob
 * URL made from it can run its script. Every answer carries `nosniff` and a sandboxing CSP.
 * `name` is the stored name (its extension gives the type).
 */
export function mediaHeaders(name: string): MediaHeaders {
  const type = mime.lookup(name) || 'application/octet-stream';
  const inline = INLINE_TYPES.has(type);
  return {
    'content-type': inline ? type : 'application/octet-stream',
    'content-disposition': `${inline ? 'inline' : 'attachment'}; filename="${path.basename(name)}"`,
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
  };
}

/**
 * A company's media files in the configured Storage (local disk or an S3 bucket), under the key
 * `<companyId>/<name>` with unguessable names. A name is looked up only inside the caller's
 * company, so another company's media is not found. Storage failures throw
 * StorageUnavailableError (503 ERR_STORAGE_UNAVAILABLE).
 */
export class MediaStore {
  constructor(readonly storage: Storage) {}

  private key(companyId: number, name: string): string | undefined {
    return Number.isSafeInteger(companyId) && companyId > 0 && NAME.test(name)
      ? `${companyId}/${name}`
      : undefined;
  }

  /**
   * Saves `data` for `companyId`; returns the stored name (served at /api/public/:name). The file is
   * complete or absent. @throws StorageUnavailableError (nothing stored).
   */
  async save(companyId: number, data: Buffer, extension: string): Promise<string> {
    const ext = extension
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')
      .slice(0, 8);
    const name = `${crypto.randomBytes(16).toString('hex')}${ext ? `.${ext}` : ''}`;
    await this.storage.save(`${companyId}/${name}`, data);
    return name;
  }

  /**
   * Saves several files for one company, all or none: when one fails, those already stored are
   * deleted. @returns the stored names in order. @throws StorageUnavailableError.
   */
  async saveAll(companyId: number, files: { data: Buffer; extension: string }[]): Promise<string[]> {
    const saved = await Promise.allSettled(
      files.map((file) => this.save(companyId, file.data, file.extension)),
    );
    const failed = saved.find((result) => result.status === 'rejected');
    if (!failed) return saved.map((result) => (result as PromiseFulfilledResult<string>).value);
    for (const result of saved) {
      if (result.status === 'fulfilled') await this.remove(companyId, result.value).catch(() => undefined);
    }
    throw failed.reason;
  }

  /** Size in bytes of a company's stored media, or undefined when the name is invalid or missing. */
  async stat(companyId: number, name: string): Promise<{ size: number } | undefined> {
    const key = this.key(companyId, name);
    return key ? this.storage.stat(key) : undefined;
  }

  /** True when the company has this stored media. */
  async exists(companyId: number, name: string): Promise<boolean> {
    return (await this.stat(companyId, name)) !== undefined;
  }

  /**
   * A stream of a company's stored media (or of the inclusive byte `range` of it), or undefined
   * when the name is invalid or missing.
   */
  async open(companyId: number, name: string, range?: ByteRange): Promise<Readable | undefined> {
    const key = this.key(companyId, name);
    return key ? this.storage.open(key, range) : undefined;
  }

  /** Deletes one stored file of a company; nothing when `name` is null, invalid or missing. */
  async remove(companyId: number, name: string | null): Promise<void> {
    const key = name ? this.key(companyId, name) : undefined;
    if (key) await this.storage.remove(key);
  }

  /** Deletes every stored file of a company; nothing when there is none. */
  async removeCompany(companyId: number): Promise<void> {
    await this.storage.removeFolder(String(companyId));
  }

  /** Reads a company's stored media. @throws Error when missing, StorageUnavailableError. */
  async read(companyId: number, name: string): Promise<Buffer> {
    const key = this.key(companyId, name);
    const data = key ? await this.storage.read(key) : undefined;
    if (!data) throw new Error('media not found');
    return data;
  }
}
