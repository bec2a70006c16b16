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
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { companyChannel } from '@zapdesk/shared';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { io as connect, type Socket } from 'socket.io-client';
import { buildApp } from '../../apps/server/src/app.js';
import { SimulatorDriver } from '../../apps/server/src/channels/simulator/simulator-driver.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { type DatabaseHandle, openDatabase } from '../../apps/server/src/db/client.js';
import { seedPlans } from '../../apps/server/src/db/seed.js';
import { loadSecrets } from '../../apps/server/src/lib/secrets.js';
import {
  createCompany,
  createSimulatorConnection,
  createUser,
  type TestUser,
} from '../../apps/server/src/test/factories.js';
import { backendJiffies, machineJiffies } from '../support/cpu.js';
import { f0, f1, f2, pct } from '../support/load.js';
import { writeSection } from '../support/report.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DOC = path.join(ROOT, 'docs/benchmarks.md');
const SECTION = 'Ingest (bench/ingest)';
/** The app's pool size (apps/server/src/db/client.ts); the INSERT reference uses the same. */
const APP_POOL_MAX = 10;
const DELIVERY_WAIT_MS = 30_000;
/** The aim: at least half the raw single-row INSERT rate of the same run, p99 under 100 ms. */
const AIM = { insertShare: 0.5, p99Ms: 100 };

// ---------------------------------------------------------------------------------------------
// Parameters

interface Params {
  customers: number;
  messages: number;
  agents: number;
  concurrency: number[];
  timeoutSeconds: number;
  write: boolean;
  serverUrl: string;
}

