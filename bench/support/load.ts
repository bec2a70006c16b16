/** Load probe and number formatting shared by the HTTP benchmarks (bench/api, bench/dashboard). */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { backendJiffies, clockTicks, jiffiesBetween, machineJiffies } from './cpu.js';

/** CPU shares of all cores during a measured phase (Linux /proc; NaN elsewhere). */
export interface Load {
  /** Share of all cores busy during the measurements. */
  machine: number;
  /** Shares of all cores used by the server's Node process(es) and by the database's Postgres backends. */
  node: number;
  postgres: number;
  /** The rest: other processes, Postgres background work, kernel. */
  other: number;
}

/**
 * Starts a load probe over a phase; the returned function ends it. The database's backends are
 * sampled every half second: the app's pool opens and closes connections during the phase, and a
 * backend's CPU counts from its first sample (from zero if it started during the phase) to its last.
 * `serverCpuMs` reads the server's CPU ms so far (default: this process).
 */
export async function startLoad(
  ref: pg.Pool,
  serverCpuMs: () => number = thisProcessCpuMs,
): Promise<() => Promise<Load>> {
  const machine0 = machineJiffies();
  const first = await backendJiffies(ref);
  const last = new Map(first);
  let sampling = Promise.resolve();
  const sample = () => {
    sampling = sampling
      .then(() => backendJiffies(ref))
      .then((now) => {
        for (const [pid, used] of now) last.set(pid, used);
      })
      .catch(() => {});
  };
  const timer = setInterval(sample, 500);
  const cpu0 = serverCpuMs();
  const wall0 = performance.now();
  return async () => {
    clearInterval(timer);
    sample();
    await sampling;
    const wallMs = performance.now() - wall0;
    const cpuMs = serverCpuMs() - cpu0;
    const machine1 = machineJiffies();
    const pgJiffies = jiffiesBetween(first, last);
    const coreMs = wallMs * os.availableParallelism();
    const node = cpuMs / coreMs;
    const postgres = (pgJiffies * 1000) / clockTicks() / coreMs;
    const machine =
      machine0 && machine1 && machine1.total > machine0.total
        ? (machine1.busy - machine0.busy) / (machine1.total - machine0.total)
        : Number.NaN;
    return { machine, node, postgres, other: Math.max(0, machine - node - postgres) };
  };
}

/** CPU ms (user + system) of this process so far. */
export function thisProcessCpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

/** Formats a share (0..1) as a whole percent; '-' when unknown. */
export const pct = (n: number) => (Number.isFinite(n) ? `${Math.round(n * 100)}%` : '-');
/** One line describing a phase's load, for the console and the benchmark docs. */
export const loadText = (load: Load) =>
  `machine ${pct(load.machine)} busy (of all cores): this Node process (server and load generator) ` +
  `${pct(load.node)}, the database's Postgres backends ${pct(load.postgres)}, other work ${pct(load.other)}`;
/** A number rounded with thousands separators, or with 1 or 2 decimals; '-' when unknown. */
export const f0 = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '-');
export const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '-');
export const f2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : '-');
