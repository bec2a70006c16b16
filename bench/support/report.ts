/** Writing a benchmark's figures into docs/benchmarks.md. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `doc` with the section headed `heading` (a whole `## …` line) replaced by `text`, up to the next
 * `## ` heading; appended at the end when the heading is absent.
 */
export function replaceSection(doc: string, heading: string, text: string): string {
  const lines = doc.split('\n');
  const start = lines.findIndex((l) => l.trim() === heading);
  if (start < 0) return `${doc.replace(/\n*$/, '\n\n')}${text.replace(/\n*$/, '')}\n`;
  let end = lines.findIndex((l, i) => i > start && /^##\s/.test(l));
  if (end < 0) end = lines.length;
  const next = [...lines.slice(0, start), ...text.replace(/\n*$/, '').split('\n'), '', ...lines.slice(end)];
  return `${next.join('\n').replace(/\n*$/, '')}\n`;
}

/** Rewrites the section headed `heading` of the file `docPath` (created with `intro` if missing). */
export function writeSection(docPath: string, heading: string, text: string, intro = '# Benchmarks\n'): void {
  const current = fs.existsSync(docPath) ? fs.readFileSync(docPath, 'utf8') : intro;
  fs.writeFileSync(docPath, replaceSection(current, heading, text));
}

/** docs/benchmarks.md of this checkout, the file every benchmark writes its section into. */
export const BENCHMARKS_DOC = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../docs/benchmarks.md',
);

/**
 * Writes `text` as the section headed `heading` of docs/benchmarks.md (see `writeSection`) when
 * `write`; prints it otherwise (`--no-write`).
 */
export function writeOrPrint(write: boolean, heading: string, text: string): void {
  if (write) writeSection(BENCHMARKS_DOC, heading, text);
  else console.log(text);
}

/**
 * A section's shell block: the command `lines`, then the note that BENCH_DATABASE_URL names the
 * Postgres server (unless `databaseNote` is false), fenced as ```sh.
 */
export function commandBlock(lines: string[], databaseNote = true): string[] {
  const note =
    '# BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test (the default) names the Postgres server';
  return ['```sh', ...lines, ...(databaseNote ? [note] : []), '```'];
}
