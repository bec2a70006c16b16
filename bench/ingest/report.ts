/** The ingest benchmark's report: its tables, its history of earlier runs and its docs section. */
import fs from 'node:fs';
import type pg from 'pg';
import { type Facts, loadAverage, machineFacts } from '../support/facts.js';
import { f0, f1, f2, pct } from '../support/load.js';
import { commandBlock } from '../support/report.js';
import type { Params } from './options.js';
import type { InsertResult, PipelineResult } from './phases.js';
import { APP_POOL_MAX } from './setup.js';

export const SECTION = 'Ingest (bench/ingest)';
/** At least half the raw single-row INSERT rate of the same run, p99 under 100 ms. */
const AIM = { insertShare: 0.5, p99Ms: 100 };
/** The Postgres settings the report shows. */
const PG_SETTINGS = ['synchronous_commit', 'fsync', 'wal_sync_method', 'shared_buffers', 'max_connections'];

/** The machine, Postgres and the load averages of the run. */
export interface Environment extends Facts {
  /** The machine's load average at the start and at the end of the run. */
  loadStart: string;
  loadEnd?: string;
}

/** The run's facts (Postgres settings that bear on commit speed) and the load average at the start. */
export async function environment(ref: pg.Pool): Promise<Environment> {
  const facts = await machineFacts(ref, PG_SETTINGS, 'unknown');
  return { ...facts, loadStart: loadAverage() };
}

/** A pipeline round and the raw INSERT round of the same C. */
export interface Round {
  pipeline: PipelineResult;
  insert: InsertResult;
}

/** The rounds table (markdown lines), the best round's C in bold. */
export function tableOf(rounds: Round[], best: Round): string[] {
  const lines = [
    '| C | msg/s | p50 ms | p95 ms | p99 ms | max ms | raw INSERT rows/s | INSERT p50 / p99 ms |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const round of rounds) {
    const { pipeline: p, insert: i } = round;
    const c = round === best ? `**${p.concurrency}**` : String(p.concurrency);
    lines.push(
      `| ${c} | ${f0(p.perSecond)} | ${f1(p.latency.p50)} | ${f1(p.latency.p95)} | ${f1(p.latency.p99)} | ` +
        `${f1(p.latency.max)} | ${f0(i.perSecond)} | ${f1(i.latency.p50)} / ${f1(i.latency.p99)} |`,
    );
  }
  return lines;
}

/** The cost table (markdown lines): where the time goes per round. */
export function costTableOf(rounds: Round[]): string[] {
  const lines = [
    '| C | ingest p50 / p99 ms | PG round trips / msg | pool waiters | Node CPU ms / msg | Postgres CPU ms / msg | machine busy | other load | INSERT: Node / Postgres CPU ms / row | CPU ms / msg (Node + Postgres) | msgs / batch |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const { pipeline: p, insert: i } of rounds) {
    lines.push(
      `| ${p.concurrency} | ${f1(p.ingest.p50)} / ${f1(p.ingest.p99)} | ${f1(p.queriesPerMessage)} | ` +
        `${f1(p.probe.poolWaiting)} | ${f2(p.probe.nodeMsPerUnit)} | ${f2(p.probe.pgMsPerUnit)} | ` +
        `${pct(p.probe.machineCpu)} | ${pct(p.probe.otherCpu)} | ${f2(i.probe.nodeMsPerUnit)} / ${f2(i.probe.pgMsPerUnit)} | ` +
        `${f2(p.probe.nodeMsPerUnit + p.probe.pgMsPerUnit)} | ${f1(p.perBatch)} |`,
    );
  }
  return lines;
}

const HISTORY_HEADING = '### Earlier runs';
const HISTORY_HEADER = [
  '| run | best C | msg/s | p50 / p99 ms | PG round trips / msg | Node / Postgres CPU ms / msg | other load |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
];
const HISTORY_MAX = 20;

/** Table cells of a markdown row. */
const cellsOf = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim());

/**
 * The history rows to keep: the previous section's best round first (read back from its tables),
 * then the history that section already kept. Empty when there was no previous section.
 */
