import { z } from 'zod';

/**
 * Tolerances for the bodies the original Whaticket SaaS web client sends (docs/compatibility.md).
 * Each is applied only to the fields that client sends in another type than ours.
 */

/** A boolean that also takes 0 and 1, as the classic composer sends `read: 1`. */
export const looseBoolean = z.union([z.boolean(), z.literal([0, 1]).transform((v) => v === 1)]);

/**
 * `schema`, also taking `false` as null: the classic client closes a ticket with
 * `promptId: false, integrationId: false`, meaning "none".
 */
export const falseAsNull = <T extends z.ZodType>(schema: T) =>
  z.union([schema, z.literal(false).transform(() => null)]);
