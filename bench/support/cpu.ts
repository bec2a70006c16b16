import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import type pg from 'pg';

/** Busy and total CPU jiffies of the whole machine so far (Linux /proc/stat), or undefined. */
export function machineJiffies(): { busy: number; total: number } | undefined {
  try {
    const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.split(/\s+/).slice(1).map(Number);
    const total = cpu.reduce((a, b) => a + b, 0);
    return { busy: total - (cpu[3] ?? 0) - (cpu[4] ?? 0), total };
  } catch {
    return undefined;
  }
}

/**
 * The machine's busy share (0 to 1) between two machineJiffies readings, 0 when either is missing
 * (not Linux); a span of no jiffies counts as one, so that it never divides by zero.
 */
export function machineLoad(
  before: ReturnType<typeof machineJiffies>,
  after: ReturnType<typeof machineJiffies>,
): number {
  return before && after ? (after.busy - before.busy) / Math.max(1, after.total - before.total) : 0;
}

/**
 * CPU jiffies (user + system) used so far by each Postgres backend of the pool's database (Linux,
 * same machine), the asking connection excluded.
 */
export async function backendJiffies(pool: pg.Pool): Promise<Map<number, number>> {
  const { rows } = await pool.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  );
  const used = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      used.set(pid, Number(fields[11]) + Number(fields[12]));
    } catch {
      /* gone, or not on this machine */
    }
  }
  return used;
}

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 almost everywhere). */
const TICKS_PER_SECOND = 100;

/** CPU ms (user + system) used so far by the processes `pids` (Linux /proc); a gone one counts 0. */
export function processCpuMs(pids: number[]): number {
  let jiffies = 0;
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      jiffies += Number(fields[11]) + Number(fields[12]);
    } catch {
      /* gone */
    }
  }
  return (jiffies * 1000) / TICKS_PER_SECOND;
}

/** The pids whose parent is `pid` and whose command line contains `marker` (Linux /proc). */
export function childProcesses(pid: number, marker: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid && fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker)) {
        found.push(Number(entry));
      }
    } catch {
      /* gone meanwhile */
    }
  }
  return found;
}

let ticks: number | undefined;
/** Clock ticks per second of /proc times (`getconf CLK_TCK`, USER_HZ: 100 almost everywhere). */
export function clockTicks(): number {
  if (ticks === undefined) {
    try {
      ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticks = 100;
    }
  }
  return ticks;
}

/**
 * CPU ms the pool's database backends used since `before` (a `backendJiffies` reading); a backend
 * that started since counts from zero.
 */
export async function backendCpuMsSince(pool: pg.Pool, before: Map<number, number>): Promise<number> {
  return (jiffiesBetween(before, await backendJiffies(pool)) * 1000) / clockTicks();
}

/**
 * The jiffies the backends of `after` used since `before` (two `backendJiffies` readings, pid to
 * jiffies); a backend missing from `before` started since and counts from zero.
 */
export function jiffiesBetween(before: Map<number, number>, after: Map<number, number>): number {
  let jiffies = 0;
  for (const [pid, used] of after) jiffies += used - (before.get(pid) ?? 0);
  return jiffies;
}
