/**
 * Tickets API latency benchmark: one company with N tickets and M messages (plus a smaller second
 * company), seeded with set-based SQL on a fresh Postgres database, then `GET /api/tickets` measured
 * over HTTP on loopback, scenario by scenario: sequential requests, then again with a few requests
 * in flight. Prints p50/p95/p99/max and requests/s per scenario, the EXPLAIN (ANALYZE, BUFFERS) plans
 * of the slowest scenarios, and rewrites the 'Tickets API (bench/api)' section of docs/benchmarks.md.
 *
 *   npx tsx --conditions=source bench/api/run.ts [--size 10k|100k] [--tickets 10000] [--messages 200000]
 *     [--requests 300] [--concurrency 10] [--timeout 900] [--no-write] [--workers N]
 *
 * --size 100k seeds 100,000 tickets and 200,000 messages (options.ts, SIZES); --tickets and
 * --messages override a size's volumes.
 * --workers N (N > 1) runs the server as N processes (WORKERS, apps/server/src/cluster.ts) with Redis at
 * BENCH_REDIS_URL (default redis://127.0.0.1:6379); CPU per request then sums all of them.
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) names the server; a uniquely
 * named database is created on it and dropped at the end, also on failure, interruption or timeout.
 * Seed data: seed.ts; scenarios and measurement: measure.ts; the report: report.ts.
 */

import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { tokenFor } from '../../apps/server/src/test/factories.js';
import { openServerBench, seedConnection } from '../support/app.js';
import { processCpuMs } from '../support/cpu.js';
import { guardServerRun, measureAndExplain, reportRun, startHttpBench } from '../support/http-bench.js';
import { f0, f1, thisProcessCpuMs } from '../support/load.js';
import { LoadGenerator } from '../support/load-generator.js';
import { runBench } from '../support/options.js';
import { startCluster } from './cluster.js';
import { Client, scenariosFor } from './measure.js';
import { readOptions } from './options.js';
import * as report from './report.js';
import { dataVolumes, seedCompany } from './seed.js';

// The app's queries are recorded; every resource registers its release, run once even on failure.
const { onTeardown, teardown, abort } = startHttpBench('tickets API benchmark');

/** Seeds, measures every scenario, explains the slowest and writes the report. */
async function main(): Promise<void> {
  const options = readOptions();
  guardServerRun(options, abort);
  console.log(
    `tickets API benchmark: ${f0(options.tickets)} tickets, ${f0(options.messages)} messages, ` +
      `${options.requests} requests per scenario, concurrency ${options.concurrency}`,
  );

  // Fresh database, dropped at the end whatever happens.
  const {
    app,
    config,
    url: dbUrl,
    ref,
  } = await openServerBench(options.serverUrl, 'zapdesk_bench_api', onTeardown, { tag: 'api' });

  // Seed.
  const seedStarted = performance.now();
  const sql = await seedConnection(dbUrl, onTeardown);
  const main = await seedCompany(app, sql, {
    tickets: options.tickets,
    messages: options.messages,
    seed: 0.42,
    withAgent: true,
    numberOffset: 1_234_567,
  });
  const second = await seedCompany(app, sql, {
    tickets: Math.max(100, Math.round(options.tickets / 10)),
    messages: Math.round(options.messages / 10),
    seed: 0.17,
    withAgent: false,
    numberOffset: 7_654_321,
  });
  await sql.query('vacuum analyze');
  console.log(`seeded in ${f1((performance.now() - seedStarted) / 1000)} s (with VACUUM ANALYZE)`);

  // A part of a real contact's number (5 of its last 8 digits).
  const { rows: numberRows } = await sql.query<{ part: string }>(
    `select substr(number, 7, 5) as part from contacts where company_id = $1 order by id offset $2 limit 1`,
    [main.companyId, Math.floor(options.tickets / 3)],
  );
  const numberPart = numberRows[0]!.part;

  let port: number;
  let serverCpuMs = thisProcessCpuMs;
  if (options.workers > 1) {
    const cluster = await startCluster(config, dbUrl, options);
    onTeardown('worker processes', () => cluster.stop());
    port = cluster.port;
    serverCpuMs = () => processCpuMs([cluster.pid, ...cluster.workers]);
  } else {
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
  }
  const tokenTtl = options.timeoutSeconds + 60;
  const generator = new LoadGenerator();
  onTeardown('load generator', () => generator.close());
  const client = new Client(
    `http://127.0.0.1:${port}`,
    {
      admin: await tokenFor(app, main.admin, tokenTtl),
      agent: await tokenFor(app, main.agent!, tokenTtl),
    },
    ref,
    generator,
    options,
    serverCpuMs,
  );

  // The ticket whose contact has the most messages (the messages page scenario).
  const { rows: busyRows } = await sql.query<{ id: number }>(
    `select t.id from tickets t join messages m on m.contact_id = t.contact_id
     where t.company_id = $1 group by t.id order by count(*) desc, t.id limit 1`,
    [main.companyId],
  );
  const every = scenariosFor(main, numberPart, busyRows[0]!.id);
  const scenarios = options.only.length
    ? every.filter((s) => options.only.some((part) => s.name.includes(part)))
    : every;
  // Sanity: the admin sees exactly the company's tickets, and the other company's never show.
  const all = JSON.parse((await client.get(every[0]!)).body) as {
    count: number;
    tickets: { companyId: number }[];
  };
  // Without tags, days or unread the count is exact, whatever the size (ticket_counts).
  const expected = main.tickets;
  if (all.count !== expected || all.tickets.some((t) => t.companyId !== main.companyId)) {
    throw new Error(
      `admin showAll answered count ${all.count}, expected ${expected} of company ${main.companyId}`,
    );
  }

  const measured = await measureAndExplain(report, options.concurrency, client, scenarios, ref, serverCpuMs);
  await reportRun(ref, { options, volumes: await dataVolumes(ref, main, second), ...measured }, report);
}

runBench(main, abort, teardown);