function positive(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got '${value}'`);
  return n;
}

function parseParams(): Params {
  const { values } = parseArgs({
    options: {
      customers: { type: 'string', default: '200' },
      messages: { type: 'string', default: '10' },
      agents: { type: 'string', default: '5' },
      concurrency: { type: 'string', default: '8,16,32,64' },
      timeout: { type: 'string', default: '300' },
      'no-write': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(
      'npx tsx --conditions=source bench/ingest/run.ts [--customers N] [--messages M] [--agents A]\n' +
        '  [--concurrency C[,C...]] [--timeout seconds] [--no-write]',
    );
    process.exit(0);
  }
  const params: Params = {
    customers: positive('customers', values.customers),
    messages: positive('messages', values.messages),
    agents: positive('agents', values.agents),
    concurrency: values.concurrency.split(',').map((c) => positive('concurrency', c.trim())),
    timeoutSeconds: positive('timeout', values.timeout),
    write: !values['no-write'],
    serverUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  };
  // Bounded: the run must fit its hard timeout on a small machine.
  if (params.customers * params.messages > 200_000)
    throw new Error('customers × messages is capped at 200000');
  if (params.agents > 200) throw new Error('--agents is capped at 200');
  if (params.concurrency.length > 8 || params.concurrency.some((c) => c > 1024)) {
    throw new Error('--concurrency takes at most 8 values of at most 1024');
  }
  return params;
}

// ---------------------------------------------------------------------------------------------
// Measurement helpers

/** Nearest-rank percentile of an ascending array. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

interface Distribution {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

function distribution(values: number[]): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  const sum = sorted.reduce((s, v) => s + v, 0);
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
    mean: sorted.length ? sum / sorted.length : Number.NaN,
  };
}

/** Counts the Postgres round trips (client.query calls) of every pg client in this process. */
const queryStats = { active: false, count: 0, ms: 0 };
{
  type QueryFn = (this: pg.Client, ...args: unknown[]) => unknown;
  const original = pg.Client.prototype.query as unknown as QueryFn;
  const patched: QueryFn = function (this: pg.Client, ...args: unknown[]) {
    const result = original.apply(this, args);
    if (queryStats.active) {
      queryStats.count++;
      if (result instanceof Promise) {
        const started = performance.now();
        result.then(
          () => {
            queryStats.ms += performance.now() - started;
          },
          () => {},
        );
      }
    }
    return result;
  };
  pg.Client.prototype.query = patched as unknown as typeof pg.Client.prototype.query;
}

/** Busy and total jiffies of the whole machine (/proc/stat), or undefined off Linux. */
let clockTicks: number | undefined;
/** Clock ticks per second of /proc times (USER_HZ). */
function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/**
 * Samples a phase: CPU of this process, of the benchmark database's Postgres backends and of the
 * whole machine, event-loop delay, and the waiters of the app's pool.
 */
async function startProbe(ref: pg.Pool, pool: pg.Pool | undefined) {
  const pg0 = await backendJiffies(ref);
  const cpu0 = process.cpuUsage();
  const machine0 = machineJiffies();
  const wall0 = performance.now();
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  let samples = 0;
  let waiting = 0;
  const timer = setInterval(() => {
    samples++;
    waiting += pool?.waitingCount ?? 0;
  }, 5);
  return async (units: number) => {
    clearInterval(timer);
    loop.disable();
    const wallMs = performance.now() - wall0;
    const cpu = process.cpuUsage(cpu0);
    const machine1 = machineJiffies();
    const pg1 = await backendJiffies(ref);
    let pgTicks = 0;
    for (const [pid, ticks] of pg1) pgTicks += ticks - (pg0.get(pid) ?? 0);
    const nodeMs = (cpu.user + cpu.system) / 1000;
    const pgMs = (pgTicks * 1000) / ticksPerSecond();
    const cores = os.availableParallelism();
    const machineBusy =
      machine0 && machine1 && machine1.total > machine0.total
        ? (machine1.busy - machine0.busy) / (machine1.total - machine0.total)
        : Number.NaN;
    return {
      /** CPU ms per unit (message or row) of this Node process (server, sockets and load generator). */
      nodeMsPerUnit: nodeMs / units,
      /** CPU ms per unit of the Postgres backends of the benchmark database. */
      pgMsPerUnit: pgMs / units,
      /** Share of all cores busy on the machine. */
      machineCpu: machineBusy,
      /** Share of all cores busy with anything else (other processes, Postgres background work, kernel). */
      otherCpu: machineBusy - (nodeMs + pgMs) / (wallMs * cores),
      loopP99Ms: loop.percentile(99) / 1e6,
      poolWaiting: samples ? waiting / samples : 0,
    };
  };
}

// ---------------------------------------------------------------------------------------------
// Run state and cleanup

const cleanups: (() => Promise<unknown> | unknown)[] = [];
let cleaning: Promise<void> | undefined;

/** Runs the registered cleanups in reverse order, once; each failure is reported, none stops the rest. */
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    for (const step of cleanups.reverse()) {
      try {
        await Promise.race([
          step(),
          new Promise((_, reject) => setTimeout(() => reject(new Error('cleanup step timed out')), 15_000)),
        ]);
      } catch (error) {
        console.error('cleanup:', error instanceof Error ? error.message : error);
      }
    }
  })();
  return cleaning;
}

let failed = false;

async function fail(reason: unknown): Promise<never> {
  // Only the first failure is reported; later ones are in-flight work cut off by the cleanup.
  if (!failed) console.error('ingest benchmark failed:', reason);
  failed = true;
  await cleanup();
  process.exit(1);
}

// ---------------------------------------------------------------------------------------------
// Setup

interface Bench {
  app: FastifyInstance;
  database: DatabaseHandle;
  appPool: pg.Pool | undefined;
  ref: pg.Pool;
  companyId: number;
  whatsappId: number;
  driver: SimulatorDriver;
  sockets: Socket[];
  /** Per agent socket, the handler of appMessage create events (replaced by each phase). */
  onMessage: (body: string) => void;
  /** The inbound pipeline's batch counters. */
  pipelineStats: () => { batches: number; messages: number };
}

async function setup(params: Params): Promise<Bench> {
  const name = `zapdesk_bench_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: params.serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  cleanups.push(async () => {
    const client = new pg.Client({ connectionString: params.serverUrl });
    await client.connect();
    try {
      await client.query(`drop database if exists ${name} with (force)`);
    } finally {
      await client.end();
    }
  });
  const url = new URL(params.serverUrl);
  url.pathname = `/${name}`;
  const host = url.hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host) && !host.startsWith('/')) {
    console.warn(`warning: BENCH_DATABASE_URL host '${host}' is not loopback`);
  }

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-bench-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    JWT_SECRET: crypto.randomBytes(32).toString('hex'),
    SESSION_KEY: crypto.randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
    WEB_DIST: path.join(dataDir, 'no-web'),
    HOST: '127.0.0.1',
  });
  const secrets = loadSecrets(config);

  const database = await openDatabase({ url: url.toString() });
  cleanups.push(() => database.close());
  await database.migrate();
  await seedPlans(database.db);
  const appPool = (database.db as unknown as { $client?: unknown }).$client;

  const ref = new pg.Pool({ connectionString: url.toString(), max: APP_POOL_MAX });
  ref.on('error', () => {});
  cleanups.push(() => ref.end());

  const app = await buildApp({ config, database, secrets, logger: false });
  cleanups.push(() => app.close());
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;

  const companyId = await createCompany(app, {
    plan: { users: params.agents + 1, connections: 1, queues: 1 },
  });
  const owner = await createUser(app, companyId, { profile: 'admin', name: 'Bench admin' });
  const agents: TestUser[] = [];
  for (let i = 0; i < params.agents; i++) {
    // Admins join the company's admins room, which receives every ticket's events.
    agents.push(await createUser(app, companyId, { profile: 'admin', name: `Agent ${i + 1}` }));
  }
  const whatsappId = await createSimulatorConnection(app, owner, 'Bench simulator');
  const driver = app.sessions.get(whatsappId);
  if (!(driver instanceof SimulatorDriver)) throw new Error('the simulator session did not start');

  const bench: Bench = {
    app,
    database,
    appPool: appPool instanceof pg.Pool ? appPool : undefined,
    ref,
    companyId,
    whatsappId,
    driver,
    sockets: [],
    onMessage: () => {},
    pipelineStats: () => app.pipeline.stats,
  };
  const channel = companyChannel(companyId, 'appMessage');
  cleanups.push(() => {
    for (const socket of bench.sockets) socket.disconnect();
  });
  await Promise.all(
    agents.map(
      (agent) =>
        new Promise<void>((resolve, reject) => {
          const socket = connect(`http://127.0.0.1:${port}`, {
            query: { token: agent.token },
            transports: ['websocket'],
            reconnection: false,
            forceNew: true,
          });
          bench.sockets.push(socket);
          const timer = setTimeout(() => reject(new Error('socket not ready within 10 s')), 10_000);
          socket.on('connect_error', (error) => {
            clearTimeout(timer);
            reject(error);
          });
          socket.on('ready', () => {
            clearTimeout(timer);
            resolve();
          });
          socket.on(channel, (payload: { action?: string; message?: { body?: unknown } }) => {
            if (payload.action === 'create' && typeof payload.message?.body === 'string') {
              bench.onMessage(payload.message.body);
            }
          });
        }),
    ),
  );
  return bench;
}

