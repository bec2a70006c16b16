import { z } from 'zod';
import { ZId } from './common.js';

/**
 * Web Push for agents (docs/operations.md "Web Push"): the server's public key, the browser's
 * subscription, the per-user choice of events and the ticket on screen.
 */

/** GET /push/public-key: the VAPID public key (base64url) browsers subscribe with. */
export const ZPushPublicKey = z.object({ publicKey: z.string() });

/** Longest push-service endpoint stored (the column is text; push services use a few hundred). */
export const PUSH_ENDPOINT_MAX = 2048;

/** A push service endpoint: an http(s) URL of at most PUSH_ENDPOINT_MAX characters. */
const ZEndpoint = z
  .string()
  .max(PUSH_ENDPOINT_MAX)
  .url()
  .refine((v) => /^https?:\/\//i.test(v), 'must be an https URL');

/**
 * POST /push/subscriptions: the browser's `PushSubscription.toJSON()`. `p256dh` is a 65-byte P-256
 * point and `auth` a 16-byte secret, both base64url (bounded with room for padding);
 * `expirationTime` is accepted and ignored.
 */
export const ZPushSubscriptionBody = z.object({
  endpoint: ZEndpoint,
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    p256dh: z
      .string()
      .min(80)
      .max(100)
      .regex(/^[A-Za-z0-9_-]+=*$/, 'base64url'),
    auth: z
      .string()
      .min(16)
      .max(32)
      .regex(/^[A-Za-z0-9_-]+=*$/, 'base64url'),
  }),
});
export type PushSubscriptionBody = z.infer<typeof ZPushSubscriptionBody>;

/** DELETE /push/subscriptions: the endpoint of the caller's own subscription to remove. */
export const ZPushUnsubscribeBody = z.object({ endpoint: ZEndpoint });

/** Which events push to the user; `preview` adds the message text to the notification. */
export const ZPushPreferences = z.object({
  newPending: z.boolean(),
  assigned: z.boolean(),
  customerMessage: z.boolean(),
  internalChat: z.boolean(),
  /** Service levels: a ticket's due time is near / has passed (the assignee and the admins). */
  slaWarning: z.boolean(),
  slaBreach: z.boolean(),
  /** A colleague mentioned the user in a ticket note. */
  mention: z.boolean(),
  preview: z.boolean(),
});
export type PushPreferences = z.infer<typeof ZPushPreferences>;

/** PUT /push/preferences: the flags to change (the others are kept). */
export const ZPushPreferencesBody = ZPushPreferences.partial();

/** PUT /push/viewing: the ticket the web app shows now, or null when it shows none. */
export const ZPushViewingBody = z.object({ ticketId: ZId.nullable() });

/**
 * What the service worker receives in a push (the JSON before encryption): a title, the body (the
 * message text only when the user's `preview` is on), the ticket's or chat's page, and a tag that
 * collapses notifications of one ticket or chat.
 */
export const ZPushPayload = z.object({
  title: z.string(),
  body: z.string(),
  url: z.string(),
  tag: z.string(),
  ticketUuid: z.string().optional(),
});
export type PushPayload = z.infer<typeof ZPushPayload>;
