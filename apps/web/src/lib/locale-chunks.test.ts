import fs from 'node:fs';
import path from 'node:path';
import bootEn, { chunks as chunksEn, strings as stringsEn } from 'virtual:locale/en/boot';
import { strings as stringsPt } from 'virtual:locale/pt/boot';
import { describe, expect, it } from 'vitest';
import { BOOT_ROOT, planLocales } from '../../locale-sections';
import en from '../locales/en.json';
import pt from '../locales/pt.json';

const srcDir = path.resolve(import.meta.dirname, '..');
const plan = planLocales(srcDir, pt);

describe('locale chunks per route (locale-sections.ts, locale-plugin.ts)', () => {
  it('boot strings hold the login form and entry sections, not the pages', () => {
    for (const section of ['login', 'auth', 'validation', 'errors', 'languages']) {
      expect(plan.boot).toContain(section);
    }
    expect(plan.boot).not.toContain('menu');
    expect(plan.boot).not.toContain('tickets');
    expect(Object.keys(stringsEn).sort()).toEqual(plan.boot);
    expect(stringsEn.login).toEqual(en.login);
    expect(stringsPt.errors).toEqual(pt.errors);
    expect(bootEn).toBeUndefined();
  });

  it("a root's chunk holds the sections its modules name, lazy dialogs included", () => {
    const tickets = plan.roots['features/tickets/tickets-page'];
    expect(tickets).toEqual(expect.arrayContaining(['tickets', 'ticketView', 'common']));
    // userModal is named only by the profile modal, a lazy import of the top bar's user menu.
    expect(plan.roots['app/layout/app-layout']).toEqual(expect.arrayContaining(['menu', 'userModal']));
    // Boot sections are not repeated in a root's chunk.
    expect(tickets).not.toContain('errors');
    expect(plan.roots[BOOT_ROOT]).toBeUndefined();
  });

  it('every section of the locale files is loaded by some chunk', () => {
    const loaded = new Set([...plan.boot, ...Object.values(plan.roots).flat()]);
    expect(Object.keys(pt).filter((section) => !loaded.has(section))).toEqual([]);
  });

  it("serves a root's sections in its language", async () => {
    const load = chunksEn['features/tickets/tickets-page'];
    expect(load).toBeDefined();
    const strings = (await load?.())?.default ?? {};
    expect(Object.keys(strings).sort()).toEqual(plan.roots['features/tickets/tickets-page']);
    expect(strings.tickets).toEqual(en.tickets);
  });

  it('every lazy import of the router loads the strings of the module it imports', () => {
    const router = fs
      .readFileSync(path.join(srcDir, 'app/router.tsx'), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, ''); // comments (the pattern's example) aside
    const imports = [...router.matchAll(/import\('(\.{1,2}\/[^']+)'\)/g)].map((m) => m[1] as string);
    expect(imports.length).toBeGreaterThan(30);
    const paired = [...router.matchAll(/withStrings\(\s*'([^']+)',\s*import\('(\.{1,2}\/[^']+)'\)/g)];
    expect(paired.map((m) => m[2])).toEqual(imports);
    for (const [, key, spec] of paired) {
      expect(path.relative(srcDir, path.resolve(srcDir, 'app', spec as string))).toBe(key);
      expect(key === BOOT_ROOT || Object.hasOwn(plan.roots, key as string), key).toBe(true);
    }
  });
});