// ---------------------------------------------------------------------------------------------
// Phases

interface PipelineResult {
  concurrency: number;
  messages: number;
  seconds: number;
  perSecond: number;
  latency: Distribution;
  /** receive() call to its resolution: the pipeline's own time (store, commit, emit). */
  ingest: Distribution;
  queriesPerMessage: number;
  queryMsPerMessage: number;
  probe: Probe;
  /** Mean messages per group-commit batch in the round. */
  perBatch: number;
}

type Probe = Awaited<ReturnType<Awaited<ReturnType<typeof startProbe>>>>;

let roundSeq = 0;

/** Sends customers × messages through the simulator driver with `concurrency` in flight. */
async function pipelinePhase(
  bench: Bench,
  customers: number,
  messages: number,
  agents: number,
  concurrency: number,
): Promise<PipelineResult> {
  const round = ++roundSeq;
  const total = customers * messages;
  const entries = new Map<string, { start: number; seen: number }>();
  const latencies: number[] = [];
  const ingests: number[] = [];
  let delivered = 0;
  let lastDelivery = 0;
  let resolveDone: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    resolveDone = resolve;
  });
  bench.onMessage = (body) => {
    const entry = entries.get(body);
    if (!entry) return;
    entry.seen++;
    if (entry.seen === agents) {
      lastDelivery = performance.now();
      latencies.push(lastDelivery - entry.start);
      entries.delete(body);
      if (++delivered === total) resolveDone();
    }
  };

  // Each customer's messages go in order; up to `concurrency` customers have one in flight.
  const queue = Array.from({ length: customers }, (_, i) => ({
    number: `55${String(round).padStart(3, '0')}${String(i).padStart(7, '0')}`,
    name: `Customer ${round}-${i}`,
    next: 0,
  }));
  const salt = crypto.randomBytes(4).toString('hex');
  const worker = async () => {
    for (let customer = queue.shift(); customer; customer = queue.shift()) {
      const body = `bench ${round}:${customer.number}:${customer.next} ${salt}`;
      const entry = { start: performance.now(), seen: 0 };
      entries.set(body, entry);
      await bench.driver.receive({ from: customer.number, name: customer.name, body });
      ingests.push(performance.now() - entry.start);
      if (++customer.next < messages) queue.push(customer);
    }
  };

  const batches0 = { ...bench.pipelineStats() };
  queryStats.count = 0;
  queryStats.ms = 0;
  queryStats.active = true;
  const probe = await startProbe(bench.ref, bench.appPool);
  const started = performance.now();
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, customers) }, worker));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      done,
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`only ${delivered}/${total} messages reached every agent socket`)),
          DELIVERY_WAIT_MS,
        );
      }),
    ]).finally(() => clearTimeout(timer));
  } finally {
    queryStats.active = false;
    bench.onMessage = () => {};
  }
  const measured = await probe(total);
  const seconds = (lastDelivery - started) / 1000;
  return {
    concurrency,
    messages: total,
    seconds,
    perSecond: total / seconds,
    latency: distribution(latencies),
    ingest: distribution(ingests),
    queriesPerMessage: queryStats.count / total,
    queryMsPerMessage: queryStats.ms / total,
    probe: measured,
    perBatch:
      (bench.pipelineStats().messages - batches0.messages) /
      Math.max(1, bench.pipelineStats().batches - batches0.batches),
  };
}

