/**
 * The app under test for a benchmark: its configuration (fresh secrets, a temporary data dir, silent
 * logs), and a fresh, migrated database with the app built on it, in memory (PGlite) or on a
 * Postgres server.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.js';
import { type Config, loadConfig } from '../../apps/server/src/config.js';
import { type DatabaseHandle, openDatabase } from '../../apps/server/src/db/client.js';
import { seedPlans } from '../../apps/server/src/db/seed.js';
import { loadSecrets } from '../../apps/server/src/lib/secrets.js';
import { bearer, type TestUser } from '../../apps/server/src/test/factories.js';
import { type BenchBackend, openBenchDatabase } from './database.js';

/**
 * The test-mode configuration of a benchmark's app: data in `dataDir`, fresh JWT and session secrets,
 * silent logs, no web build; `env` adds or overrides variables (e.g. HOST, CLOUD_API_URL).
 */
export function benchConfig(dataDir: string, env: Record<string, string> = {}): Config {
  return loadConfig({ ...benchEnv(dataDir), ...env });
}

/** The environment `benchConfig` reads, as variables (for a child process running the app). */
export function benchEnv(dataDir: string): Record<string, string> {
  return {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    JWT_SECRET: crypto.randomBytes(32).toString('hex'),
    SESSION_KEY: crypto.randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
    WEB_DIST: path.join(dataDir, 'no-web'),
  };
}

/** Builds the app from the variables `env` on an open, migrated database and waits until it is ready. */
export async function startApp(
  database: DatabaseHandle,
  env: Record<string, string>,
): Promise<FastifyInstance> {
  const app = await buildBenchApp(loadConfig(env), database);
  await app.ready();
  return app;
}

/** A temporary data dir for one run (`zapdesk-bench-<tag>-…` under the OS temp dir). */
export function benchDataDir(tag: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `zapdesk-bench-${tag}-`));
}

/** Builds the app on an open, migrated database (secrets from `config`, logs off). */
export function buildBenchApp(config: Config, database: DatabaseHandle): Promise<FastifyInstance> {
  return buildApp({ config, database, secrets: loadSecrets(config), logger: false });
}

export interface BenchApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  config: Config;
  /** The database's URL (Postgres only). */
  url?: string;
  /** A small pool on the same database for the bench's own queries (Postgres only). */
  ref?: pg.Pool;
  /** Closes the app, the pools and the database, drops it and removes the data dir. */
  close(): Promise<void>;
}

/**
 * Opens a fresh database on `backend` (see `openBenchDatabase`), migrates it, seeds the plans and
 * builds the app on it, ready; `env` goes into the configuration. On failure everything opened so
 * far is released before the error is thrown.
 */
