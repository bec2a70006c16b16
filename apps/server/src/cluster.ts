/**
 * Several server processes on one machine (`WORKERS` > 1, docs/operations.md "Worker processes").
 * The primary process prepares the database (migrations, seed, secrets) once, then forks the workers,
 * which share the listening port (node:cluster hands each new connection to one of them) and behave
 * as separate nodes: each has its own node id, its own pools and caches, and they meet through
 * Postgres (jobs, session leases, cache NOTIFY) and Redis (realtime fan-out, login limits).
 */
import cluster, { type Worker } from 'node:cluster';
import type { Config } from './config.js';

/** The environment variable that tells a forked process which worker it is (0-based). */
export const WORKER_INDEX_ENV = 'ZAPDESK_WORKER_INDEX';
/** First wait before replacing a worker that died, ms; doubles while it keeps dying quickly. */
export const RESTART_DELAY_MS = 500;
/** Longest wait before replacing a worker, ms. */
export const RESTART_DELAY_MAX_MS = 30_000;
/** A worker that lived at least this long resets its restart delay, ms. */
export const HEALTHY_AFTER_MS = 60_000;

/**
 * Why `config` cannot run `WORKERS` processes; empty when it can (always for one worker).
 * The embedded database belongs to one process, and without Redis a socket on one worker would miss
 * the events emitted by another.
 */
export function clusterProblems(config: Pick<Config, 'WORKERS' | 'DATABASE_URL' | 'REDIS_URL'>): string[] {
  if (config.WORKERS <= 1) return [];
  const problems: string[] = [];
  if (!config.DATABASE_URL) {
    problems.push('WORKERS > 1 needs DATABASE_URL: the embedded database (PGlite) belongs to one process');
  }
  if (!config.REDIS_URL) {
    problems.push(
      'WORKERS > 1 needs REDIS_URL: realtime events and login limits reach every worker through Redis',
    );
  }
  return problems;
}

/**
 * The node id of worker `index`: the machine's node id with `-w<index>`. It stays the same when the
 * worker is replaced, so the new process reclaims the dead one's jobs and session leases at once.
 */
export function workerNodeId(nodeId: string, index: number): string {
  return `${nodeId}-w${index}`;
}

/** The worker index of this process (from WORKER_INDEX_ENV), or null in the primary or a single process. */
export function workerIndex(env: NodeJS.ProcessEnv = process.env): number | null {
  if (!cluster.isWorker) return null;
  const index = Number(env[WORKER_INDEX_ENV]);
  return Number.isInteger(index) && index >= 0 ? index : null;
}

interface SuperviseOptions {
  workers: number;
  nodeId: string;
  /** Where the primary reports worker starts, deaths and the shutdown. */
  log: (line: string) => void;
}

/**
 * Primary process: forks `workers` processes running the same entry script with WORKER_INDEX_ENV
 * and NODE_ID set, replaces a worker that exits on its own (after RESTART_DELAY_MS, doubling up to
 * RESTART_DELAY_MAX_MS while it keeps dying within HEALTHY_AFTER_MS), and on SIGINT or SIGTERM asks
 * every worker to shut down gracefully, exiting once they all have. Returns a promise that settles
 * when the last worker is gone after a shutdown.
 */
export function superviseWorkers(options: SuperviseOptions): Promise<void> {
  const { workers, nodeId, log } = options;
  let stopping = false;
  const live = new Map<number, { worker: Worker; startedAt: number }>();
  const delays = new Map<number, number>();
  let resolveDone: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    resolveDone = resolve;
  });

  const start = (index: number) => {
    const worker = cluster.fork({ [WORKER_INDEX_ENV]: String(index), NODE_ID: workerNodeId(nodeId, index) });
    live.set(index, { worker, startedAt: Date.now() });
    worker.on('exit', (code, signal) => {
      const entry = live.get(index);
      if (entry?.worker === worker) live.delete(index);
      if (stopping) {
        if (live.size === 0) resolveDone();
        return;
      }
      const lived = Date.now() - (entry?.startedAt ?? Date.now());
      const delay =
        lived >= HEALTHY_AFTER_MS
          ? RESTART_DELAY_MS
          : Math.min(RESTART_DELAY_MAX_MS, (delays.get(index) ?? RESTART_DELAY_MS / 2) * 2);
      delays.set(index, delay);
      log(
        `worker ${index} (pid ${worker.process.pid}) exited (${signal ?? code}); starting it again in ${delay} ms`,
      );
      setTimeout(() => {
        if (!stopping) start(index);
      }, delay).unref();
    });
  };

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping ${live.size} workers`);
    if (live.size === 0) resolveDone();
    for (const { worker } of live.values()) worker.process.kill('SIGTERM');
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));

  for (let index = 0; index < workers; index++) start(index);
  log(`started ${workers} workers`);
  return done;
}
