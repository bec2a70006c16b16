/**
 * Web delivery benchmark: the built web app served by the real server
 * (`apps/server/dist/main.js` over `apps/web/dist`, embedded database with the demo data), loaded in
 * Chromium with an empty cache, route by route. For each route: the bytes fetched until the page is
 * usable (JavaScript and everything; raw, gzip -9 of the raw file, and transferred over the wire as
 * the server sent it) and the time from navigation to usable, on loopback and under a throttled
 * "slow 4G" network (150 ms RTT, 1.6 Mbit/s down). Rewrites the 'Web delivery (bench/web)' section
 * of docs/benchmarks.md, keeping earlier runs' summaries.
 *
 *   npm run build && npx tsx bench/web/run.ts [--runs 5] [--label after] [--no-write]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from '../../e2e/support/browser.js';
import { DEMO_ADMIN } from '../../e2e/support/demo.js';
import { signIn } from '../../e2e/support/pages.js';
import { startServer } from '../../e2e/support/server.js';
import {
  javascriptWeight,
  type LoadMeasure,
  measureLoad,
  type RouteSpec,
  WEIGHED_ROUTES,
} from '../../e2e/support/web-weight.js';
import { machineJiffies } from '../support/cpu.js';
import { benchArgs } from '../support/options.js';
import { commandBlock } from '../support/report.js';
import { createTeardown } from '../support/teardown.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DOC = path.join(ROOT, 'docs/benchmarks.md');
const HEADING = '## Web delivery (bench/web)';
const HISTORY_HEADING = '### Earlier runs';
/** Budgets: JavaScript (gzip) before the login form, and before /tickets, is usable. */
const AIM_LOGIN_KB = 100;
const AIM_TICKETS_KB = 200;
interface RouteResult {
  spec: RouteSpec;
  jsFiles: number;
  jsRaw: number;
  jsGzip: number;
  jsTransfer: number;
  allRaw: number;
  allTransfer: number;
  encodings: string;
  usableMs: number;
  slowMs: number;
}

