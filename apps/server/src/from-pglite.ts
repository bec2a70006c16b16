/**
 * Moves an installation from the embedded database (PGlite in DATA_DIR/pglite) to the Postgres
 * server of DATABASE_URL (docs/operations.md "Moving from the embedded PGlite to a Postgres
 * server"). Stop the server first; the target database must be empty (no node started on it yet).
 *   DATA_DIR=./data DATABASE_URL=postgres://... node apps/server/dist/from-pglite.js
 *   (from a clone: DATA_DIR=./data DATABASE_URL=... npm run db:from-pglite)
 * Then start the nodes with DATABASE_URL, and SESSION_KEY and JWT_SECRET from DATA_DIR/secrets.json.
 */
import path from 'node:path';
import { buildApp } from './app.js';
import { type Config, loadConfig } from './config.js';
import { type DatabaseHandle, openDatabase } from './db/client.js';
import { applicationTables, copyTables, nonEmptyTables, type TableRef } from './db/copy-database.js';
import { loadSecrets } from './lib/secrets.js';

/** The job queue's table (pg-boss): queued, retrying and delayed work travels with the data. */
const JOB_TABLE: TableRef = { schema: 'pgboss', name: 'job' };

/**
 * Copies every application table and the queued jobs from the PGlite database of `config.dataDir`
 * into the empty Postgres database of `config.DATABASE_URL`, after migrating both to this build and
 * installing the job queue's schema on the target.
 * @returns the rows copied per table.
 * @throws Error when DATABASE_URL is unset or the target already holds data (naming the tables).
 */
export async function copyFromPglite(
  config: Config,
  log: (line: string) => void = () => {},
): Promise<Record<string, number>> {
  if (!config.DATABASE_URL) throw new Error('DATABASE_URL must name the Postgres database to copy into');
  const secrets = loadSecrets(config);
  const source = await openDatabase({ dataDir: path.join(config.dataDir, 'pglite') });
  let target: DatabaseHandle | undefined;
  try {
    target = await openDatabase({ url: config.DATABASE_URL });
    await source.migrate();
    await target.migrate();
    const tables = await applicationTables(source);
    const busy = await nonEmptyTables(target, await applicationTables(target));
    if (busy.length) {
      throw new Error(
        `The target database already holds data (${busy.map((t) => t.name).join(', ')}): copy into an empty database, before any node starts on it`,
      );
    }
    // The job queue's schema and queues, as a node creates them on its first start.
    const app = await buildApp({
      config: { ...config, REDIS_URL: undefined, WORKERS: 1 },
      database: target,
      secrets,
      logger: false,
      jobWorkers: false,
    });
    await app.ready();
    await app.close();
    const withJobs = await hasTable(source, JOB_TABLE);
    return await copyTables(source, target, withJobs ? [...tables, JOB_TABLE] : tables, (table, rows) =>
      log(`${table}: ${rows} rows`),
    );
  } finally {
    await target?.close();
    await source.close();
  }
}

/** Whether `database` has the table. */
async function hasTable(database: DatabaseHandle, table: TableRef): Promise<boolean> {
  const { rows } = await database.executor.executeSql('select to_regclass($1) is not null as present', [
    `${table.schema}.${table.name}`,
  ]);
  return Boolean(rows[0]?.present);
}

const isEntry = process.argv[1] && import.meta.filename === path.resolve(process.argv[1]);
if (isEntry) {
  copyFromPglite(loadConfig(), (line) => console.log(line))
    .then((copied) => {
      const rows = Object.values(copied).reduce((sum, n) => sum + n, 0);
      console.log(`Copied ${rows} rows of ${Object.keys(copied).length} tables into DATABASE_URL.`);
      console.log(
        'Start the nodes with DATABASE_URL, and SESSION_KEY and JWT_SECRET from DATA_DIR/secrets.json.',
      );
    })
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}