export function historyOf(previous: string | undefined): string[] {
  if (!previous) return [];
  const lines = previous.split('\n');
  const kept: string[] = [];
  const at = lines.findIndex((l) => l.trim() === HISTORY_HEADING);
  if (at >= 0) {
    for (const line of lines.slice(at + 1)) {
      if (!line.startsWith('|')) {
        if (kept.length) break;
        continue;
      }
      if (line.startsWith('| run ') || line.startsWith('| ---')) continue;
      kept.push(line);
    }
  }
  const date = /Last run: ([^;]+);/.exec(previous)?.[1];
  const bestLine = lines.find((l) => /^\| \*\*\d+\*\* \|/.test(l));
  if (!date || !bestLine) return kept.slice(0, HISTORY_MAX);
  const best = cellsOf(bestLine);
  const c = best[0]!.replace(/\*/g, '');
  const costHeader = lines.findIndex((l) => l.includes('PG round trips / msg') && l.startsWith('| C |'));
  const cost =
    costHeader >= 0
      ? lines
          .slice(costHeader + 2)
          .filter((l) => l.startsWith('|'))
          .map(cellsOf)
          .find((cells) => cells[0] === c)
      : undefined;
  const row = `| ${date} | ${c} | ${best[1]} | ${best[2]} / ${best[4]} | ${cost?.[2] ?? '-'} | ${cost ? `${cost[4]} / ${cost[5]}` : '-'} | ${cost?.[7] ?? '-'} |`;
  return [row, ...kept].slice(0, HISTORY_MAX);
}