interface InsertResult {
  concurrency: number;
  rows: number;
  seconds: number;
  perSecond: number;
  latency: Distribution;
  probe: Probe;
}

/** `count` single-row INSERTs (autocommit) with `concurrency` in flight, through a pg pool. */
async function insertPhase(bench: Bench, count: number, concurrency: number): Promise<InsertResult> {
  const latencies: number[] = [];
  let issued = 0;
  const worker = async () => {
    while (issued < count) {
      const n = issued++;
      const start = performance.now();
      await bench.ref.query('insert into bench_insert (body) values ($1)', [`bench insert ${n}`]);
      latencies.push(performance.now() - start);
    }
  };
  const probe = await startProbe(bench.ref, undefined);
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  return {
    concurrency,
    rows: count,
    seconds,
    perSecond: count / seconds,
    latency: distribution(latencies),
    probe: await probe(count),
  };
}

// ---------------------------------------------------------------------------------------------
// Report

interface Environment {
  date: string;
  nproc: string;
  cpuModel: string;
  memoryGiB: string;
  node: string;
  postgres: string;
  settings: Record<string, string>;
  /** The machine's load average at the start and at the end of the run. */
  loadStart: string;
  loadEnd?: string;
}

async function environment(bench: Bench): Promise<Environment> {
  let nproc: string;
  try {
    nproc = execFileSync('nproc', { encoding: 'utf8' }).trim();
  } catch {
    nproc = String(os.availableParallelism());
  }
  const { rows } = await bench.ref.query<{ version: string }>('select version()');
  const settings: Record<string, string> = {};
  for (const name of [
    'synchronous_commit',
    'fsync',
    'wal_sync_method',
    'shared_buffers',
    'max_connections',
  ]) {
    const result = await bench.ref.query<{ setting: string }>('select current_setting($1) as setting', [
      name,
    ]);
    settings[name] = result.rows[0]?.setting ?? '?';
  }
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    nproc,
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: (os.totalmem() / 1024 ** 3).toFixed(1),
    node: process.version,
    postgres: rows[0]?.version ?? 'unknown',
    settings,
    loadStart: loadAverage(),
  };
}

