/** MediaStore over a Storage: names stay inside their company, and saveAll is all or none. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalStorage } from '../lib/storage/local-storage.js';
import { StorageUnavailableError } from '../lib/storage/storage.js';
import { MediaStore } from './media-store.js';

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-media-'));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

describe('MediaStore', () => {
  it('keeps the DATA_DIR/media/<companyId>/<name> layout and finds a name only in its company', async () => {
    const media = new MediaStore(new LocalStorage(folder));
    const name = await media.save(3, Buffer.from('abc'), 'PNG');
    expect(name).toMatch(/^[0-9a-f]{32}\.png$/);
    expect(fs.readFileSync(path.join(folder, '3', name), 'utf8')).toBe('abc');
    expect(await media.stat(3, name)).toEqual({ size: 3 });
    expect(await media.stat(4, name)).toBeUndefined();
    expect(await media.open(4, name)).toBeUndefined();
    expect(await media.exists(3, '../3/x')).toBe(false);
    await expect(media.read(4, name)).rejects.toThrow('media not found');
    await media.remove(4, name);
    expect(await media.exists(3, name)).toBe(true);
    await media.removeCompany(3);
    expect(await media.exists(3, name)).toBe(false);
  });

  it('saveAll deletes the files already stored when one fails', async () => {
    const disk = new LocalStorage(folder);
    let calls = 0;
    const flaky = Object.create(disk) as LocalStorage;
    flaky.save = async (key, data) => {
      if (++calls === 2) throw new StorageUnavailableError(new Error('down'));
      await disk.save(key, data);
    };
    const media = new MediaStore(flaky);
    await expect(
      media.saveAll(5, [
        { data: Buffer.from('1'), extension: 'png' },
        { data: Buffer.from('2'), extension: 'png' },
        { data: Buffer.from('3'), extension: 'png' },
      ]),
    ).rejects.toBeInstanceOf(StorageUnavailableError);
    expect(fs.existsSync(path.join(folder, '5')) ? fs.readdirSync(path.join(folder, '5')) : []).toEqual([]);
    expect(
      await new MediaStore(disk).saveAll(5, [{ data: Buffer.from('4'), extension: 'pdf' }]),
    ).toHaveLength(1);
  });
});
