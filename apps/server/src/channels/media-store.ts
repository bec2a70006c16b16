import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import mime from 'mime-types';

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
 * Media files on local disk under DATA_DIR/media/<companyId>/, with unguessable names. A name is
 * looked up only inside the caller's company folder, so another company's media is not found.
 */
export class MediaStore {
  constructor(private readonly root: string) {}

  /** Saves `data` for `companyId`; returns the stored name (served at /api/public/:name). */
  async save(companyId: number, data: Buffer, extension: string): Promise<string> {
    const ext = extension
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')
      .slice(0, 8);
    const name = `${crypto.randomBytes(16).toString('hex')}${ext ? `.${ext}` : ''}`;
    const dir = path.join(this.root, String(companyId));
    await fs.promises.mkdir(dir, { recursive: true });
    await fs.promises.writeFile(path.join(dir, name), data, { mode: 0o600 });
    return name;
  }

  /** Absolute path of a company's stored media, or undefined when the name is invalid or missing. */
  async locate(companyId: number, name: string): Promise<string | undefined> {
    if (!NAME.test(name)) return undefined;
    const file = path.join(this.root, String(companyId), name);
    try {
      const stat = await fs.promises.stat(file);
      return stat.isFile() ? file : undefined;
    } catch {
      return undefined;
    }
  }

  /** Deletes one stored file of a company; nothing when `name` is null, invalid or missing. */
  async remove(companyId: number, name: string | null): Promise<void> {
    if (!name) return;
    const file = await this.locate(companyId, name);
    if (file) await fs.promises.rm(file, { force: true });
  }

  /** Deletes every stored file of a company (its folder); nothing when there is none. */
  async removeCompany(companyId: number): Promise<void> {
    await fs.promises.rm(path.join(this.root, String(companyId)), { recursive: true, force: true });
  }

  /** Reads a company's stored media. @throws Error when missing. */
  async read(companyId: number, name: string): Promise<Buffer> {
    const file = await this.locate(companyId, name);
    if (!file) throw new Error('media not found');
    return fs.promises.readFile(file);
  }
}
