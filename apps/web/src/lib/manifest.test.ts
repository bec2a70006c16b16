import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const web = path.resolve(import.meta.dirname, '../..');

describe('web app manifest', () => {
  it('public/manifest.json is a web app manifest that the page links', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(web, 'public', 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: 'Zapdesk', start_url: '/tickets', display: 'standalone' });
    for (const icon of manifest.icons as { src: string }[]) {
      expect(fs.existsSync(path.join(web, 'public', icon.src))).toBe(true);
    }
    expect(fs.readFileSync(path.join(web, 'index.html'), 'utf8')).toContain(
      '<link rel="manifest" href="/manifest.json" />',
    );
  });
});
