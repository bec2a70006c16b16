import { pgTable, text } from 'drizzle-orm/pg-core';
import { createdAtColumn } from './columns.js';

/**
 * Values every node of one installation checks at start (platform-wide, no company): `session-key`
 * holds an HMAC of a fixed text under SESSION_KEY, so a node started with another key refuses to
 * start instead of writing secrets the others cannot read.
 */
export const instanceChecks = pgTable('instance_checks', {
  name: text().primaryKey(),
  value: text().notNull(),
  createdAt: createdAtColumn(),
});
