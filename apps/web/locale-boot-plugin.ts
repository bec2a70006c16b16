import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * The locale sections the login form's first render needs (its labels, the session toasts, the
 * validation messages and the error catalogue's toasts). Everything else arrives with the full
 * locale chunk, loaded before any other page (src/lib/i18n.ts).
 */
export const BOOT_SECTIONS = ['login', 'auth', 'validation', 'errors', 'common'] as const;

const PREFIX = 'virtual:boot-locale/';

/**
 * Vite plugin: `import strings from 'virtual:boot-locale/<lang>'` is the BOOT_SECTIONS of
 * src/locales/<lang>.json, a small chunk of its own (docs/architecture.md, "Web delivery").
 */
export function localeBoot(): Plugin {
  const dir = path.join(path.dirname(new URL(import.meta.url).pathname), 'src/locales');
  return {
    name: 'zapdesk-locale-boot',
    resolveId(id) {
      return id.startsWith(PREFIX) ? `\0${id}` : null;
    },
    load(id) {
      if (!id.startsWith(`\0${PREFIX}`)) return null;
      const lang = id.slice(PREFIX.length + 1);
      if (!/^[a-z]{2}$/.test(lang)) throw new Error(`locale-boot: bad language ${lang}`);
      const file = path.join(dir, `${lang}.json`);
      this.addWatchFile(file);
      const all = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
      const subset = Object.fromEntries(BOOT_SECTIONS.map((section) => [section, all[section]]));
      return `export default ${JSON.stringify(subset)};`;
    },
  };
}
