import fs from 'node:fs';
import path from 'node:path';
import type { Plugin, ViteDevServer } from 'vite';
import { type LocalePlan, planLocales } from './locale-sections';

const PREFIX = 'virtual:locale/';

/**
 * Vite plugin: the locale files split per route (docs/web.md, "Web delivery").
 *
 * - `virtual:locale/<lang>/boot` exports `strings`, the boot sections of src/locales/<lang>.json
 *   (the entry's and the login form's), and `chunks`, a loader per root (locale-sections.ts) that
 *   needs more sections: `() => import('virtual:locale/<lang>/<root>')`.
 * - `virtual:locale/<lang>/<root>` (root: a path under src without extension, such as
 *   `features/tickets/tickets-page`) default-exports that root's sections beyond the boot ones.
 *
 * The plan (which sections each root needs) is read from the sources once per build, and again
 * after a source file changes in the dev server.
 */
export function localeChunks(): Plugin {
  const root = path.dirname(new URL(import.meta.url).pathname);
  const srcDir = path.join(root, 'src');
  const localeDir = path.join(srcDir, 'locales');
  let plan: LocalePlan | null = null;
  let server: ViteDevServer | undefined;
  const readLocale = (lang: string) =>
    JSON.parse(fs.readFileSync(path.join(localeDir, `${lang}.json`), 'utf8')) as Record<string, unknown>;
  const currentPlan = () => {
    plan ??= planLocales(srcDir, readLocale('pt'));
    return plan;
  };
  const pick = (all: Record<string, unknown>, sections: string[]) =>
    Object.fromEntries(sections.map((section) => [section, all[section]]));

  return {
    name: 'zapdesk-locale-chunks',
    // Locale chunks are named `locale-<lang>-<root>-<hash>.js`, told apart from the code chunks.
    config: () => ({
      build: {
        rolldownOptions: {
          output: {
            chunkFileNames: (chunk) => {
              const lang = chunk.facadeModuleId?.match(/^\0virtual:locale\/([a-z]{2})\//)?.[1];
              return lang ? `assets/locale-${lang}-[name]-[hash].js` : 'assets/[name]-[hash].js';
            },
          },
        },
      },
    }),
    buildStart() {
      plan = null;
    },
    configureServer(devServer) {
      server = devServer;
    },
    watchChange() {
      plan = null;
      // The dev server serves the locale modules again with the new plan.
      for (const mod of server?.moduleGraph.idToModuleMap.values() ?? []) {
        if (mod.id?.startsWith(`\0${PREFIX}`)) server?.moduleGraph.invalidateModule(mod);
      }
    },
    resolveId(id) {
      return id.startsWith(PREFIX) ? `\0${id}` : null;
    },
    load(id) {
      if (!id.startsWith(`\0${PREFIX}`)) return null;
      const [lang, ...rest] = id.slice(PREFIX.length + 1).split('/');
      const part = rest.join('/');
      if (!lang || !/^[a-z]{2}$/.test(lang)) throw new Error(`locale-chunks: bad language in ${id}`);
      const file = path.join(localeDir, `${lang}.json`);
      this.addWatchFile(file);
      const all = readLocale(lang);
      const { boot, roots } = currentPlan();
      if (part === 'boot') {
        const loaders = Object.entries(roots)
          .filter(([, sections]) => sections.length > 0)
          .map(
            ([key]) => `${JSON.stringify(key)}: () => import(${JSON.stringify(`${PREFIX}${lang}/${key}`)})`,
          );
        return `export const strings = ${JSON.stringify(pick(all, boot))};\nexport const chunks = {\n${loaders.join(',\n')}\n};\n`;
      }
      const sections = roots[part];
      if (!sections) throw new Error(`locale-chunks: ${part} is not a root (locale-sections.ts)`);
      return `export default ${JSON.stringify(pick(all, sections))};`;
    },
  };
}
