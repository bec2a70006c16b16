import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from './client.js';
import { verifySessionKey } from './instance-checks.js';
import { instanceChecks } from './schema/index.js';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openDatabase({ dataDir: 'memory://' });
  await database.migrate();
});
afterAll(async () => database.close());

describe('the session key check', () => {
  it('stores a check value on the first start, accepts the same key and refuses another', async () => {
    const key = crypto.randomBytes(32);
    await verifySessionKey(database.db, key);
    const [row] = await database.db.select().from(instanceChecks);
    expect(row!.name).toBe('session-key');
    // Only an HMAC: the key itself is not in the database.
    expect(row!.value).not.toContain(key.toString('hex'));
    await expect(verifySessionKey(database.db, Buffer.from(key))).resolves.toBeUndefined();
    await expect(verifySessionKey(database.db, crypto.randomBytes(32))).rejects.toThrow(
      /SESSION_KEY differs .*same SESSION_KEY/,
    );
    const rows = await database.db.select().from(instanceChecks);
    expect(rows).toEqual([row]);
  });
});