export async function openBenchApp(
  backend: BenchBackend,
  tag: string,
  env: Record<string, string> = {},
): Promise<BenchApp> {
  const dataDir = benchDataDir(tag);
  const { database, url, drop } = await openBenchDatabase(backend, tag);
  const ref = url ? new pg.Pool({ connectionString: url, max: 1 }) : undefined;
  let app: FastifyInstance | undefined;
  const close = async () => {
    try {
      // The app's connections (pools, queue workers, LISTEN) end before the drop, whose `with
      // (force)` would otherwise kill them under a live client.
      await app?.close().catch(() => undefined);
    } finally {
      await ref?.end();
      await database.close().catch(() => undefined);
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  };
  try {
    await database.migrate();
    await seedPlans(database.db);
    const config = benchConfig(dataDir, env);
    app = await buildBenchApp(config, database);
    await app.ready();
    return { app, database, config, url, ref, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Registers a release run at teardown (see `createTeardown`). */
export type OnTeardown = (name: string, run: () => unknown) => void;

export interface ServerBench {
  app: FastifyInstance;
  database: DatabaseHandle;
  config: Config;
  /** The new database's name and URL on the server. */
  name: string;
  url: string;
  /** A pool on the same database for the bench's own queries. */
  ref: pg.Pool;
}

/**
 * A fresh database `<prefix>_<hex>` on the Postgres server `serverUrl`, migrated and seeded with the
 * plans, a reference pool of `refMax` connections and the app built on it (HOST 127.0.0.1, not yet
 * listening). Every resource registers its release with `onTeardown`; the database is dropped
 * unless `keep` (then its name is printed). With `reuse` the database has that name instead: created
 * when missing, migrated, and never dropped (for a benchmark that seeds once and re-runs).
 */
export async function openServerBench(
  serverUrl: string,
  prefix: string,
  onTeardown: OnTeardown,
  {
    hexBytes = 5,
    refMax = 2,
    keep = false,
    tag = prefix,
    reuse,
  }: { hexBytes?: number; refMax?: number; keep?: boolean; tag?: string; reuse?: string } = {},
): Promise<ServerBench> {
  if (reuse !== undefined && !/^[a-z_][a-z0-9_]*$/.test(reuse))
    throw new Error(`bad database name: ${reuse}`);
  const name = reuse ?? `${prefix}_${crypto.randomBytes(hexBytes).toString('hex')}`;
  const maintenance = new pg.Client({ connectionString: serverUrl });
  await maintenance.connect();
  const exists = (await maintenance.query('select 1 from pg_database where datname = $1', [name])).rowCount;
  if (!exists) await maintenance.query(`create database ${name}`);
  await maintenance.end();
  onTeardown('drop database', async () => {
    if (keep || reuse !== undefined) {
      console.log(`kept the database ${name} (drop it with: dropdb -h 127.0.0.1 -U postgres ${name})`);
      return;
    }
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    try {
      await c.query(`drop database if exists ${name} with (force)`);
    } finally {
      await c.end();
    }
  });
  const dbUrl = new URL(serverUrl);
  dbUrl.pathname = `/${name}`;
  const url = dbUrl.toString();

  const dataDir = benchDataDir(tag);
  onTeardown('data dir', () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const config = benchConfig(dataDir, { HOST: '127.0.0.1' });
  const database = await openDatabase({ url });
  onTeardown('app database pool', () => database.close());
  await database.migrate();
  await seedPlans(database.db);
  const ref = new pg.Pool({ connectionString: url, max: refMax });
  ref.on('error', () => {});
  onTeardown('reference pool', () => ref.end());

  const app = await buildBenchApp(config, database);
  onTeardown('app', () => app.close());
  return { app, database, config, name, url, ref };
}

/** Creates a connection through the API as `admin`; resolves with its id; throws unless 201. */
export async function createConnection(
  app: FastifyInstance,
  admin: TestUser,
  payload: Record<string, unknown>,
): Promise<number> {
  const created = await app.inject({ method: 'POST', url: '/api/whatsapp', headers: bearer(admin), payload });
  if (created.statusCode !== 201) throw new Error(`connection: ${created.body}`);
  return created.json().id as number;
}

/** A customer's message into a simulator connection, through its inbound route; throws unless 201. */
export async function injectMessage(
  app: FastifyInstance,
  admin: TestUser,
  whatsappId: number,
  payload: { from: string; body: string; name?: string },
): Promise<void> {
  const res = await app.inject({
    method: 'POST',
    url: `/api/simulator/${whatsappId}/messages`,
    headers: bearer(admin),
    payload,
  });
  if (res.statusCode !== 201) throw new Error(`inject: ${res.body}`);
}

/** Runs the app's job workers until the queue is idle; resolves with the wall time (ms) and this process's CPU. */
export async function drainJobs(app: FastifyInstance): Promise<{ wallMs: number; cpu: NodeJS.CpuUsage }> {
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  await app.jobs.work();
  await app.jobs.idle();
  const wallMs = performance.now() - wall0;
  return { wallMs, cpu: process.cpuUsage(cpu0) };
}

/** A client on the database `url` for seeding, connected; it ends at teardown. */
export async function seedConnection(url: string, onTeardown: OnTeardown): Promise<pg.Client> {
  const sql = new pg.Client({ connectionString: url });
  await sql.connect();
  onTeardown('seed connection', () => sql.end());
  return sql;
}
