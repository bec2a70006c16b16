import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Stored media name: 32 random hex characters plus a short extension (unguessable, no path parts). */
const NAME = /^[0-9a-f]{32}(\.[a-z0-9]{1,8})?$/;

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

  /** Reads a company's stored media. @throws Error when missing. */
  async read(companyId: number, name: string): Promise<Buffer> {
    const file = await this.locate(companyId, name);
    if (!file) throw new Error('media not found');
    return fs.promises.readFile(file);
  }
}
