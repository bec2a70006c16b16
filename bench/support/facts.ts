/** Machine and database facts a benchmark's report starts with. */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import type pg from 'pg';

/** The Postgres settings the plan-reading benchmarks report (bench/api, bench/dashboard). */
export const PLANNER_SETTINGS = [
  'shared_buffers',
  'work_mem',
  'effective_cache_size',
  'random_page_cost',
  'jit',
];

/** Now as an ISO date to the second, e.g. `2026-11-27T03:00:00Z`. */
export const isoNow = (): string => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

/** The first CPU's model name, or `fallback`. */
export const cpuModel = (fallback = 'unknown'): string => os.cpus()[0]?.model.trim() ?? fallback;

export interface Facts {
  date: string;
  /** `nproc`'s answer (the usable cores), or Node's available parallelism. */
  nproc: string;
  cpu: string;
  memoryGiB: string;
  node: string;
  /** `select version()` of the database server. */
  postgres: string;
  /** The settings asked for, as found: `[name, value]`. */
  settings: [string, string][];
}

/** The run's date, the machine, Node, and the Postgres version and `settings` seen through `ref`. */
export async function machineFacts(
  ref: pg.Pool,
  settings: string[],
  unknownCpu = 'unknown CPU',
): Promise<Facts> {
  let nproc = String(os.availableParallelism());
  try {
    nproc = execFileSync('nproc', { encoding: 'utf8' }).trim();
  } catch {
    /* not on this machine */
  }
  const version = (await ref.query<{ v: string }>('select version() as v')).rows[0]!.v;
  const found: [string, string][] = [];
  for (const name of settings) {
    const { rows } = await ref.query<{ v: string }>('select current_setting($1) as v', [name]);
    found.push([name, rows[0]?.v ?? '?']);
  }
  return {
    date: isoNow(),
    nproc,
    cpu: cpuModel(unknownCpu),
    memoryGiB: (os.totalmem() / 1024 ** 3).toFixed(1),
    node: process.version,
    postgres: version,
    settings: found,
  };
}

/** The 1, 5 and 15 minute load averages, e.g. `3.10 / 2.50 / 1.20`. */
export function loadAverage(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
}

/** `Last run: <date>; \`nproc\` N (<cpu>), Node <version>` of the small benchmarks' sections. */
export const lastRunLine = (): string =>
  `Last run: ${isoNow()}; \`nproc\` ${os.availableParallelism()} (${cpuModel()}), Node ${process.version}`;
