/**
 * On a Postgres server every parameterised statement of the app's pool goes as a named statement
 * (decision 0138): the connection keeps it parsed (`pg_prepared_statements`) and a second call does
 * not parse it again; statements without values go as they are. Runs when TEST_DATABASE_URL is set.
 */
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createServerDatabase } from '../test/test-app.js';
import { openDatabase } from './client.js';
import { companies } from './schema/index.js';

const serverUrl = process.env.TEST_DATABASE_URL;

describe.runIf(serverUrl)('named statements on the Postgres pool', () => {
  it('prepares a parameterised statement once per connection and reuses it', async () => {
    const { url, drop } = await createServerDatabase(serverUrl!);
    const database = await openDatabase({ url });
    try {
      await database.migrate();
      const texts: string[] = [];
      database.onStatement((text) => texts.push(text));
      const prepared = await database.db.transaction(async (tx) => {
        // One connection for all of it: the statements prepared are that session's.
        for (const id of [1, 2, 3])
          expect(await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, id))).toEqual(
            [],
          );
        const { rows } = await tx.execute(
          sql`select name, statement from pg_prepared_statements where statement like '%from "companies"%'`,
        );
        return rows as { name: string; statement: string }[];
      });
      // The three calls share one named statement, whose text is the select's.
      expect(prepared).toHaveLength(1);
      expect(prepared[0]!.name).toMatch(/^z[0-9a-f]{24}$/);
      expect(prepared[0]!.statement).toBe(texts.find((t) => t.includes('from "companies"')));
      // Statements without values (transaction control, the catalogue read) were not named.
      const { rows } = await database.executor.executeSql(
        "select count(*)::int as n from pg_prepared_statements where statement ilike 'begin%'",
      );
      expect(rows[0]!.n).toBe(0);
    } finally {
      await database.close();
      await drop();
    }
  });
});
