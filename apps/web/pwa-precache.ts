import fs from 'node:fs';
import path from 'node:path';

/** A chunk of Vite's build manifest (dist/.vite/manifest.json), as far as the precache reads it. */
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

/** The chunks a visitor without a session loads at /login: the entry, the login entry, boot strings. */
const LOGIN_ROOTS = [
  'src/app/login-entry.tsx',
  'virtual:locale/pt/boot',
  'virtual:locale/en/boot',
  'virtual:locale/es/boot',
];

/**
 * The built files of the sign-in screen: the entry chunk, the login entry (which holds the login
 * page) and the boot strings of each language, with their static imports and CSS, read from the
 * build manifest in `outDir`. The service worker precaches only these (docs/web.md "Installable
 * app and Web Push"); every other file is cached when first fetched.
 */
export function loginFiles(outDir: string): Set<string> {
  const manifest = JSON.parse(fs.readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >;
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of Object.keys(manifest)) if (manifest[key]?.isEntry) visit(key);
  for (const key of LOGIN_ROOTS) visit(key);
  return files;
}
