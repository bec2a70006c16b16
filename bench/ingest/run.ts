/**
 * Ingest benchmark: N simulated customers send M messages each through the
 * simulator driver into the full inbound pipeline (dedupe, contact upsert, live ticket, store, ticket
 * update, emit after commit) on a Postgres server, while one socket.io client per agent receives the
 * `company-{id}-appMessage` events. Reports messages/s and the latency from injection to the moment
 * every agent socket has the event, next to the raw rate of single-row INSERTs into the same database
 * measured in the same run, and rewrites the 'Ingest (bench/ingest)' section of docs/benchmarks.md.
 *
 *   npx tsx --conditions=source bench/ingest/run.ts [--customers 200] [--messages 10] [--agents 5]
 *     [--concurrency 8,16,32,64] [--timeout 300] [--no-write]
 *
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) names the server; a uniquely
 * named database is created on it and dropped at the end, also on failure or timeout.
 * Setup: setup.ts; the measured phases: phases.ts; the report: report.ts.
 */
import path from 'node:path';
import { loadAverage } from '../support/facts.js';
import { f0, f1 } from '../support/load.js';
import { guardRun, runBench } from '../support/options.js';
import { BENCHMARKS_DOC, writeSection } from '../support/report.js';
import { createTeardown } from '../support/teardown.js';
import { parseParams } from './options.js';
import { insertPhase, pipelinePhase } from './phases.js';
import {
  costTableOf,
  currentSection,
  environment,
  historyOf,
  INTRO,
  type Round,
  SECTION,
  sectionOf,
  tableOf,
} from './report.js';
import { setup } from './setup.js';

// Every resource registers its release; they run in reverse order, once, even on failure.
const { onTeardown, teardown, abort } = createTeardown('ingest benchmark');

/** Warms up, runs a pipeline round and an INSERT round per C, checks the stored rows and reports. */
async function main(): Promise<void> {
  const params = parseParams();
  guardRun(params.timeoutSeconds, abort);

  console.log(
    `ingest benchmark: ${params.customers} customers × ${params.messages} messages, ${params.agents} agents, ` +
      `C = ${params.concurrency.join(', ')}`,
  );
  const bench = await setup(params, onTeardown);
  const env = await environment(bench.ref);
  await bench.ref.query(
    'create table bench_insert (id bigserial primary key, body text not null, created_at timestamptz not null default now())',
  );

  // Warm-up: JIT, prepared paths, pool connections; not recorded.
  const warmCustomers = Math.min(params.customers, 50);
  await pipelinePhase(bench, warmCustomers, Math.min(params.messages, 4), params.agents, 8);
  await insertPhase(bench, 200, 8);

  const rounds: Round[] = [];
  for (const c of params.concurrency) {
    const pipeline = await pipelinePhase(bench, params.customers, params.messages, params.agents, c);
    const insert = await insertPhase(bench, pipeline.messages, c);
    rounds.push({ pipeline, insert });
    console.log(
      `C=${c}: ${f0(pipeline.perSecond)} msg/s, p50 ${f1(pipeline.latency.p50)} ms, p99 ` +
        `${f1(pipeline.latency.p99)} ms | raw INSERT ${f0(insert.perSecond)} rows/s`,
    );
  }

  // Every message stored once, one live ticket per customer, unread counts complete.
  const totalMessages =
    warmCustomers * Math.min(params.messages, 4) +
    params.concurrency.length * params.customers * params.messages;
  const totalTickets = warmCustomers + params.concurrency.length * params.customers;
  const { rows } = await bench.ref.query<{ messages: string; tickets: string; unread: string }>(
    `select (select count(*) from messages where whatsapp_id = $1) as messages,
            (select count(*) from tickets where whatsapp_id = $1) as tickets,
            (select coalesce(sum(unread_messages), 0) from tickets where whatsapp_id = $1) as unread`,
    [bench.whatsappId],
  );
  const check = rows[0]!;
  if (
    Number(check.messages) !== totalMessages ||
    Number(check.tickets) !== totalTickets ||
    Number(check.unread) !== totalMessages
  ) {
    throw new Error(
      `stored ${check.messages} messages / ${check.tickets} tickets / ${check.unread} unread, expected ` +
        `${totalMessages} / ${totalTickets} / ${totalMessages}`,
    );
  }
  await bench.ref.query('drop table bench_insert');

  env.loadEnd = loadAverage();
  const best = rounds.reduce((a, b) => (b.pipeline.perSecond > a.pipeline.perSecond ? b : a));
  const section = sectionOf(params, env, rounds, best, historyOf(currentSection(BENCHMARKS_DOC)));
  console.log('');
  console.log(tableOf(rounds, best).join('\n'));
  console.log('');
  console.log(costTableOf(rounds).join('\n'));
  console.log('');
  console.log(
    `load average at start ${env.loadStart}, at end ${env.loadEnd}; machine: nproc ${env.nproc}, ${env.memoryGiB} GiB, Node ${env.node}; ${env.postgres}; ` +
      env.settings.map(([k, v]) => `${k}=${v}`).join(' '),
  );
  if (params.write) {
    writeSection(BENCHMARKS_DOC, `## ${SECTION}`, section, INTRO);
    console.log(`wrote the '${SECTION}' section of ${path.relative(process.cwd(), BENCHMARKS_DOC)}`);
  }
}

runBench(main, abort, teardown);
