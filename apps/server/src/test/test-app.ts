import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../app.js';
import { type Config, loadConfig } from '../config.js';
import { type DatabaseHandle, openDatabase } from '../db/client.js';
import { seedPlans } from '../db/seed.js';
import { PGLITE_SNAPSHOT_VARIABLE } from './pglite-snapshot.js';

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  config: Config;
  close(): Promise<void>;
}

/**
 * A new, empty database (random `zapdesk_test_…` name) on the Postgres server of `serverUrl`: its
 * connection string, and `drop`, which removes it (closing what is still connected).
 */
export async function createServerDatabase(
  serverUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `zapdesk_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/**
 * A fresh database for one test file: in-memory PGlite by default, or a new database on the
 * Postgres server of TEST_DATABASE_URL (dropped on close).
 */
async function openTestDatabase(): Promise<{ database: DatabaseHandle; drop: () => Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    // The migrated cluster the test run's global setup dumped (see pglite-snapshot.ts): loading it
    // skips initdb and the migrations.
    const snapshot = process.env[PGLITE_SNAPSHOT_VARIABLE];
    const loadDataDir = snapshot ? new Blob([fs.readFileSync(snapshot)]) : undefined;
    return { database: await openDatabase({ dataDir: 'memory://', loadDataDir }), drop: async () => {} };
  }
  const { url, drop } = await createServerDatabase(serverUrl);
  return { database: await openDatabase({ url }), drop };
}

/**
 * Builds the whole app on a migrated test database with the default plans. `env` overrides
 * configuration variables (strings, as in process.env); `overrides` replaces loaded values (e.g.
 * `{ production: true }` for production behaviour while NODE_ENV stays 'test'); `options.logger`
 * gives the app a logger (e.g. `{ level: 'info', stream }` to read what it logs); `options.onDatabase`
 * sees the database handle before the app is built on it (e.g. to count its `listen` calls).
 */
export async function createTestApp(
  env: Record<string, string> = {},
  overrides: Partial<Config> = {},
  options: {
    logger?: boolean | Record<string, unknown>;
    onDatabase?: (database: DatabaseHandle) => void;
  } = {},
): Promise<TestApp> {
  const { database, drop } = await openTestDatabase();
  await database.migrate();
  await seedPlans(database.db);
  options.onDatabase?.(database);
  const { app, config, dispose } = await buildTestNode(database, env, overrides, options.logger);
  return {
    app,
    database,
    config,
    close: async () => {
      await dispose();
      await database.close();
      await drop();
    },
  };
}

/**
 * Builds the whole app, ready, on an open `database` with the tests' configuration in a new temporary
 * DATA_DIR (`env` overrides variables, `overrides` loaded values; `logger` as buildApp's, none by
 * default) and the tests' secrets. `dispose` closes the app and removes the directory; the database
 * stays open.
 */
export async function buildTestNode(
  database: DatabaseHandle,
  env: Record<string, string> = {},
  overrides: Partial<Config> = {},
  logger: boolean | Record<string, unknown> = false,
): Promise<{ app: FastifyInstance; config: Config; dispose: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-test-'));
  const loaded = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    LOG_LEVEL: 'silent',
    WEB_DIST: path.join(dataDir, 'no-web'),
    // Tests never reach Meta: cloud connections call a local fake (or nothing listening here).
    CLOUD_API_URL: 'http://127.0.0.1:9',
    ...env,
  });
  const config: Config = { ...loaded, ...overrides };
  const app = await buildApp({
    config,
    database,
    secrets: { jwtSecret: new TextEncoder().encode(config.JWT_SECRET), sessionKey: Buffer.alloc(32, 7) },
    logger,
  });
  await app.ready();
  return {
    app,
    config,
    dispose: async () => {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A second node of `first` (as a second worker process): the same configuration, database and
 * secrets, ready. Its node id is `nodeId`, by default `<first's nodeId>-2` (first's own id plays
 * the same node restarted). `simulator` shares the first node's simulator network (one process's
 * phones); without it the node has its own. Close it before `first`.
 */
export async function buildSecondNode(
  first: TestApp,
  options: { simulator?: FastifyInstance['simulator']; nodeId?: string } = {},
): Promise<FastifyInstance> {
  const { nodeId = `${first.config.nodeId}-2`, simulator } = options;
  const node = await buildApp({
    config: { ...first.config, nodeId },
    database: first.database,
    secrets: first.app.ctx.secrets,
    logger: false,
    ...(simulator ? { simulator } : {}),
  });
  await node.ready();
  return node;
}
