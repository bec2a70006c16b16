/**
 * The migration that gives `whatsapps.flow_id_welcome` its foreign key first clears the ids left
 * dangling by flows deleted before it (or naming another company's flow), then adds the key.
 * Runs the migrations before it on a fresh PGlite, plants those rows, then runs the rest.
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
const TARGET = 'connection-welcome-flow-fk';

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

it('clears dangling and foreign welcome flows, keeps valid ones, then deletes clear it', async () => {
  before = migrationsBeforeTarget();
  client = await PGlite.create('memory://', { extensions: { pg_trgm } });
  const db = drizzle(client, { casing: 'snake_case' });
  await migrate(db, { migrationsFolder: before });

  const one = async (text: string) =>
    ((await client!.query<{ id: number }>(text)).rows[0] as { id: number }).id;
  const a = await one(`insert into companies (name) values ('A') returning id`);
  const b = await one(`insert into companies (name) values ('B') returning id`);
  const flowA = await one(`insert into flows (company_id, name) values (${a}, 'Boas-vindas') returning id`);
  const flowB = await one(`insert into flows (company_id, name) values (${b}, 'De B') returning id`);
  const connection = (name: string, flow: number) =>
    one(
      `insert into whatsapps (company_id, name, flow_id_welcome) values (${a}, '${name}', ${flow}) returning id`,
    );
  const valid = await connection('valida', flowA);
  const dangling = await connection('apagada', flowB + 1000);
  const foreign = await connection('alheia', flowB);

  await migrate(db, { migrationsFolder: MIGRATIONS });
  const welcome = async () =>
    Object.fromEntries(
      (
        await client!.query<{ id: number; flow_id_welcome: number | null }>(
          'select id, flow_id_welcome from whatsapps',
        )
      ).rows.map((r) => [r.id, r.flow_id_welcome]),
    );
  expect(await welcome()).toEqual({ [valid]: flowA, [dangling]: null, [foreign]: null });

  await client.query(`delete from flows where id = ${flowA}`);
  expect(await welcome()).toEqual({ [valid]: null, [dangling]: null, [foreign]: null });
});
