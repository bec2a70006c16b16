import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from './client.js';
import { instanceChecks } from './schema/index.js';

/** The fixed text whose HMAC under SESSION_KEY identifies the key without revealing it. */
const SESSION_KEY_CHECK_TEXT = 'zapdesk session key check v1';

/** HMAC-SHA256 (hex) of the fixed check text under `key`. */
function sessionKeyCheck(key: Buffer): string {
  return crypto.createHmac('sha256', key).update(SESSION_KEY_CHECK_TEXT).digest('hex');
}

/**
 * Compares this node's session key (SESSION_KEY, or the generated one) with the one the database
 * was first started with; on the first start it stores the check value. Two nodes starting at once
 * on a new database agree on whichever stored first.
 * @throws Error naming SESSION_KEY when the keys differ: this node would write secrets the others
 *   cannot read, and could not read theirs.
 */
export async function verifySessionKey(db: Database, key: Buffer): Promise<void> {
  const mine = sessionKeyCheck(key);
  await db.insert(instanceChecks).values({ name: 'session-key', value: mine }).onConflictDoNothing();
  const [stored] = await db
    .select({ value: instanceChecks.value })
    .from(instanceChecks)
    .where(eq(instanceChecks.name, 'session-key'));
  if (stored && stored.value !== mine) {
    throw new Error(
      'SESSION_KEY differs from the key this database was first started with: every node must use the ' +
        'same SESSION_KEY (64 hex characters; see DATA_DIR/secrets.json of the first node when it was generated). ' +
        'Refusing to start rather than write secrets the other nodes cannot read.',
    );
  }
}