function readOptions() {
  const values = benchArgs({ runs: '5', label: '' }, ['no-write']);
  return { runs: Math.max(1, Number(values.runs) || 5), label: values.label, write: !values['no-write'] };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const ms = (value: number) => value.toFixed(0);

async function main(): Promise<void> {
  const options = readOptions();
  const { onTeardown, teardown, abort } = createTeardown('bench/web');
  process.once('SIGINT', () => void abort('interrupted'));
  try {
    const server = await startServer();
    onTeardown('server', () => server.stop());
    const browser = await launchBrowser();
    onTeardown('browser', () => browser.close());
    const cpu0 = machineJiffies();

    // One sign-in; its storage (token, refresh cookie) opens the signed-in routes.
    const signInContext = await browser.newContext();
    const signInPage = await signInContext.newPage();
    await signIn(signInPage, server.url, DEMO_ADMIN.email, DEMO_ADMIN.password);
    const storageState = await signInContext.storageState();
    await signInContext.close();

    const results: RouteResult[] = [];
    for (const spec of WEIGHED_ROUTES) {
      const state = spec.signedIn ? storageState : undefined;
      await measureLoad(browser, server.url, spec, state); // warm-up (server caches, JIT)
      const runs: LoadMeasure[] = [];
      for (let i = 0; i < options.runs; i += 1)
        runs.push(await measureLoad(browser, server.url, spec, state));
      const slow = await measureLoad(browser, server.url, spec, state, true);
      const last = runs[runs.length - 1]!;
      const js = last.files.filter((e) => e.kind === 'js');
      const { gzip: jsGzip } = await javascriptWeight(last);
      results.push({
        spec,
        jsFiles: js.length,
        jsRaw: js.reduce((sum, e) => sum + e.raw, 0),
        jsGzip,
        jsTransfer: js.reduce((sum, e) => sum + e.transfer, 0),
        allRaw: last.files.reduce((sum, e) => sum + e.raw, 0),
        allTransfer: last.files.reduce((sum, e) => sum + e.transfer, 0),
        encodings: [...new Set(last.files.filter((e) => e.kind !== 'other').map((e) => e.encoding))].join(
          ', ',
        ),
        usableMs: median(runs.map((r) => r.usableMs)),
        slowMs: slow.usableMs,
      });
      console.log(
        `${spec.name}: JS ${js.length} files, ${kb(results.at(-1)!.jsRaw)} KB raw, ${kb(jsGzip)} KB gzip, ` +
          `${kb(results.at(-1)!.jsTransfer)} KB transferred; usable in ${ms(results.at(-1)!.usableMs)} ms ` +
          `(slow 4G ${ms(slow.usableMs)} ms)`,
      );
    }
    const cpu1 = machineJiffies();
    const busy = cpu0 && cpu1 ? (cpu1.busy - cpu0.busy) / (cpu1.total - cpu0.total) : Number.NaN;
    const section = renderSection(results, options, busy, browser.version());
    if (options.write) {
      writeSection(section, results, options.label);
      console.log(`docs/benchmarks.md: '${HEADING}' rewritten`);
    } else {
      console.log(section);
    }
  } catch (error) {
    await abort(error);
  } finally {
    await teardown();
  }
}

function renderSection(
  results: RouteResult[],
  options: ReturnType<typeof readOptions>,
  busy: number,
  chromium: string,
): string {
  const login = results.find((r) => r.spec.name === '/login');
  const tickets = results.find((r) => r.spec.name === '/tickets');
  const met = (value: number | undefined, aim: number) =>
    value === undefined ? 'not measured' : value / 1024 <= aim ? 'met' : 'not met';
  return [
    HEADING,
    '',
    "The built web app (`npm run build`) served by the real server (`apps/server/dist/main.js`, embedded database with the demo data) and loaded in Chromium, one fresh browser context per load (empty cache; signed-in routes carry the demo admin's session). A route is *usable* when its own content is on screen (the login form; the ticket list with its first page or its empty state; the dashboard's counters; the contacts page; the kanban lanes). Every file the route asked for from the app's origin before it was usable is counted (API answers excluded), each once it arrived, whatever the machine's speed (the usable moment is taken in the page by a mutation observer, before the effects that start deferred loads; e2e/support/web-weight.ts, shared with the budget journey e2e/journeys/web-budget.e2e.ts): *raw* is the decoded size, *gzip* the size of each raw file under `gzip -9` (what the file weighs compressed, whatever the server sent), *transferred* what went over the wire as the server sent it (Resource Timing `transferSize`, headers included). *Usable* is the median time from navigation start to usable on loopback over the runs; *slow 4G* is one more load under Chromium's network emulation (150 ms round trip, 1.6 Mbit/s down).",
    '',
    'Run it (about a minute; a temporary data directory is created and removed; this section is rewritten with the new figures unless `--no-write`):',
    '',
    ...commandBlock(
      ['npm run build && npx tsx bench/web/run.ts [--runs 5] [--label after] [--no-write]'],
      false,
    ),
    '',
    `Last run${options.label ? ` (${options.label})` : ''}: ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}; \`nproc\` ${os.availableParallelism()} (${os.cpus()[0]?.model.split(' ').slice(0, 2).join(' ') ?? '?'}), Node ${process.version}, Chromium ${chromium}; ${options.runs} loads per route after a warm-up; machine busy ${Number.isNaN(busy) ? '?' : `${(busy * 100).toFixed(0)}%`} during the run (1-minute load average ${os.loadavg()[0]!.toFixed(2)} at the end; other engineers' work shares the machine).`,
    '',
    '| route | JS files | JS raw KB | JS gzip KB | JS transferred KB | all raw KB | all transferred KB | encodings | usable ms | slow 4G ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |',
    ...results.map(
      (r) =>
        `| ${r.spec.name} | ${r.jsFiles} | ${kb(r.jsRaw)} | ${kb(r.jsGzip)} | ${kb(r.jsTransfer)} | ${kb(r.allRaw)} | ${kb(r.allTransfer)} | ${r.encodings} | ${ms(r.usableMs)} | ${ms(r.slowMs)} |`,
    ),
    '',
    `Aim: at most ${AIM_LOGIN_KB} KB gzip of JavaScript before the login form is usable (${met(login?.jsGzip, AIM_LOGIN_KB)}: ${login ? kb(login.jsGzip) : '?'} KB) and at most ${AIM_TICKETS_KB} KB before /tickets is (${met(tickets?.jsGzip, AIM_TICKETS_KB)}: ${tickets ? kb(tickets.jsGzip) : '?'} KB). The build's own budget check (\`node apps/web/scripts/check-budget.mjs\`, run by CI after the build) holds every route to its budget as the manifest counts it, and the budget journey (\`e2e/journeys/web-budget.e2e.ts\`) holds these routes to theirs as counted here.`,
    '',
  ].join('\n');
}

const HISTORY_HEADER = [
  '| run | /login JS gzip KB | /login JS transferred KB | /login usable ms | /login slow 4G ms | /tickets JS gzip KB | /tickets JS transferred KB | /tickets slow 4G ms |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
];

/** Rewrites this bench's section; the previous run's summary joins the earlier runs table. */
function writeSection(section: string, _results: RouteResult[], _label: string): void {
  const doc = fs.existsSync(DOC) ? fs.readFileSync(DOC, 'utf8') : '# Benchmarks\n';
  const start = doc.indexOf(`${HEADING}\n`);
  const end = start < 0 ? -1 : doc.indexOf('\n## ', start + HEADING.length);
  const old = start < 0 ? '' : doc.slice(start, end < 0 ? undefined : end + 1);
  const history: string[] = [];
  if (old) {
    const lines = old.split('\n');
    const at = lines.findIndex((l) => l.trim() === HISTORY_HEADING);
    if (at >= 0)
      history.push(
        ...lines
          .slice(at + 1)
          .filter((l) => l.startsWith('| ') && !l.startsWith('| run') && !l.startsWith('| ---')),
      );
    const previous = summarise(lines);
    if (previous) history.unshift(previous);
  }
  const full = history.length
    ? `${section}\n${HISTORY_HEADING}\n\nThe /login and /tickets figures of earlier runs, newest first (read back from this section when the bench rewrites it).\n\n${[...HISTORY_HEADER, ...history].join('\n')}\n`
    : section;
  const next =
    start < 0
      ? `${doc.trimEnd()}\n\n${full}`
      : `${doc.slice(0, start)}${full.trimEnd()}\n${end < 0 ? '' : `\n${doc.slice(end + 1)}`}`;
  fs.writeFileSync(DOC, next);
}

/** One history row from a previous section: its run line and its /login and /tickets rows. */
function summarise(lines: string[]): string | undefined {
  const run = lines.find((l) => l.startsWith('Last run'));
  const row = (name: string) =>
    lines
      .find((l) => l.startsWith(`| ${name} |`))
      ?.split('|')
      .map((c) => c.trim());
  const login = row('/login');
  const tickets = row('/tickets');
  if (!run || !login || !tickets) return undefined;
  const when = run
    .replace(/^Last run/, '')
    .replace(/;.*$/, '')
    .replace(/^:\s*/, '')
    .trim();
  // The label may hold parentheses itself: 'Last run (after (light login)): <date>; ...'.
  const label = run.match(/^Last run \((.+?)\): /)?.[1];
  const stamp = run.match(/\d{4}-\d\d-\d\dT[\d:]+Z/)?.[0] ?? when;
  return `| ${stamp}${label ? ` (${label})` : ''} | ${login[4]} | ${login[5]} | ${login[9]} | ${login[10]} | ${tickets[4]} | ${tickets[5]} | ${tickets[10]} |`;
}

await main();
