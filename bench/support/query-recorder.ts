import pg from 'pg';

/** A query the app sent through its pg.Pool: text, values and duration (ms, NaN until it ends). */
export interface RecordedQuery {
  text: string;
  values: unknown[];
  ms: number;
}

/**
 * Records the app's queries while `on` is true, by wrapping `pg.Pool.prototype.query` once per
 * process (the app's Drizzle client queries through a pg.Pool).
 */
export const recorder = { on: false, queries: [] as RecordedQuery[] };

let installed = false;

/** Installs the recording wrapper (idempotent). */
export function installQueryRecorder(): void {
  if (installed) return;
  installed = true;
  type PoolQuery = (this: pg.Pool, ...args: unknown[]) => unknown;
  const original = pg.Pool.prototype.query as unknown as PoolQuery;
  const recording: PoolQuery = function (this: pg.Pool, ...args: unknown[]) {
    const result = original.apply(this, args);
    if (recorder.on && result instanceof Promise) {
      const first = args[0] as string | { text?: string; values?: unknown[] };
      const values = Array.isArray(args[1]) || typeof first === 'string' ? args[1] : first.values;
      const entry: RecordedQuery = {
        text: typeof first === 'string' ? first : (first.text ?? ''),
        values: Array.isArray(values) ? values : [],
        ms: Number.NaN,
      };
      recorder.queries.push(entry);
      const started = performance.now();
      result.then(
        () => {
          entry.ms = performance.now() - started;
        },
        () => {},
      );
    }
    return result;
  };
  pg.Pool.prototype.query = recording as unknown as typeof pg.Pool.prototype.query;
}

/**
 * Runs `run` with the recorder on and returns its result with the queries recorded meanwhile (the
 * recorder is emptied again); queries still running at the end keep a NaN duration.
 */
export async function recordDuring<T>(
  run: () => Promise<T>,
): Promise<{ result: T; queries: RecordedQuery[] }> {
  recorder.queries = [];
  recorder.on = true;
  let result: T;
  try {
    result = await run();
  } finally {
    recorder.on = false;
  }
  await new Promise((resolve) => setImmediate(resolve));
  const queries = recorder.queries;
  recorder.queries = [];
  return { result, queries };
}
