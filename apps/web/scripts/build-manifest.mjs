/**
 * Reading a web build (dist/.vite): the manifest with the chunk each grouped root went into, and the
 * closure of a chunk over its static imports. Shared by check-budget.mjs and check-form-free.mjs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The build folder: the first command-line argument, else apps/web/dist. */
export function distDir() {
  return path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '../dist'));
}

/**
 * The build's manifest (`dist/.vite/manifest.json`, an object of source key → chunk) and
 * chunk-sources.json (source → chunk file, `{}` when absent). A root grouped into a larger chunk
 * (first-render-chunks.ts) has no manifest key of its own: it gets its chunk file's manifest entry.
 * Exits (code 1) with a message naming `checker` when the manifest is missing.
 */
export function readManifest(dist, checker) {
  const manifestFile = path.join(dist, '.vite/manifest.json');
  if (!fs.existsSync(manifestFile)) {
    console.error(`${checker}: ${manifestFile} is missing; run the web build first`);
    process.exit(1);
  }
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  const sourcesFile = path.join(dist, '.vite/chunk-sources.json');
  const sources = fs.existsSync(sourcesFile) ? JSON.parse(fs.readFileSync(sourcesFile, 'utf8')) : {};
  const keyOfFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));
  for (const [source, file] of Object.entries(sources)) {
    if (!manifest[source] && keyOfFile.has(file)) manifest[source] = manifest[keyOfFile.get(file)];
  }
  return { manifest, sources };
}

/** Adds to `into` the file of the manifest chunk `key` and those of its static imports; returns `into`. */
export function closure(manifest, key, into) {
  const chunk = manifest[key];
  if (!chunk || into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const imported of chunk.imports ?? []) closure(manifest, imported, into);
  return into;
}

/** The page chunks of the build (`*-page.tsx` roots loaded on demand or grouped). */
export function pageKeys(manifest, sources) {
  return Object.keys(manifest).filter(
    (key) => (manifest[key].isDynamicEntry || sources[key]) && /-page\.tsx$/.test(key),
  );
}
