import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema/index.js';

/** The Drizzle database type used everywhere; PGlite and `pg` expose the same query API. */
export type Database = NodePgDatabase<typeof schema>;
/** A database or an open transaction. */
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0] | Database;

/** Runs raw SQL text with positional parameters ($1…); several statements only without parameters. */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Raw SQL outside Drizzle (the job queue's own statements). */
  executor: SqlExecutor;
  /** Applies the drizzle-kit migrations in apps/server/drizzle. */
  migrate(): Promise<void>;
  /** Resolves when the database answers `select 1`; rejects otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

/**
 * Opens the database: a Postgres server through `pg` when `url` is given, otherwise PGlite stored in
 * `dataDir` (or in memory when `dataDir` is 'memory://').
 */
export async function openDatabase(options: { url?: string; dataDir?: string }): Promise<DatabaseHandle> {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    pool.on('error', () => {
      /* idle client errors are reported by the next query */
    });
    const db = drizzlePg(pool, { schema, casing: 'snake_case' });
    return {
      db,
      kind: 'postgres',
      executor: { executeSql: (text, values) => pool.query(text, values) },
      migrate: () => migratePg(db, { migrationsFolder: MIGRATIONS_DIR }),
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      close: async () => {
        if (!pool.ended) await pool.end();
      },
    };
  }
  const dir = options.dataDir ?? 'memory://';
  if (!dir.startsWith('memory://')) fs.mkdirSync(dir, { recursive: true });
  // pg_trgm backs the substring searches (contact name and number, message bodies).
  const client = await PGlite.create(dir, { extensions: { pg_trgm } });
  const db = drizzlePglite(client, { schema, casing: 'snake_case' }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    executor: {
      // PGlite prepares parameterised text (one statement); scripts without parameters go through exec.
      executeSql: async (text, values) => {
        if (values?.length) return client.query<Record<string, unknown>>(text, values);
        const results = await client.exec(text);
        return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
      },
    },
    migrate: () => migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR }),
    ping: async () => {
      if (client.closed) throw new Error('database closed');
      await client.query('select 1');
    },
    close: async () => {
      if (!client.closed) await client.close();
    },
  };
}

/**
 * The raw executor of an open Drizzle transaction, so that work recorded outside Drizzle (a job)
 * commits or rolls back with it. Both drivers keep their transaction client at `session.client`
 * (a `pg` PoolClient or a PGlite Transaction), and both answer `query(text, values)`.
 */
export function transactionExecutor(tx: Tx): SqlExecutor {
  const client = (tx as unknown as { session: { client: { query: SqlExecutor['executeSql'] } } }).session
    .client;
  return { executeSql: (text, values) => client.query(text, values) };
}
