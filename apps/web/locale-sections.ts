import fs from 'node:fs';
import path from 'node:path';

/**
 * Which locale sections (the top-level keys of src/locales/<lang>.json) each lazy chunk of the web
 * app needs, found by reading the source (docs/web.md, "Web delivery", locales per route).
 *
 * A *root* is a module the router loads on demand with its own strings: every `*-page.tsx`, the
 * signed-in layout and the app providers. A root needs the sections named by a string literal or
 * template (`'tickets.title'`, `` `errors.${code}` ``) in any module it reaches through relative
 * imports, static or dynamic (its lazy dialogs included). The *boot* strings are those of the
 * entry (main.tsx) and of the login page with everything they reach short of the other roots:
 * loaded before the first render. A root's chunk holds its sections minus the boot ones.
 */

/** Modules that are roots besides the pages (paths under src, no extension). */
const EXTRA_ROOTS = ['app/layout/app-layout', 'app/app-providers'];
/** The root whose strings join the boot strings (the first page most visitors see). */
export const BOOT_ROOT = 'features/auth/login-page';
/** The entry module (path under src, no extension). */
const ENTRY = 'main';

const IMPORT_RE = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;
const EXTENSIONS = ['.tsx', '.ts', '/index.tsx', '/index.ts'];

/** The strings each root needs and the boot strings, as section names. */
export interface LocalePlan {
  /** Sections loaded before the first render. */
  boot: string[];
  /** Root key (path under src without extension, e.g. `features/tickets/tickets-page`) → its sections beyond the boot ones. */
  roots: Record<string, string[]>;
}

/** Absolute path of a relative import from `from`, or null when it is not a TS module of src. */
function resolveImport(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec);
  if (/\.(tsx?)$/.test(base) && fs.existsSync(base)) return base;
  for (const ext of EXTENSIONS) if (fs.existsSync(base + ext)) return base + ext;
  return null;
}

/** Every `.tsx`/`.ts` file under `dir` (tests excluded). */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')
      ? [full]
      : [];
  });
}

/**
 * Reads the sources under `srcDir` and the section names of `locale` (a parsed locale file) and
 * returns the plan: the boot sections and each root's extra sections (both sorted).
 */
export function planLocales(srcDir: string, locale: Record<string, unknown>): LocalePlan {
  const names = Object.keys(locale);
  const sectionRe = new RegExp(`['"\`](${names.map((n) => n.replace(/[$]/g, '\\$')).join('|')})\\.`, 'g');
  const keyOf = (file: string) =>
    path
      .relative(srcDir, file)
      .replace(/\\/g, '/')
      .replace(/\.tsx?$/, '');
  const rootKeys = new Set([
    ...sourceFiles(srcDir)
      .map(keyOf)
      .filter((key) => key.endsWith('-page')),
    ...EXTRA_ROOTS,
  ]);

  const parsed = new Map<string, { sections: Set<string>; imports: string[] }>();
  const read = (file: string) => {
    let info = parsed.get(file);
    if (!info) {
      const text = fs.readFileSync(file, 'utf8');
      const sections = new Set([...text.matchAll(sectionRe)].map((m) => m[1] as string));
      const imports = [...text.matchAll(IMPORT_RE)]
        .map((m) => resolveImport(file, m[1] as string))
        .filter((f): f is string => f !== null);
      info = { sections, imports };
      parsed.set(file, info);
    }
    return info;
  };
  /** Sections reached from `start`, not entering the modules `stop` returns true for. */
  const walk = (start: string[], stop: (key: string) => boolean) => {
    const seen = new Set<string>();
    const sections = new Set<string>();
    const queue = [...start];
    while (queue.length > 0) {
      const file = queue.pop() as string;
      if (seen.has(file)) continue;
      seen.add(file);
      const info = read(file);
      for (const s of info.sections) sections.add(s);
      for (const next of info.imports) if (!seen.has(next) && !stop(keyOf(next))) queue.push(next);
    }
    return sections;
  };
  const file = (key: string) => resolveImport(path.join(srcDir, 'x'), `./${key}`) as string;

  const boot = walk([file(ENTRY), file(BOOT_ROOT)], (key) => rootKeys.has(key) && key !== BOOT_ROOT);
  const roots: Record<string, string[]> = {};
  for (const key of [...rootKeys].sort()) {
    if (key === BOOT_ROOT) continue;
    roots[key] = [...walk([file(key)], () => false)].filter((s) => !boot.has(s)).sort();
  }
  return { boot: [...boot].sort(), roots };
}
