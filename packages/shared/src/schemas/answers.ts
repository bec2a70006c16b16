/**
 * Building blocks of answer schemas: the field groups and the page wrapper that many records and
 * lists share. Spread a field group where its fields stand, so the answer keeps its key order.
 * Only groups that mean the same in every record live here: records whose field lists merely line
 * up alike (an invoice and a chat message, say) keep their own lists, as they change apart.
 */
import { z } from 'zod';

/** A record an answer names by id and name (a ticket's user, a campaign's connection, …). */
export const ZNamedRef = z.object({ id: z.number(), name: z.string() });

/** Fields of an answer record: when it was created and last updated (ISO date-time strings). */
export const timestampFields = { createdAt: z.string(), updatedAt: z.string() };

/** Fields of an answer record with an attached file: its stored name and original name, null when none. */
export const mediaFields = { mediaPath: z.string().nullable(), mediaName: z.string().nullable() };

/**
 * A page of a list answer: the page's items under `key` and `hasMore`, true when a next page
 * exists, e.g. `pageOf('records', ZChat)` is `{ records: Chat[]; hasMore: boolean }`.
 */
export function pageOf<K extends string, T extends z.ZodType>(key: K, item: T) {
  const shape = { [key]: z.array(item), hasMore: z.boolean() };
  return z.object(shape as { [P in K]: z.ZodArray<T> } & { hasMore: z.ZodBoolean });
}

/**
 * A page of a list answer that also tells how many records match: the page's items under `key`,
 * `count` (all matches) and `hasMore`, in that order.
 */
export function countedPageOf<K extends string, T extends z.ZodType>(key: K, item: T) {
  const shape = { [key]: z.array(item), count: z.number(), hasMore: z.boolean() };
  return z.object(shape as { [P in K]: z.ZodArray<T> } & { count: z.ZodNumber; hasMore: z.ZodBoolean });
}
