/** Command-line helpers shared by the benchmarks: numeric options, backends and the run wrapper. */
import { parseArgs } from 'node:util';
import type { BenchBackend } from './database.js';

/** The Postgres server of the benchmarks: BENCH_DATABASE_URL, or the local test server. */
export function databaseServer(): string {
  return process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
}

/**
 * `text` as an integer from `min` to `max`; throws `--name takes an integer from min to max, got
 * 'text'` otherwise.
 */
export function intOption(name: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(`--${name} takes an integer from ${min} to ${max}, got '${text}'`);
  }
  return n;
}

/** `text` as an integer from `min` to `max`; throws the short `--name: min..max` otherwise. */
export function countOption(name: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name}: ${min}..${max}`);
  return n;
}

/** A comma-separated list of database backends (`pglite`, `postgres`); throws on any other name. */
export function backendsOption(text: string): BenchBackend[] {
  return text
    .split(',')
    .map((b) => b.trim())
    .map((backend) => {
      if (backend !== 'pglite' && backend !== 'postgres') throw new Error(`unknown backend ${backend}`);
      return backend;
    });
}

/** Throws unless the Postgres URL `url` points to loopback (the benchmarks load the server hard). */
export function assertLoopback(url: string): void {
  const { hostname } = new URL(url);
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(hostname) && hostname !== '') {
    throw new Error(`BENCH_DATABASE_URL must point to loopback, not '${hostname}'`);
  }
}

/**
 * Runs a benchmark's `main`, then `teardown` when given, and exits: with `process.exitCode` (0 when
 * unset) once they resolve, with 1 after printing the error when one rejects (or with `onError`'s own
 * handling when given).
 */
export function runBench(
  main: () => Promise<void>,
  onError?: (error: unknown) => Promise<never>,
  teardown?: () => Promise<void>,
): void {
  main()
    .then(() => teardown?.())
    .then(
      () => process.exit(process.exitCode ?? 0),
      (error: unknown) => {
        if (onError) return onError(error);
        console.error(error);
        process.exit(1);
      },
    );
}

/**
 * Guards a long benchmark run: after `timeoutSeconds` (the timer does not keep the process alive), on
 * SIGINT/SIGTERM or on an unhandled rejection it calls `abort` with the reason.
 */
export function guardRun(timeoutSeconds: number, abort: (reason: unknown) => Promise<never>): void {
  const deadline = setTimeout(
    () => void abort(`hard timeout of ${timeoutSeconds} s reached`),
    timeoutSeconds * 1000,
  );
  deadline.unref();
  process.once('SIGINT', () => void abort('interrupted'));
  process.once('SIGTERM', () => void abort('terminated'));
  process.on('unhandledRejection', (reason) => void abort(reason));
}

/**
 * Parses the command line: `strings` are the string options with their defaults, `flags` the
 * boolean ones (default false). Throws on an unknown option, as `parseArgs` does.
 */
export function benchArgs<S extends string, B extends string = never>(
  strings: Record<S, string>,
  flags: readonly B[] = [],
): Record<S, string> & Record<B, boolean> {
  const options: Record<string, { type: 'string'; default: string } | { type: 'boolean'; default: boolean }> =
    {};
  for (const [name, value] of Object.entries<string>(strings))
    options[name] = { type: 'string', default: value };
  for (const name of flags) options[name] = { type: 'boolean', default: false };
  return parseArgs({ options }).values as Record<S, string> & Record<B, boolean>;
}

/**
 * Runs `run` on each backend of the comma-separated `backends` in turn, printing `line` of each
 * result; resolves with the results in order.
 */
export async function runPerBackend<R>(
  backends: string,
  run: (backend: BenchBackend) => Promise<R>,
  line: (backend: BenchBackend, result: R) => string,
): Promise<R[]> {
  const results: R[] = [];
  for (const backend of backendsOption(backends)) {
    const result = await run(backend);
    console.log(line(backend, result));
    results.push(result);
  }
  return results;
}
