/**
 * Dashboard latency benchmark (the aim: `GET /api/dashboard` answers under 100 ms at p99 over 100,000
 * tickets). One company with N tickets spread over 180 days (realistic accepted/closed
 * times, statuses, ~20 agents, contacts created over the period, a few thousand ratings) plus a smaller
 * second company, seeded with set-based SQL on a fresh Postgres database and ANALYZEd; then
 * `GET /api/dashboard` (7, 30, 90 days, a 180-day range) and the two charts (`ticketsUsers`,
 * `ticketsDay` per day and per hour) measured over HTTP on loopback, sequential and with a few
 * requests in flight. Prints p50/p95/p99/max, the EXPLAIN (ANALYZE, BUFFERS) plans of the slowest
 * scenarios' queries, and rewrites the 'Dashboard (bench/dashboard)' section of docs/benchmarks.md.
 *
 *   npx tsx --conditions=source bench/dashboard/run.ts [--tickets 100000] [--requests 200]
 *     [--concurrency 4] [--timeout 1200] [--no-write] [--keep-database]
 *
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) names the server; a uniquely
 * named database is created on it and dropped at the end, also on failure, interruption or timeout
 * (`--keep-database` keeps it and prints its name, to study plans by hand).
 * Seed data: seed.ts; scenarios and measurement: measure.ts; the reference answer: reference.ts; the
 * report: report.ts.
 */

import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { tokenFor } from '../../apps/server/src/test/factories.js';
import { openServerBench, seedConnection } from '../support/app.js';
import { guardServerRun, measureAndExplain, reportRun, startHttpBench } from '../support/http-bench.js';
import { f0, f1 } from '../support/load.js';
import { runBench } from '../support/options.js';
import { Client, scenarios } from './measure.js';
import { readOptions } from './options.js';
import { checkDashboard } from './reference.js';
import * as report from './report.js';
import { AGENTS, dataVolumes, ONLINE_AGENTS, PERIOD_DAYS, seedCompany } from './seed.js';

// The app's queries are recorded; every resource registers its release, run once even on failure.
const { onTeardown, teardown, abort } = startHttpBench('dashboard benchmark');

/** Seeds, checks the answers, measures every scenario, explains the slowest and writes the report. */
async function main(): Promise<void> {
  const options = readOptions();
  guardServerRun(options, abort);
  console.log(
    `dashboard benchmark: ${f0(options.tickets)} tickets over ${PERIOD_DAYS} days, ` +
      `${options.requests} requests per scenario, concurrency ${options.concurrency}`,
  );

  // Fresh database, dropped at the end whatever happens (kept with --keep-database).
  const {
    app,
    url: dbUrl,
    ref,
  } = await openServerBench(options.serverUrl, 'zapdesk_bench_dashboard', onTeardown, {
    tag: 'dashboard',
    keep: options.keep,
  });

  // Seed.
  const seedStarted = performance.now();
  const sql = await seedConnection(dbUrl, onTeardown);
  const main = await seedCompany(app, sql, {
    tickets: options.tickets,
    seed: 0.42,
    numberOffset: 1_234_567,
    agents: AGENTS,
    online: ONLINE_AGENTS,
  });
  const second = await seedCompany(app, sql, {
    tickets: Math.max(1000, Math.round(options.tickets / 10)),
    seed: 0.17,
    numberOffset: 7_654_321,
    agents: 5,
    online: 2,
  });
  await sql.query('vacuum analyze');
  console.log(`seeded in ${f1((performance.now() - seedStarted) / 1000)} s (with VACUUM ANALYZE)`);

  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const client = new Client(
    `http://127.0.0.1:${port}`,
    await tokenFor(app, main.admin, options.timeoutSeconds + 60),
    ref,
    options,
  );

  const list = scenarios();
  // Sanity: every dashboard scenario answers exactly what the plain aggregates over the tickets answer
  // (the rollup and the partial days add up to the same figures), with the company's users only.
  for (const scenario of list.filter((x) => x.path === '/api/dashboard')) {
    await checkDashboard(client, ref, main.companyId, scenario);
  }

  const measured = await measureAndExplain(report, options.concurrency, client, list, ref);
  await reportRun(ref, { options, volumes: await dataVolumes(ref, main, second), ...measured }, report);
}

runBench(main, abort, teardown);
