/**
 * The migration that makes connection tokens the server's: missing tokens, tokens under 32
 * characters and tokens several connections share are replaced by fresh random ones (unique); a
 * long unique token is kept, so a working integration keeps working. Runs the migrations before it
 * on a fresh PGlite, plants those rows, then runs the rest.
 */
import { expect, it } from 'vitest';
import { migratedBefore } from '../test/migrations.js';

const TARGET = 'connection-token';

it('replaces missing, short and shared tokens with unique random ones; keeps a long unique one', {
  timeout: 120_000,
}, async () => {
  const { client, one, migrateRest } = await migratedBefore(TARGET);
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

  await migrateRest();
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
