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

/**
 * A record id given as the id itself or as the record (`{ id, name, ... }`, other keys ignored), read
 * as the id: the classic client sends a chat's `users` as the user objects it listed.
 */
export const idOrRecord = (id: z.ZodNumber) =>
  z.union([id, z.object({ id }).transform((record) => record.id)]);

/**
 * Calls that only the classic client's fork makes (docs/compatibility.md, "Calls of the classic
 * client's fork"), answered with what that client can use.
 */

/** GET /system-settings/public/push-config: no third-party push service is configured. */
export const ZClassicPushConfig = z.object({
  onesignalEnabled: z.boolean(),
  onesignalAppId: z.string(),
  onesignalEnvironment: z.enum(['production', 'development']),
});

/** GET /system-settings/branding: the product's name; no custom logos (the client keeps its own). */
export const ZClassicBranding = z.object({
  systemName: z.string(),
  loginLogoUrl: z.string(),
  loginLogoDarkUrl: z.string(),
  menuLogoUrl: z.string(),
  menuLogoDarkUrl: z.string(),
  faviconUrl: z.string(),
  publicWhatsAppNumber: z.string(),
  publicWhatsAppMessage: z.string(),
  assetRevision: z.string(),
});
export type ClassicBranding = z.infer<typeof ZClassicBranding>;

/** GET /notifications/unread-count: the tickets of the caller's notification bell. */
export const ZClassicUnreadCount = z.object({ count: z.number() });

/** GET /notifications query: the client's page (1-based) and size (ignored: the bell's page is fixed). */
export const ZClassicNotificationsQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).optional().default(1),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});

/** One bell entry as the classic client's notification centre shows it: a ticket with unread messages. */
export const ZClassicNotification = z.object({
  id: z.number(),
  type: z.literal('ticket_unread'),
  title: z.string(),
  body: z.string(),
  read: z.boolean(),
  readAt: z.string().nullable(),
  createdAt: z.string(),
  data: z.object({ ticketId: z.number(), ticketUuid: z.string() }),
});

/** GET /notifications answer. */
export const ZClassicNotificationsPage = z.object({
  notifications: z.array(ZClassicNotification),
  count: z.number(),
  hasMore: z.boolean(),
});
