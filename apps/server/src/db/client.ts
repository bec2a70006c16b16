import crypto from 'node:crypto';
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
  /**
   * For named prepared statements only (the ticket list): on Postgres a small pool of its own whose
   * sessions keep one generic plan per statement (`plan_cache_mode=force_generic_plan`; on the main
   * pool that setting would also apply to every unnamed parameterised statement); `db` on PGlite.
   */
  preparedDb: Database;
  /**
   * Runs the named prepared statement `name` (text with $1… placeholders; one name per text) on the
   * prepared pool (see `preparedDb`) and answers its rows as arrays of column values in select order,
   * with `timestamptz` values left as Postgres's text (as Drizzle reads them, for `new Date(text)`).
   * For the hot lists whose SQL text is built once; PGlite prepares every statement anyway.
   */
  preparedRows(name: string, text: string, values: unknown[]): Promise<unknown[][]>;
  kind: 'pglite' | 'postgres';
  /** Raw SQL outside Drizzle (the job queue's own statements). */
  executor: SqlExecutor;
  /** Applies the drizzle-kit migrations in apps/server/drizzle. */
  migrate(): Promise<void>;
  /**
   * PGlite only: the whole data folder as an uncompressed tar, for `openDatabase({ loadDataDir })`
   * (the test runs start every test database from one migrated copy).
   */
  dumpDataDir?(): Promise<Blob>;
  /** Resolves when the database answers `select 1`; rejects otherwise. */
  ping(): Promise<void>;
  /**
   * LISTENs to `channels` (one or several; NOTIFY from any node's transactions, delivered after their
   * commit) on one connection of its own; `onNotify(payload, channel)` for each notification,
   * `onState(true)` once listening, `onState(false)` whenever the connection is lost (notifications
   * may then be missed; it reconnects after a second). Resolves with a stop function once the first
   * LISTEN succeeded or failed. A node listens once, through its NotifyListener (lib/notify-listener.ts).
   */
  listen(
    channels: string | readonly string[],
    onNotify: (payload: string, channel: string) => void,
    onState: (listening: boolean) => void,
  ): Promise<() => Promise<void>>;
  /**
   * Registers `onWrite(text)`, called synchronously when this process sends a statement through the
   * app's connections (before it runs), so that process-local caches can stop trusting themselves
   * at once. Returns the unregister function.
   */
  onStatement(onWrite: (text: string) => void): () => void;
  close(): Promise<void>;
}

/** Named statements one connection keeps at most; texts beyond run unnamed, as before. */
const NAMED_PER_CONNECTION = 400;

/**
 * Makes `client` send each parameterised statement as a named one (its name a hash of its text), so
 * that the connection parses it once and Postgres plans it once it has a generic plan as cheap as
 * the custom ones, instead of parsing and planning it at every call: parse and bind (planning) were
 * 55 % of the Postgres time of the flows benchmark (decision 0138). Up to NAMED_PER_CONNECTION texts
 * per connection; statements without values (transaction control, scripts) go as they are.
 */
