/**
 * Several nodes starting at once on a fresh Postgres database: one applies the migrations under an
 * advisory lock, the others wait and find nothing left to apply. Runs when TEST_DATABASE_URL is set.
 */
import crypto from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrationsApplied, openDatabase } from './client.js';

const serverUrl = process.env.TEST_DATABASE_URL;

describe.runIf(serverUrl)('migrations on several nodes at once', () => {
  it('applies them once while the others wait', async () => {
    const name = `zapdesk_test_${crypto.randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(serverUrl!);
    url.pathname = `/${name}`;
    const nodes = await Promise.all([1, 2, 3].map(() => openDatabase({ url: url.toString() })));
    try {
      expect(await migrationsApplied(nodes[0]!)).toBe(false);
      await Promise.all(nodes.map((node) => node.migrate()));
      for (const node of nodes) expect(await migrationsApplied(node)).toBe(true);
      const { rows } = await nodes[0]!.executor.executeSql(
        'select count(*)::int as n, count(distinct hash)::int as distinct_n from drizzle.__drizzle_migrations',
      );
      expect(rows[0]!.n).toBe(rows[0]!.distinct_n);
    } finally {
      for (const node of nodes) await node.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
