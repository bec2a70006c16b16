/** The tickets API benchmark's report: its tables and its section of docs/benchmarks.md. */
import { TICKETS_PAGE_SIZE } from '../../apps/server/src/modules/tickets/tickets-service.js';
import * as http from '../support/http-bench.js';
import { f0, f1, f2 } from '../support/load.js';
import { plansPart, planTable as planTableOf } from '../support/plans.js';
import { BENCHMARKS_DOC, commandBlock, writeSection } from '../support/report.js';
import { serverLoadText } from './cluster.js';
import type { Plan, ScenarioResult } from './measure.js';
import type { Options } from './options.js';

/** Pages and searches answer in under 50 ms at p99. */
export const TARGET_P99_MS = 50;
export const WARMUP_PER_SCENARIO = 15;
/** One measured run of this bench. */
type Run = http.MeasuredRun<Options, ScenarioResult, Plan>;

export const HEADING = '## Tickets API (bench/api)';

const mark = (p99: number) => http.markP99(p99, TARGET_P99_MS);

/** The results table (markdown lines): latency, throughput, CPU and SQL per scenario. */
export function resultTable(results: ScenarioResult[], concurrency: number): string[] {
  const lines = [
    `| scenario | count | seq p50 | p95 | p99 | max | req/s | C=${concurrency} p50 | p95 | p99 | max | req/s | CPU ms / req seq | C=${concurrency}: Node + Postgres | queries / req | SQL ms page / count / other |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of results) {
    const s = r.sequential.latency;
    const c = r.concurrent.latency;
    lines.push(
      `| ${r.scenario.name} | ${f0(r.count)} | ${f1(s.p50)} | ${f1(s.p95)} | ${mark(s.p99)} | ${f1(s.max)} | ` +
        `${f0(r.sequential.perSecond)} | ${f1(c.p50)} | ${f1(c.p95)} | ${mark(c.p99)} | ${f1(c.max)} | ` +
        `${f0(r.concurrent.perSecond)} | ${f2(r.cpuMs.sequential.node + r.cpuMs.sequential.postgres)} | ` +
        `**${f2(r.cpuMs.concurrent.node + r.cpuMs.concurrent.postgres)}** = ${f2(r.cpuMs.concurrent.node)} + ` +
        `${f2(r.cpuMs.concurrent.postgres)} | ${f1(r.queriesPerRequest)} | ` +
        `${f1(r.sqlMs.page)} / ${f1(r.sqlMs.count)} / ${f1(r.sqlMs.other)} |`,
    );
  }
  return lines;
}

/**
 * The plans table (markdown lines), with the rows kept and the time of the body search's scan.
 */
export function planTable(plans: Plan[]): string[] {
  return planTableOf(plans, 'query', {
    header: 'body search: messages kept, ms',
    cell: (p) => (p.messageScan ? `${f0(p.messageScan.rows)}, ${f1(p.messageScan.ms)}` : '-'),
  });
}

/** The whole 'Tickets API (bench/api)' section of docs/benchmarks.md. */
export function section({ options, env, volumes, load, results, plans }: Run): string {
  const misses = results.filter(
    (r) => r.sequential.latency.p99 >= TARGET_P99_MS || r.concurrent.latency.p99 >= TARGET_P99_MS,
  );
  const seqMisses = results.filter((r) => r.sequential.latency.p99 >= TARGET_P99_MS);
  return [
    HEADING,
    '',
    `\`GET /api/tickets\` (one page of ${TICKETS_PAGE_SIZE} tickets with contact, user, queue, connection and tags, ` +
      'plus the total count) over HTTP on loopback, against a Postgres server. One company holds the data set ' +
      'below, seeded with set-based SQL (generate_series) and then `VACUUM ANALYZE`d; a second, smaller company ' +
      'shares the tables so that every query has to filter by company. Message bodies are drawn from a word ' +
      'list with a Zipf-like skew, so a frequent word hits a realistic share of messages; rare words are in ' +
      'about one message of 4,000. Each scenario runs on its own after a warm-up of ' +
      `${WARMUP_PER_SCENARIO} requests of every scenario one at a time and ${WARMUP_PER_SCENARIO * options.concurrency} ` +
      `with ${options.concurrency} in flight: first sequential requests (one in flight, kept-alive \`node:http\` ` +
      `sockets), then the same number with ${options.concurrency} in flight. Latency runs from sending the ` +
      "request to the end of the body as it comes (compressed; a browser decompresses on its own machine). *count* is the answer's total; *SQL ms* is the mean time per request " +
      "of the app's queries in the sequential run, seen from the app's `pg` pool: the page query, the count " +
      'query, and the rest (the auth guard and the viewer); *queries / req* counts them. *CPU ms / req* is the ' +
      "CPU time of the server's Node process plus the database's Postgres backends (`/proc/<pid>/stat` of the " +
      '`pg_stat_activity` pids) during a run, divided by its requests: on a shared machine it is the stable ' +
      'figure, where latency depends on the other load. The load generator runs in a child process ' +
      '(`bench/support/http-load-worker.ts`), so its CPU is not counted; Postgres runs on the same machine. ' +
      "The last two scenarios are other hot reads: a page of a busy ticket's messages and the contacts list.",
    '',
    'Run it (a few minutes; a fresh database is created on the server and dropped at the end; this section is ' +
      'rewritten with the new figures unless `--no-write`):',
    '',
    ...commandBlock([
      'npx tsx --conditions=source bench/api/run.ts [--size 10k|100k] [--tickets 10000] [--messages 200000] \\',
      '  [--requests 300] \\',
      "  [--concurrency 10] [--timeout 900] [--no-write] [--only 'name part,…'] [--encoding identity] [--workers N]",
      '# --workers N runs the server as N processes (WORKERS, with Redis at BENCH_REDIS_URL, default redis://127.0.0.1:6379)',
      '# --only runs those scenarios alone (nothing written); --encoding sets accept-encoding (default gzip, deflate, br)',
      '# --size 100k seeds 100,000 tickets and 200,000 messages (--tickets and --messages override a size)',
    ]),
    '',
    ...http.factsLines(env, volumes),
    `Parameters: ${f0(options.requests)} requests per scenario and run, concurrency ${options.concurrency} ` +
      `in the second run${options.workers > 1 ? `, the server as ${options.workers} worker processes` : ''}.` +
      ' Times in ms; p99 at or over the target in bold.',
    http.loadLine(serverLoadText(load, options), load.other),
    '',
    ...resultTable(results, options.concurrency),
    '',
    `Target (pages and searches under ${TARGET_P99_MS} ms at p99 with 10,000 tickets and 200,000 ` +
      `messages): ${
        misses.length === 0
          ? 'met by every scenario, sequential and concurrent.'
          : `not met. Sequential requests: ${
              seqMisses.length
                ? `${seqMisses.length} over (${seqMisses.map((m) => m.scenario.name).join('; ')})`
                : 'none over'
            }; with ${options.concurrency} in flight: ${misses.length} over${
              misses.length > seqMisses.length
                ? `, ${misses.length - seqMisses.length} of them only then (${misses
                    .filter((m) => !seqMisses.includes(m))
                    .map((m) => m.scenario.name)
                    .join('; ')})`
                : ''
            }.`
      }`,
    '',
    ...plansPart(
      '### Plans (bench/api)',
      'EXPLAIN (ANALYZE, BUFFERS) of the page and count queries the app sent for one request of the ' +
        `slowest scenarios by sequential p99 (those over the target, at least ${http.EXPLAIN_AT_LEAST}, at most ` +
        `${http.EXPLAIN_AT_MOST}), run once more on the same database; ` +
        'the full plans are printed by the run.',
      planTable(plans),
      plans,
      'query',
    ),
  ].join('\n');
}

/** The plan headers call a recorded statement a query. */
export const STATEMENT = 'query';

/** The tables printed at the end of a run: results, then plans. */
export const tables = (run: Run): string[][] => [
  resultTable(run.results, run.options.concurrency),
  planTable(run.plans),
];

/** The load line of the printed summary. */
export const runLoadText = (run: Run): string => serverLoadText(run.load, run.options);

/** Writes the section into docs/benchmarks.md. */
export const writeDoc = (text: string): void => writeSection(BENCHMARKS_DOC, HEADING, text);