function nameStatements(client: pg.PoolClient): void {
  const named = new Set<string>();
  const query = client.query;
  client.query = function (this: unknown, config: unknown, values?: unknown, ...rest: unknown[]) {
    const text = typeof config === 'string' ? config : (config as pg.QueryConfig | null)?.text;
    const params = Array.isArray(values) ? values : (config as pg.QueryConfig | null)?.values;
    if (
      typeof text === 'string' &&
      params?.length &&
      !(config as pg.QueryConfig).name &&
      (named.has(text) || named.size < NAMED_PER_CONNECTION)
    ) {
      // The name is the text's hash (a few µs), so one name always stands for one text; no map of
      // every text ever sent is kept.
      const name = `z${crypto.createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
      named.add(text);
      config = typeof config === 'string' ? { text, name } : { ...(config as pg.QueryConfig), name };
    }
    return (query as (...args: unknown[]) => unknown).call(this, config, values, ...rest);
  } as typeof client.query;
}

/** The statement observers of one database handle. */
function statementObservers() {
  const observers = new Set<(text: string) => void>();
  return {
    observers,
    add(fn: (text: string) => void) {
      observers.add(fn);
      return () => void observers.delete(fn);
    },
    notify(query: unknown) {
      if (observers.size === 0) return;
      const text = typeof query === 'string' ? query : (query as { text?: unknown } | null)?.text;
      if (typeof text === 'string') for (const fn of observers) fn(text);
    },
  };
}

/** LISTEN on `channels` over one dedicated `pg` client, reconnecting after a second when it drops. */
async function listenPg(
  url: string,
  channels: readonly string[],
  onNotify: (payload: string, channel: string) => void,
  onState: (listening: boolean) => void,
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url });
    client = c;
    const lost = () => {
      if (client !== c) return;
      client = undefined;
      onState(false);
      c.end().catch(() => undefined);
      if (!stopped) retry = setTimeout(() => void connect().catch(() => undefined), 1000);
    };
    c.on('error', lost);
    c.on('end', lost);
    c.on('notification', (msg) => {
      if (channels.includes(msg.channel)) onNotify(msg.payload ?? '', msg.channel);
    });
    try {
      await c.connect();
      await c.query(channels.map((channel) => `listen ${pg.escapeIdentifier(channel)}`).join('; '));
      if (client === c && !stopped) onState(true);
    } catch {
      lost();
    }
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const c = client;
    client = undefined;
    onState(false);
    await c?.end().catch(() => undefined);
  };
}

/** Postgres's type oid of `timestamptz`. */
const TIMESTAMPTZ_OID = 1184;
/** `pg` type parsers that leave `timestamptz` as its text. */
const RAW_TIMESTAMPTZ = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMPTZ_OID
      ? (value: string) => value
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');
/** The advisory lock (a bigint) held while a node applies migrations on a Postgres server. */
const MIGRATION_LOCK_KEY = '7270617064657301';

/** The `when` (ms) of the newest migration of this build (drizzle-kit's journal), read once. */
let newestMigration: number | undefined;

/**
 * Whether every migration of this build is applied to the database (drizzle's
 * `drizzle.__drizzle_migrations` holds the newest one); false when none is. For readiness.
 */
export async function migrationsApplied(database: DatabaseHandle): Promise<boolean> {
  if (newestMigration === undefined) {
    const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
      entries: { when: number }[];
    };
    newestMigration = Math.max(0, ...journal.entries.map((entry) => entry.when));
  }
  const exists = await database.executor.executeSql(
    "select to_regclass('drizzle.__drizzle_migrations') is not null as present",
  );
  if (!exists.rows[0]?.present) return false;
  const { rows } = await database.executor.executeSql(
    'select coalesce(max(created_at), 0)::text as newest from drizzle.__drizzle_migrations',
  );
  return Number(rows[0]?.newest ?? 0) >= newestMigration;
}

/**
 * Opens the database: a Postgres server through `pg` when `url` is given, otherwise PGlite stored in
 * `dataDir` (or in memory when `dataDir` is 'memory://'), started from `loadDataDir` (a data folder
 * as PGlite's `dumpDataDir` writes it, a tar) when given instead of a new, empty cluster.
 */
export async function openDatabase(options: {
  url?: string;
  dataDir?: string;
  loadDataDir?: Blob;
}): Promise<DatabaseHandle> {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    pool.on('error', () => {
      /* idle client errors are reported by the next query */
    });
    const statements = statementObservers();
    // Every statement of the app's connections (Drizzle, raw executors, transactions) is shown to the
    // observers before it is sent.
    const observe = <T extends { query: (...args: never[]) => unknown }>(target: T) => {
      const query = target.query;
      target.query = function (this: unknown, ...args: never[]) {
        statements.notify(args[0]);
        return query.apply(this, args);
      } as T['query'];
    };
    pool.on('connect', (client) => {
      nameStatements(client);
      observe(client);
    });
    const db = drizzlePg(pool, { schema, casing: 'snake_case' });
    const preparedPool = new pg.Pool({
      connectionString: options.url,
      max: 4,
      options: '-c plan_cache_mode=force_generic_plan',
    });
    preparedPool.on('error', () => {});
    return {
      db,
      preparedDb: drizzlePg(preparedPool, { schema, casing: 'snake_case' }),
      preparedRows: async (name, text, values) =>
        (
          await preparedPool.query<unknown[]>({
            name,
            text,
            values,
            rowMode: 'array',
            types: RAW_TIMESTAMPTZ,
          })
        ).rows,
      kind: 'postgres',
      listen: (channels, onNotify, onState) =>
        listenPg(options.url!, typeof channels === 'string' ? [channels] : channels, onNotify, onState),
      onStatement: (fn) => statements.add(fn),
      executor: { executeSql: (text, values) => pool.query(text, values) },
      // Several nodes starting at once: one applies the migrations, the others wait, then find none left.
      migrate: async () => {
        const lock = await pool.connect();
        try {
          await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
          await migratePg(db, { migrationsFolder: MIGRATIONS_DIR });
        } finally {
          await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
          lock.release();
        }
      },
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      close: async () => {
        if (!pool.ended) await pool.end();
        if (!preparedPool.ended) await preparedPool.end();
      },
    };
  }
  const dir = options.dataDir ?? 'memory://';
  if (!dir.startsWith('memory://')) fs.mkdirSync(dir, { recursive: true });
  // pg_trgm backs the substring searches (contact name and number, message bodies).
  const client = await PGlite.create(dir, { extensions: { pg_trgm }, loadDataDir: options.loadDataDir });
  const db = drizzlePglite(client, { schema, casing: 'snake_case' }) as unknown as Database;
  const statements = statementObservers();
  for (const method of ['query', 'exec'] as const) {
    const original = client[method].bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      statements.notify(args[0]);
      return original(...args);
    };
  }
  return {
    db,
    preparedDb: db,
    preparedRows: async (_name, text, values) =>
      (
        await client.query<unknown[]>(text, values, {
          rowMode: 'array',
          parsers: { [TIMESTAMPTZ_OID]: (value: string) => value },
        })
      ).rows,
    kind: 'pglite',
    // One session: its own NOTIFYs are delivered when the notifying statement's answer is read.
    listen: async (channels, onNotify, onState) => {
      const stops: (() => Promise<void>)[] = [];
      for (const channel of typeof channels === 'string' ? [channels] : channels) {
        stops.push(await client.listen(channel, (payload) => onNotify(payload, channel)));
      }
      onState(true);
      return async () => {
        onState(false);
        if (client.closed) return;
        for (const stop of stops) await stop().catch(() => undefined);
      };
    },
    onStatement: (fn) => statements.add(fn),
    executor: {
      // PGlite prepares parameterised text (one statement); scripts without parameters go through exec.
      executeSql: async (text, values) => {
        if (values?.length) return client.query<Record<string, unknown>>(text, values);
        const results = await client.exec(text);
        return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
      },
    },
    migrate: () => migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR }),
    dumpDataDir: () => client.dumpDataDir('none'),
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
