/**
 * `npm run reports:backfill`: adds the ticket events (docs/reports.md) of the tickets that have none,
 * derived from their times and their agents' messages, prints how many, and rolls every company's
 * closed days up (the report rollups, decision 0121). The migration that
 * created `ticket_events` already ran it once; running it again is harmless (idempotent: tickets
 * with events are left alone), e.g. after copying tickets in from another database.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { rollAllReports } from './modules/reports/rollups.js';

/**
 * Runs the backfill on the database of `env` (DATABASE_URL, else the PGlite folder under DATA_DIR).
 * @returns the number of events added.
 */
export async function runReportsBackfill(env: NodeJS.ProcessEnv): Promise<number> {
  const config = loadConfig(env);
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: path.join(config.dataDir, 'pglite'),
  });
  try {
    const { rows } = await database.db.execute(sql`select ticket_events_backfill() as added`);
    // The added events moved the rollup marks back (trigger): roll every company again.
    await rollAllReports({ db: database.db });
    return Number(rows[0]?.added ?? 0);
  } finally {
    await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  runReportsBackfill(process.env).then(
    (added) => {
      console.log(`ticket events added: ${added}`);
      process.exit(0);
    },
    (error: unknown) => {
      console.error((error as Error).message);
      process.exit(1);
    },
  );
}