/** The 1, 5 and 15 minute load averages, e.g. `3.10 / 2.50 / 1.20`. */
function loadAverage(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
}

interface Round {
  pipeline: PipelineResult;
  insert: InsertResult;
}

function tableOf(rounds: Round[], best: Round): string[] {
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

function costTableOf(rounds: Round[]): string[] {
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
function historyOf(previous: string | undefined): string[] {
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

function sectionOf(
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
    '```sh',
    'npx tsx --conditions=source bench/ingest/run.ts [--customers 200] [--messages 10] [--agents 5] \\',
    '  [--concurrency 8,16,32,64] [--timeout 300] [--no-write]',
    '# BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test (the default) names the Postgres server',
    '```',
    '',
    `Last run: ${env.date}; \`nproc\` ${env.nproc} (${env.cpuModel}), ${env.memoryGiB} GiB memory, Node ${env.node}; ` +
      `${env.postgres}.`,
    `Postgres settings as found (not changed): ${Object.entries(env.settings)
      .map(([k, v]) => `\`${k}=${v}\``)
      .join(', ')}.`,
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

/** The current text of this bench's section of docs/benchmarks.md, if any. */
function currentSection(): string | undefined {
  if (!fs.existsSync(DOC)) return undefined;
  const lines = fs.readFileSync(DOC, 'utf8').split('\n');
  const start = lines.findIndex((l) => l.trim() === `## ${SECTION}`);
  if (start < 0) return undefined;
  let end = lines.findIndex((l, i) => i > start && /^##\s/.test(l));
  if (end < 0) end = lines.length;
  return lines.slice(start, end).join('\n');
}

const INTRO = [
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

// ---------------------------------------------------------------------------------------------
// Main

async function main(): Promise<void> {
  const params = parseParams();
  const hardTimeout = setTimeout(
    () => void fail(`hard timeout of ${params.timeoutSeconds} s reached`),
    params.timeoutSeconds * 1000,
  );
  hardTimeout.unref();
  process.once('SIGINT', () => void fail('interrupted'));
  process.once('SIGTERM', () => void fail('terminated'));
  process.on('unhandledRejection', (reason) => void fail(reason));

  console.log(
    `ingest benchmark: ${params.customers} customers × ${params.messages} messages, ${params.agents} agents, ` +
      `C = ${params.concurrency.join(', ')}`,
  );
  const bench = await setup(params);
  const env = await environment(bench);
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
  const section = sectionOf(params, env, rounds, best, historyOf(currentSection()));
  console.log('');
  console.log(tableOf(rounds, best).join('\n'));
  console.log('');
  console.log(costTableOf(rounds).join('\n'));
  console.log('');
  console.log(
    `load average at start ${env.loadStart}, at end ${env.loadEnd}; machine: nproc ${env.nproc}, ${env.memoryGiB} GiB, Node ${env.node}; ${env.postgres}; ` +
      Object.entries(env.settings)
        .map(([k, v]) => `${k}=${v}`)
        .join(' '),
  );
  if (params.write) {
    writeSection(DOC, `## ${SECTION}`, section, INTRO);
    console.log(`wrote the '${SECTION}' section of ${path.relative(process.cwd(), DOC)}`);
  }
  clearTimeout(hardTimeout);
  await cleanup();
}

main().then(
  () => process.exit(0),
  (error: unknown) => fail(error),
);
