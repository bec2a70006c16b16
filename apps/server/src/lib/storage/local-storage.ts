import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { assertKey, type ByteRange, type Storage, StorageUnavailableError } from './storage.js';

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Files on local disk: key `a/b` is the file `<root>/a/b` (DATA_DIR/media/<companyId>/<name>, the
 * layout Zapdesk has always used). Files are written to a temporary name and renamed, so a reader
 * never sees half a file; mode 0600.
 */
export class LocalStorage implements Storage {
  readonly kind = 'local' as const;

  constructor(private readonly root: string) {}

  private file(key: string): string {
    assertKey(key);
    return path.join(this.root, key);
  }

  /** Runs a disk call; a missing file gives `onMissing`, any other failure StorageUnavailableError. */
  private async guard<T>(call: () => Promise<T>, onMissing: () => T): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (missing(error)) return onMissing();
      throw new StorageUnavailableError(error);
    }
  }

  async save(key: string, data: Buffer): Promise<void> {
    const file = this.file(key);
    const temporary = `${file}.${crypto.randomBytes(6).toString('hex')}.tmp`;
    try {
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      await fs.promises.writeFile(temporary, data, { mode: 0o600 });
      await fs.promises.rename(temporary, file);
    } catch (error) {
      await fs.promises.rm(temporary, { force: true }).catch(() => undefined);
      throw new StorageUnavailableError(error);
    }
  }

  async stat(key: string): Promise<{ size: number } | undefined> {
    const file = this.file(key);
    return this.guard(
      async () => {
        const stat = await fs.promises.stat(file);
        return stat.isFile() ? { size: stat.size } : undefined;
      },
      () => undefined,
    );
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== undefined;
  }

  async open(key: string, range?: ByteRange): Promise<Readable | undefined> {
    const file = this.file(key);
    return this.guard(
      async () => {
        const handle = await fs.promises.open(file, 'r');
        if (!(await handle.stat()).isFile()) {
          await handle.close();
          return undefined;
        }
        return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
      },
      () => undefined,
    );
  }

  async read(key: string): Promise<Buffer | undefined> {
    const file = this.file(key);
    return this.guard(
      () => fs.promises.readFile(file),
      () => undefined,
    );
  }

  async remove(key: string): Promise<void> {
    const file = this.file(key);
    await this.guard(
      () => fs.promises.rm(file, { force: true }),
      () => undefined,
    );
  }

  async removeFolder(prefix: string): Promise<void> {
    const folder = this.file(prefix);
    await this.guard(
      () => fs.promises.rm(folder, { recursive: true, force: true }),
      () => undefined,
    );
  }

  async check(): Promise<void> {
    try {
      await fs.promises.mkdir(this.root, { recursive: true });
      await fs.promises.access(this.root, fs.constants.W_OK);
    } catch (error) {
      throw new Error(
        `DATA_DIR: the media folder ${this.root} is not writable (${(error as Error).message})`,
      );
    }
  }
}
