/**
 * Several nodes starting at once on a fresh Postgres database: one applies the migrations under an
 * advisory lock, the others wait and find nothing left to apply; one creates the first super user.
 * Runs when TEST_DATABASE_URL is set.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createServerDatabase } from '../test/test-app.js';
import { migrationsApplied, openDatabase } from './client.js';
import { users } from './schema/index.js';
import { ensureSuperUser } from './seed.js';

const serverUrl = process.env.TEST_DATABASE_URL;

describe.runIf(serverUrl)('migrations on several nodes at once', () => {
  it('applies them once while the others wait, and creates one super user', async () => {
    const { url, drop } = await createServerDatabase(serverUrl!);
    const nodes = await Promise.all([1, 2, 3].map(() => openDatabase({ url })));
    try {
      expect(await migrationsApplied(nodes[0]!)).toBe(false);
      await Promise.all(nodes.map((node) => node.migrate()));
      for (const node of nodes) expect(await migrationsApplied(node)).toBe(true);
      const { rows } = await nodes[0]!.executor.executeSql(
        'select count(*)::int as n, count(distinct hash)::int as distinct_n from drizzle.__drizzle_migrations',
      );
      expect(rows[0]!.n).toBe(rows[0]!.distinct_n);
      // Then each creates the first super user if none exists: one does.
      const config = loadConfig({ ADMIN_EMAIL: 'first@example.com', ADMIN_PASSWORD: 'first-password' });
      const created = await Promise.all(nodes.map((node) => ensureSuperUser(node.db, config)));
      expect(created.filter(Boolean)).toHaveLength(1);
      expect(await nodes[0]!.db.select({ email: users.email }).from(users)).toEqual([
        { email: 'first@example.com' },
      ]);
    } finally {
      for (const node of nodes) await node.close();
      await drop();
    }
  });
});

describe('the first super user on the embedded database', () => {
  it('is created once', async () => {
    const database = await openDatabase({ dataDir: 'memory://' });
    try {
      await database.migrate();
      const config = loadConfig({ ADMIN_EMAIL: 'Root@Example.com', ADMIN_PASSWORD: 'root-password' });
      expect(await ensureSuperUser(database.db, config)).toBe(true);
      expect(await ensureSuperUser(database.db, config)).toBe(false);
      expect(await database.db.select({ email: users.email, super: users.super }).from(users)).toEqual([
        { email: 'root@example.com', super: true },
      ]);
    } finally {
      await database.close();
    }
  });
});
