import { z } from 'zod';
import { pageOf, timestampFields } from './answers.js';
import { INT4_MAX } from './common.js';

/**
 * The outside world: the external messages API (document 2 section 7
 * "External messages API") and the company's outgoing webhooks.
 */

/** POST /messages/send JSON body: the customer's number (digits, any punctuation) and the text. */
export const ZExternalSendBody = z.object({
  number: z
    .string({ error: 'required' })
    .trim()
    .min(1, 'required')
    .max(40, 'tooLong')
    .refine((v) => /^\d{8,20}$/.test(v.replace(/[\s()+.-]/g, '')), 'invalidPhone'),
  body: z.string({ error: 'required' }).trim().min(1, 'required').max(4096, 'tooLong'),
});
export type ExternalSendBody = z.input<typeof ZExternalSendBody>;

/** POST /messages/send answer: the stored message ids (one per media file, or one for a text). */
export const ZExternalSendResult = z.object({
  id: z.number(),
  ids: z.array(z.number()),
  ticketId: z.number(),
  contactId: z.number(),
});
export type ExternalSendResult = z.infer<typeof ZExternalSendResult>;

/** Events an outgoing webhook can subscribe to. */
export const WEBHOOK_EVENTS = [
  'message.created',
  'message.updated',
  'ticket.created',
  'ticket.updated',
  'ticket.closed',
  'contact.created',
] as const;
export const ZWebhookEvent = z.enum(WEBHOOK_EVENTS);
export type WebhookEvent = z.infer<typeof ZWebhookEvent>;

/** An http(s) URL of at most 2000 characters, without credentials in it. */
export const ZWebhookUrl = z
  .string({ error: 'required' })
  .trim()
  .min(1, 'required')
  .max(2000, 'tooLong')
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
    } catch {
      return false;
    }
  }, 'invalid');

/** POST /webhooks body (PUT takes any part of it). */
export const ZWebhookBody = z.object({
  url: ZWebhookUrl,
  events: z.array(ZWebhookEvent).min(1, 'required').max(WEBHOOK_EVENTS.length),
  active: z.boolean().optional().default(true),
  description: z.string().trim().max(200, 'tooLong').optional().default(''),
});
export type WebhookBody = z.input<typeof ZWebhookBody>;

/** A webhook as answered to admins: the secret only masked (its last 4 characters). */
export const ZWebhook = z.object({
  id: z.number(),
  url: z.string(),
  events: z.array(ZWebhookEvent),
  active: z.boolean(),
  description: z.string(),
  secretHint: z.string(),
  ...timestampFields,
});
export type Webhook = z.infer<typeof ZWebhook>;

/** POST /webhooks and POST /webhooks/:id/secret answer: the secret in full, shown this once. */
export const ZWebhookWithSecret = ZWebhook.extend({ secret: z.string() });
export type WebhookWithSecret = z.infer<typeof ZWebhookWithSecret>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** One delivery of one event to one webhook. */
export const ZWebhookDelivery = z.object({
  id: z.number(),
  webhookId: z.number(),
  eventId: z.string(),
  event: ZWebhookEvent,
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  tries: z.number(),
  lastError: z.string().nullable(),
  responseCode: z.number().nullable(),
  nextAttemptAt: z.string().nullable(),
  ...timestampFields,
});
export type WebhookDelivery = z.infer<typeof ZWebhookDelivery>;

export const ZWebhookDeliveriesQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
});
export const ZWebhookDeliveriesPage = pageOf('records', ZWebhookDelivery).extend({
  count: z.number().int().min(0).max(INT4_MAX),
});
export type WebhookDeliveriesPage = z.infer<typeof ZWebhookDeliveriesPage>;
