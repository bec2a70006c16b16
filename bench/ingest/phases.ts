/**
 * The ingest benchmark's phases: pipeline rounds (customers' messages through the simulator driver
 * until every agent socket has them) and raw INSERT rounds, each sampled by a probe (CPU of this
 * process, of Postgres and of the machine, event-loop delay, pool waiters, round trips).
 */
import crypto from 'node:crypto';
import os from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import pg from 'pg';
import { backendCpuMsSince, backendJiffies, machineJiffies } from '../support/cpu.js';
import { type Distribution, distribution } from '../support/stats.js';
import type { Bench } from './setup.js';

const DELIVERY_WAIT_MS = 30_000;

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

/**
 * Samples a phase: CPU of this process, of the benchmark database's Postgres backends and of the
 * whole machine, event-loop delay, and the waiters of the app's pool.
 */
export async function startProbe(ref: pg.Pool, pool: pg.Pool | undefined) {
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
    const pgMs = await backendCpuMsSince(ref, pg0);
    const nodeMs = (cpu.user + cpu.system) / 1000;
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

/** What one pipeline round measured. */
export interface PipelineResult {
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

/** What a probe measured over a phase. */
export type Probe = Awaited<ReturnType<Awaited<ReturnType<typeof startProbe>>>>;

let roundSeq = 0;

/** Sends customers × messages through the simulator driver with `concurrency` in flight. */
export async function pipelinePhase(
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

/** What one raw INSERT round measured. */
export interface InsertResult {
  concurrency: number;
  rows: number;
  seconds: number;
  perSecond: number;
  latency: Distribution;
  probe: Probe;
}

/** `count` single-row INSERTs (autocommit) with `concurrency` in flight, through a pg pool. */
export async function insertPhase(bench: Bench, count: number, concurrency: number): Promise<InsertResult> {
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
