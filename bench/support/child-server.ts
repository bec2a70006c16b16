/**
 * The server in a child process, for the crash tests (bench/campaigns, bench/flows): the benchmark
 * script runs itself again with `--child` and the Node flags of this process (tsx's loader
 * included), handing its setup as JSON in an environment variable; the parent SIGKILLs it at a
 * chosen point and starts another on the same database.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { openDatabase } from '../../apps/server/src/db/client.js';
import { startApp } from './app.js';

const running = new Set<ChildProcess>();
// A parent that fails leaves no child running.
process.once('exit', () => {
  for (const proc of running) proc.kill('SIGKILL');
});

/**
 * Starts `script` (the caller's `import.meta.url`) again with `--child`, `setup` as JSON in the
 * environment variable `envName` and its output on this process's.
 */
export function spawnChild(script: string, envName: string, setup: unknown): ChildProcess {
  const proc = spawn(process.execPath, [...process.execArgv, fileURLToPath(script), '--child'], {
    env: { ...process.env, [envName]: JSON.stringify(setup) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  running.add(proc);
  proc.once('exit', () => running.delete(proc));
  return proc;
}

/** In the child: the setup its parent handed in `envName` (see `spawnChild`). */
export function childSetup<T>(envName: string): T {
  const text = process.env[envName];
  if (!text) throw new Error(`${envName} is not set: run with --child only from the benchmark itself`);
  return JSON.parse(text) as T;
}

/** Whether the child has exited. */
export const hasExited = (proc: ChildProcess): boolean => proc.exitCode !== null || proc.signalCode !== null;

/** Resolves with the child's exit code (null when a signal ended it) once it has exited. */
export function exitOf(proc: ChildProcess): Promise<number | null> {
  if (hasExited(proc)) return Promise.resolve(proc.exitCode);
  return new Promise((resolve) => proc.once('exit', (code) => resolve(code)));
}

/** SIGKILLs the child and resolves once it has exited. */
export async function killChild(proc: ChildProcess): Promise<void> {
  const exited = exitOf(proc);
  proc.kill('SIGKILL');
  await exited;
}

/** What a crash test's child is handed: the database and the app's environment. */
export interface ChildBase {
  url: string;
  env: Record<string, string>;
}

/**
 * In the child: opens the database its parent handed in `envName`, a one-connection pool on it and
 * the app (see `startApp`); runs `body` and closes all three, whatever happens.
 */
export async function inChild<S extends ChildBase>(
  envName: string,
  body: (s: S, app: FastifyInstance, ref: pg.Pool) => Promise<void>,
): Promise<void> {
  const s = childSetup<S>(envName);
  const database = await openDatabase({ url: s.url });
  const ref = new pg.Pool({ connectionString: s.url, max: 1 });
  const app = await startApp(database, s.env);
  try {
    await body(s, app, ref);
  } finally {
    await app.close();
    await ref.end();
    await database.close();
  }
}
