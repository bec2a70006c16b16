import fs from 'node:fs';
import path from 'node:path';
import { assertKey, type Storage } from './storage.js';

/** What copyFolderToStorage did, in files. */
export interface CopyCounts {
  /** Copied now (missing in the target, or there with another size). */
  copied: number;
  /** Already in the target with the same size. */
  skipped: number;
  /** Not copied: a name that is not a storage key, or a read or write that failed (see `problems`). */
  failed: number;
  /** One line per failed file: its path and why. */
  problems: string[];
}

/** The files under `root`, as storage keys relative to it ('/' separated); temporary files left out. */
async function* filesUnder(root: string, prefix = ''): AsyncGenerator<string> {
  const entries = await fs.promises.readdir(path.join(root, prefix), { withFileTypes: true });
  for (const entry of entries.sort((x, y) => x.name.localeCompare(y.name))) {
    const key = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) yield* filesUnder(root, key);
    else if (entry.isFile() && !entry.name.endsWith('.tmp')) yield key;
  }
}

/**
 * Copies every file under the local folder `root` (DATA_DIR/media: `<companyId>/<name>`) into
 * `target` under the same key. Idempotent: a key already there with the same size is skipped, so
 * the copy can be run again after an interruption or while the old node still writes. `onFile`
 * hears each key with what happened to it.
 * @throws Error when `root` cannot be read; StorageUnavailableError aborts only that file.
 */
export async function copyFolderToStorage(
  root: string,
  target: Storage,
  onFile: (key: string, outcome: 'copied' | 'skipped' | 'failed') => void = () => {},
): Promise<CopyCounts> {
  const counts: CopyCounts = { copied: 0, skipped: 0, failed: 0, problems: [] };
  for await (const key of filesUnder(root)) {
    try {
      assertKey(key);
      const size = (await fs.promises.stat(path.join(root, key))).size;
      if ((await target.stat(key))?.size === size) {
        counts.skipped++;
        onFile(key, 'skipped');
        continue;
      }
      await target.save(key, await fs.promises.readFile(path.join(root, key)));
      counts.copied++;
      onFile(key, 'copied');
    } catch (error) {
      counts.failed++;
      counts.problems.push(`${key}: ${(error as Error).message}`);
      onFile(key, 'failed');
    }
  }
  return counts;
}
