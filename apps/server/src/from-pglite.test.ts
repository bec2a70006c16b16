/**
 * Moving from the embedded database to a Postgres server: every application row and the queued jobs
 * arrive, ids keep counting after the copied ones, and a target that already holds data is refused.
 * Runs when TEST_DATABASE_URL is set.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { type DatabaseHandle, openDatabase } from './db/client.js';
import { applicationTables } from './db/copy-database.js';
import { seedDemo } from './db/seed.js';
import { copyFromPglite } from './from-pglite.js';
import { loadSecrets } from './lib/secrets.js';
import { createSimulatorConnection, createTenant, customerNumber, injectMessage } from './test/factories.js';
import { createServerDatabase } from './test/test-app.js';

const serverUrl = process.env.TEST_DATABASE_URL;

describe.runIf(serverUrl)('copy from PGlite to Postgres', () => {
  let dataDir: string;
  let targetUrl: string;
  let dropTarget: () => Promise<void>;

  /** Row counts of every application table, and the queued jobs, of a database. */
  async function counts(database: DatabaseHandle): Promise<Record<string, number>> {
    const result: Record<string, number> = {};
    for (const table of await applicationTables(database)) {
      const { rows } = await database.executor.executeSql(
        `select count(*)::int as n from "public"."${table.name}"`,
      );
      result[table.name] = Number(rows[0]!.n);
    }
    const { rows } = await database.executor.executeSql(
      "select count(*)::int as n from pgboss.job where name = 'queue-bot' and state = 'created'",
    );
    result['pgboss.job queue-bot'] = Number(rows[0]!.n);
    return result;
  }

  /** The configuration that moves this file's embedded installation to the target database. */
  const targetConfig = () =>
    loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: targetUrl, LOG_LEVEL: 'silent' });

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-pglite-'));
    ({ url: targetUrl, drop: dropTarget } = await createServerDatabase(serverUrl!));
    // An embedded installation with the demo data, a conversation and a queued chatbot job.
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      WEB_DIST: path.join(dataDir, 'no-web'),
    });
    const source = await openDatabase({ dataDir: path.join(dataDir, 'pglite') });
    await source.migrate();
    await seedDemo(source.db);
    const app = await buildApp({ config, database: source, secrets: loadSecrets(config), logger: false });
    await app.ready();
    const tenant = await createTenant(app);
    const whatsappId = await createSimulatorConnection(app, tenant.admin);
    await injectMessage(app, tenant.admin, whatsappId, { from: customerNumber(), body: 'Oi' });
    await app.close();
    await source.close();
  }, 120_000);

  afterAll(async () => {
    await dropTarget?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('copies every row and the queued jobs; ids go on after the copied ones', async () => {
    const config = targetConfig();
    const copied = await copyFromPglite(config);
    expect(copied['public.messages']).toBeGreaterThan(0);
    const source = await openDatabase({ dataDir: path.join(dataDir, 'pglite') });
    const target = await openDatabase({ url: targetUrl });
    try {
      const expected = await counts(source);
      expect(expected['pgboss.job queue-bot']).toBeGreaterThan(0);
      expect(await counts(target)).toEqual(expected);
      const { rows: max } = await target.executor.executeSql('select max(id)::int as id from companies');
      const { rows: added } = await target.executor.executeSql(
        "insert into companies (name) values ('After the move') returning id",
      );
      expect(Number(added[0]!.id)).toBeGreaterThan(Number(max[0]!.id));
    } finally {
      await target.close();
      await source.close();
    }
  }, 120_000);

  it('refuses a target that already holds data', async () => {
    const config = targetConfig();
    await expect(copyFromPglite(config)).rejects.toThrow(/already holds data \(.*companies/);
  }, 60_000);
});