/** The whole 'Ingest (bench/ingest)' section of docs/benchmarks.md. */
export function sectionOf(
  params: Params,
  env: Environment,
  rounds: Round[],
  best: Round,
  history: string[] = [],
): string {
  const p = best.pipeline;
  const met = p.perSecond >= AIM.insertShare * best.insert.perSecond && p.latency.p99 < AIM.p99Ms;
  const withinP99 = rounds
    .filter((r) => r.pipeline.latency.p99 < AIM.p99Ms)
    .reduce<Round | undefined>(
      (a, b) => (!a || b.pipeline.perSecond > a.pipeline.perSecond ? b : a),
      undefined,
    );
  const otherLoad = Math.max(...rounds.map((r) => r.pipeline.probe.otherCpu).filter(Number.isFinite), 0);
  const contended = otherLoad > 0.1 ? otherLoad : 0;
  const total = params.customers * params.messages;
  return [
    `## ${SECTION}`,
    '',
    `${params.customers} simulated customers send ${params.messages} messages each (${f0(total)} per round) through ` +
      'the simulator driver (`SimulatorDriver.receive`) into the full inbound pipeline on a Postgres server: ' +
      'dedupe, contact upsert, live ticket, store, ticket update, emit after commit, with group commit: the ' +
      'messages that arrive while a batch is stored (or within 1 ms of an idle lane) form the next batch, ' +
      'its known conversations stored by one multi-row statement and its new ones by one transaction. ' +
      ` ${params.agents} agents (admins of the company) each hold a socket.io client on loopback. ` +
      'Latency is measured per message from the start of its injection to the moment every agent socket has ' +
      "received its `company-{id}-appMessage` create event (matched by a unique body); msg/s is the round's " +
      'messages over the time from the first injection to the last delivery. Customers send in parallel ' +
      "(at most C messages in flight), each customer's messages in order. Server, sockets and load generator " +
      'share one Node process; Postgres runs on the same machine. The reference line is the raw rate of ' +
      `single-row autocommit INSERTs into a scratch table of the same database, with the same C, through \`pg\` with a pool of ${APP_POOL_MAX} ` +
      "connections like the app's.",
    '',
    'Run it (about a minute; a fresh database is created on the server and dropped at the end; this section is ' +
      'rewritten with the new figures unless `--no-write`):',
    '',
    ...commandBlock([
      'npx tsx --conditions=source bench/ingest/run.ts [--customers 200] [--messages 10] [--agents 5] \\',
      '  [--concurrency 8,16,32,64] [--timeout 300] [--no-write]',
    ]),
    '',
    `Last run: ${env.date}; \`nproc\` ${env.nproc} (${env.cpu}), ${env.memoryGiB} GiB memory, Node ${env.node}; ` +
      `${env.postgres}.`,
    `Postgres settings as found (not changed): ${env.settings.map(([k, v]) => `\`${k}=${v}\``).join(', ')}.`,
    `Load average (1 / 5 / 15 min, \`/proc/loadavg\`) at the start: ${env.loadStart}; at the end: ${env.loadEnd ?? '?'}.`,
    `Parameters: ${params.customers} customers × ${params.messages} messages, ${params.agents} agent sockets, ` +
      `C = ${params.concurrency.join(', ')}, after a warm-up round.`,
    '',
    ...tableOf(rounds, best),
    '',
    `Best: C = ${p.concurrency}, **${f0(p.perSecond)} messages/s**, p50 ${f1(p.latency.p50)} ms, ` +
      `p99 ${f1(p.latency.p99)} ms, against ${f0(best.insert.perSecond)} raw single-row INSERTs/s ` +
      `(the pipeline reaches ${pct(p.perSecond / best.insert.perSecond)} of it). Aim (≥ ${pct(AIM.insertShare)} of the raw INSERT rate ` +
      `with p99 < ${AIM.p99Ms} ms): ${met ? 'met' : 'not met'}.` +
      (withinP99
        ? ` Highest rate with p99 < ${AIM.p99Ms} ms: C = ${withinP99.pipeline.concurrency}, ` +
          `${f0(withinP99.pipeline.perSecond)} messages/s (p99 ${f1(withinP99.pipeline.latency.p99)} ms).`
        : ` No C kept p99 under ${AIM.p99Ms} ms.`),
    ...(contended
      ? [
          '',
          `Note: this run shared the machine with other work (up to ${pct(contended)} of it, column *other load* ` +
            'below); its figures are lower than on an idle machine.',
        ]
      : []),
    '',
    'Where the time goes, per pipeline round: *ingest* is the `receive()` call alone (the pipeline until ' +
      'its emit); *PG round trips / msg* counts every `pg` query (BEGIN and COMMIT included); *pool waiters* ' +
      `is the mean number of queries waiting for one of the app pool's ${APP_POOL_MAX} connections; *Node CPU* ` +
      'is this process (server, the agent sockets and the load generator); *Postgres CPU* the backends of ' +
      "the benchmark database; *other load* is the rest of the machine's busy time (other processes, " +
      'Postgres background writers, kernel).',
    '',
    ...costTableOf(rounds),
    '',
    ...(history.length
      ? [
          HISTORY_HEADING,
          '',
          "The best round of each earlier run, newest first (read back from this section's tables when " +
            'the bench rewrites it; compare rows of similar *other load*).',
          '',
          ...HISTORY_HEADER,
          ...history,
          '',
        ]
      : []),
  ].join('\n');
}

/** The current text of this bench's section of `doc` (docs/benchmarks.md), if any. */
export function currentSection(doc: string): string | undefined {
  if (!fs.existsSync(doc)) return undefined;
  const lines = fs.readFileSync(doc, 'utf8').split('\n');
  const start = lines.findIndex((l) => l.trim() === `## ${SECTION}`);
  if (start < 0) return undefined;
  let end = lines.findIndex((l, i) => i > start && /^##\s/.test(l));
  if (end < 0) end = lines.length;
  return lines.slice(start, end).join('\n');
}

/** The start of docs/benchmarks.md when the file does not exist yet. */
export const INTRO = [
  '# Benchmarks',
  '',
  'Each benchmark lives in `bench/<name>/`, runs against loopback only, and rewrites its own section of this',
  'file with the figures of its last run (date, machine, versions, parameters). The recorded figures come',
  'from runs on the 2-core CI machine kind (2 vCPUs, Postgres 15 on the same machine), so they compare',
  'across commits; compare your own runs with each other, not with these.',
  '',
  '- **Ingest** (`bench/ingest`): customer messages per second through the simulator driver and the whole',
  "  inbound pipeline into Postgres, and the latency until every agent's socket has the event, next to the",
  '  raw single-row INSERT rate of the same database.',
  '',
  'Type-check the benchmarks with `npx tsc --noEmit -p bench`.',
  '',
].join('\n');
