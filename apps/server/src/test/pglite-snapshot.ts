/**
 * The server tests' global setup: one in-memory PGlite cluster migrated to this build's schema,
 * dumped once per run to a temporary tar that every test database on PGlite then starts from
 * (`createTestApp`), instead of running initdb and every migration again for each app — about 2.5 s
 * of CPU per test app. Nothing to do when the tests run on a Postgres server (TEST_DATABASE_URL).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../db/client.js';

/** The environment variable that carries the snapshot's path to the test workers. */
export const PGLITE_SNAPSHOT_VARIABLE = 'ZAPDESK_TEST_PGLITE_SNAPSHOT';

/** Vitest global setup: writes the snapshot and answers the teardown that removes it. */
export default async function setup(): Promise<(() => void) | undefined> {
  if (process.env.TEST_DATABASE_URL) return undefined;
  const database = await openDatabase({ dataDir: 'memory://' });
  await database.migrate();
  const dump = await database.dumpDataDir!();
  await database.close();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-pglite-snapshot-'));
  const file = path.join(dir, 'migrated.tar');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  // Workers start after the global setup and inherit this process's environment.
  process.env[PGLITE_SNAPSHOT_VARIABLE] = file;
  return () => {
    delete process.env[PGLITE_SNAPSHOT_VARIABLE];
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
