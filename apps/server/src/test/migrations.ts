/**
 * The opening of a data migration's test: a fresh PGlite migrated up to just before the migration
 * under test, so the test can plant the rows that migration must mend, then run the rest.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { expect, onTestFinished } from 'vitest';

const MIGRATIONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

/** A database stopped just before one migration. */
export interface BeforeMigration {
  client: PGlite;
  /** Runs a query that returns rows with an `id` and answers the first row's id. */
  one: (text: string) => Promise<number>;
  /** Runs the migration under test and every later one. */
  migrateRest: () => Promise<void>;
}

/** A copy of the migrations folder whose journal stops before the migration whose tag ends in `target`. */
function migrationsBefore(target: string): string {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  const at = journal.entries.findIndex((e) => e.tag.endsWith(target));
  expect(at, 'the migration is in the journal').toBeGreaterThan(0);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-migrations-'));
  fs.mkdirSync(path.join(dir, 'meta'));
  const kept = journal.entries.slice(0, at);
  fs.writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: kept }));
  for (const entry of kept)
    fs.copyFileSync(path.join(MIGRATIONS, `${entry.tag}.sql`), path.join(dir, `${entry.tag}.sql`));
  return dir;
}

/**
 * Inside a test: a fresh in-memory PGlite (with pg_trgm) holding every migration before the one
 * whose tag ends in `target` (the test fails when there is none). The database and the copied
 * migrations are removed when the test finishes.
 */
export async function migratedBefore(target: string): Promise<BeforeMigration> {
  const before = migrationsBefore(target);
  onTestFinished(() => fs.rmSync(before, { recursive: true, force: true }));
  const client = await PGlite.create('memory://', { extensions: { pg_trgm } });
  onTestFinished(() => client.close());
  const db = drizzle(client, { casing: 'snake_case' });
  await migrate(db, { migrationsFolder: before });
  return {
    client,
    one: async (text) => ((await client.query<{ id: number }>(text)).rows[0] as { id: number }).id,
    migrateRest: () => migrate(db, { migrationsFolder: MIGRATIONS }),
  };
}
