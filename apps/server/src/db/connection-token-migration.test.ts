/**
 * The migration that makes connection tokens the server's: missing tokens, tokens under 32
 * characters and tokens several connections share are replaced by fresh random ones (unique); a
 * long unique token is kept, so a working integration keeps working. Runs the migrations before it
 * on a fresh PGlite, plants those rows, then runs the rest.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, expect, it } from 'vitest';

const MIGRATIONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');
const TARGET = 'connection-token';

let client: PGlite | undefined;
let before: string | undefined;
afterAll(async () => {
  await client?.close();
  if (before) fs.rmSync(before, { recursive: true, force: true });
});

/** A copy of the migrations folder whose journal stops before the migration named `TARGET`. */
function migrationsBeforeTarget(): string {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  const at = journal.entries.findIndex((e) => e.tag.endsWith(TARGET));
  expect(at, 'the migration is in the journal').toBeGreaterThan(0);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-migrations-'));
  fs.mkdirSync(path.join(dir, 'meta'));
  const kept = journal.entries.slice(0, at);
  fs.writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: kept }));
  for (const entry of kept)
    fs.copyFileSync(path.join(MIGRATIONS, `${entry.tag}.sql`), path.join(dir, `${entry.tag}.sql`));
  return dir;
}

it('replaces missing, short and shared tokens with unique random ones; keeps a long unique one', {
  timeout: 120_000,
}, async () => {
  before = migrationsBeforeTarget();
  client = await PGlite.create('memory://', { extensions: { pg_trgm } });
  const db = drizzle(client, { casing: 'snake_case' });
  await migrate(db, { migrationsFolder: before });

  const one = async (text: string) =>
    ((await client!.query<{ id: number }>(text)).rows[0] as { id: number }).id;
  const a = await one(`insert into companies (name) values ('A') returning id`);
  const b = await one(`insert into companies (name) values ('B') returning id`);
  const connection = (company: number, name: string, token: string | null) =>
    one(
      `insert into whatsapps (company_id, name, token) values (${company}, '${name}', ${
        token === null ? 'null' : `'${token}'`
      }) returning id`,
    );
  const kept = 'kept_0123456789abcdefghijklmnopqrstuvwxyz';
  const shared = 'shared_0123456789abcdefghijklmnopqrstuvwxyz';
  const long = await connection(a, 'longa', kept);
  const missing = await connection(a, 'sem', null);
  const short = await connection(a, 'curta', 'x');
  const sharedA = await connection(a, 'comum', shared);
  const sharedB = await connection(b, 'comum', shared);

  await migrate(db, { migrationsFolder: MIGRATIONS });
  const rows = (await client.query<{ id: number; token: string }>('select id, token from whatsapps')).rows;
  const token = Object.fromEntries(rows.map((r) => [r.id, r.token]));
  expect(token[long]).toBe(kept);
  for (const id of [missing, short, sharedA, sharedB]) {
    expect(token[id]).toMatch(/^[0-9a-f]{64}$/);
  }
  expect(new Set(rows.map((r) => r.token)).size).toBe(rows.length);
  // From now on the database refuses a shared token and fills a missing one.
  await expect(client.query(`update whatsapps set token = '${kept}' where id = ${short}`)).rejects.toThrow();
  const fresh = await one(`insert into whatsapps (company_id, name) values (${b}, 'nova') returning id`);
  const [row] = (await client.query<{ token: string }>(`select token from whatsapps where id = ${fresh}`))
    .rows;
  expect(row?.token).toMatch(/^[0-9a-f]{64}$/);
});
