/**
 * A fresh database for one benchmark run: in-memory PGlite, or a new database created on the
 * Postgres server named by BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) and
 * dropped by `drop()`.
 */
import crypto from 'node:crypto';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from '../../apps/server/src/db/client.js';

export type BenchBackend = 'pglite' | 'postgres';

export interface BenchDatabase {
  database: DatabaseHandle;
  /** The new database's URL (Postgres only), for a second pool or a second process. */
  url?: string;
  /** Drops the database created on the server (no-op on PGlite). */
  drop(): Promise<void>;
}

/**
 * Runs `body` on a fresh Postgres database (`tag` as in openBenchDatabase) with `ref`, a
 * one-connection pool on it for the bench's own queries; afterwards ends the pool, closes the
 * database handle (if `body` has not) and drops the database. Answers what `body` answers.
 */
export async function withPostgresBench<T>(
  tag: string,
  body: (bench: BenchDatabase & { url: string }, ref: pg.Pool) => Promise<T>,
): Promise<T> {
  const bench = await openBenchDatabase('postgres', tag);
  const ref = new pg.Pool({ connectionString: bench.url, max: 1 });
  try {
    return await body({ ...bench, url: bench.url! }, ref);
  } finally {
    await ref.end();
    await bench.database.close();
    await bench.drop();
  }
}

/** Opens a fresh database; `tag` goes into the server-side name (`zapdesk_bench_<tag>_<hex>`). */
export async function openBenchDatabase(backend: BenchBackend, tag: string): Promise<BenchDatabase> {
  if (backend === 'pglite')
    return { database: await openDatabase({ dataDir: 'memory://' }), drop: async () => {} };
  const server = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const name = `zapdesk_bench_${tag}_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    database: await openDatabase({ url: url.toString() }),
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: server });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
