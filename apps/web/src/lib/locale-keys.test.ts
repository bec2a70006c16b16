import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import en from '../locales/en.json';
import es from '../locales/es.json';
import pt from '../locales/pt.json';

type Tree = { [key: string]: string | Tree };

const srcDir = path.resolve(import.meta.dirname, '..');

/** The app's source files (tests excluded). */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** What a dotted key names in a locale tree: a string, a subtree, or nothing. */
function lookup(tree: Tree, key: string): string | Tree | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return node;
}

/** The literal keys the code translates: `t('a.b')`, `t("a.b", …)` and `i18nKey="a.b"`. */
function literalKeys(): { key: string; file: string }[] {
  const found: { key: string; file: string }[] = [];
  const call = /\bt\(\s*(['"])([A-Za-z][\w-]*(?:\.[\w-]+)+)\1/g;
  const trans = /i18nKey=(['"])([A-Za-z][\w-]*(?:\.[\w-]+)+)\1/g;
  for (const file of sources(srcDir)) {
    // Comments name keys only as examples.
    const text = fs
      .readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    for (const pattern of [call, trans])
      for (const match of text.matchAll(pattern))
        found.push({ key: match[2]!, file: path.relative(srcDir, file) });
  }
  return found;
}

describe('the keys the code translates', () => {
  const keys = literalKeys();

  it('are found in the code', () => {
    expect(keys.length).toBeGreaterThan(500);
  });

  it('name a string (or its plural forms) in pt, en and es, never a section', () => {
    for (const [lng, tree] of [
      ['pt', pt],
      ['en', en],
      ['es', es],
    ] as const) {
      const wrong = keys.filter(({ key }) => {
        const node = lookup(tree as Tree, key);
        if (typeof node === 'string') return false;
        const plural = lookup(tree as Tree, `${key}_other`) ?? lookup(tree as Tree, `${key}_one`);
        return typeof plural !== 'string';
      });
      expect(wrong.map(({ key, file }) => `${lng} ${key} (${file})`)).toEqual([]);
    }
  });
});
