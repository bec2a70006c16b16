/**
 * Form-free first render (docs/web.md "Web delivery"): fails (exit 1) when the
 * JavaScript a page needs before it renders (its chunk and its static imports, read from the build's
 * manifest, dist/.vite/manifest.json), or that of the entry, providers or signed-in layout, holds zod
 * or react-hook-form. Forms load with the modal, tab or
 * panel that shows them, and a form that is the page loads its checks after the first render. The
 * libraries are recognised by names their minified code keeps: `ZodError` and `shouldUnregister`.
 * Pages listed in FORM_PAGES are exempt. Fast: no browser, only the build's files.
 *
 *   npm run build && node scripts/check-form-free.mjs [distDir]
 */
import fs from 'node:fs';
import path from 'node:path';
import { closure, distDir, pageKeys, readManifest } from './build-manifest.mjs';

/** Public pages whose form is the page and is validated from the first keystroke. */
const FORM_PAGES = ['src/features/auth/signup-page.tsx', 'src/features/auth/forgot-password-page.tsx'];
/** A marker each library's built code keeps, with the library's name. */
const MARKERS = [
  { name: 'zod', text: 'ZodError' },
  { name: 'react-hook-form', text: 'shouldUnregister' },
];

const dist = distDir();
const { manifest, sources } = readManifest(dist, 'check-form-free');

const libraries = new Map();
/** The libraries a built file holds. */
function librariesOf(file) {
  if (!libraries.has(file)) {
    const code = fs.readFileSync(path.join(dist, file), 'utf8');
    libraries.set(
      file,
      MARKERS.filter((m) => code.includes(m.text)).map((m) => m.name),
    );
  }
  return libraries.get(file);
}

const pages = pageKeys(manifest, sources);
/**
 * The entry chunk, the two entries it picks from (the login entry, the full app), the providers and
 * the signed-in layout: loaded before most pages.
 */
const SHELL = [
  Object.keys(manifest).find((key) => manifest[key].isEntry),
  'src/app/login-entry.tsx',
  'src/app/app.tsx',
  'src/app/app-providers.tsx',
  'src/app/layout/app-layout.tsx',
];
const offenders = [];
for (const key of SHELL) {
  if (!manifest[key])
    offenders.push(`${key}: not a chunk of the build (renamed? update scripts/check-form-free.mjs)`);
}
for (const page of [...SHELL, ...pages.filter((p) => !FORM_PAGES.includes(p)).sort()]) {
  const found = new Set(
    [...closure(manifest, page, new Set())].filter((f) => f.endsWith('.js')).flatMap((f) => librariesOf(f)),
  );
  if (found.size > 0) offenders.push(`${page}: ${[...found].join(', ')}`);
}
if (offenders.length > 0) {
  console.error('check-form-free: these pages load form code before their first render:');
  for (const line of offenders) console.error(`  ${line}`);
  process.exit(1);
}
console.log(
  `check-form-free: the shell and ${pages.length - FORM_PAGES.length} pages render without zod or react-hook-form`,
);
