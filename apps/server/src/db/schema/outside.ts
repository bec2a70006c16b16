import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { parentRef, timestamps, timestamptz } from './columns.js';
import { companyTable } from './tenant.js';

/**
 * Outgoing webhooks of a company: where to POST which events. The signing secret
 * is stored encrypted (AES-256-GCM under the session key, lib/secrets.ts); `secretHint` keeps its
 * last characters for the masked display.
 */
export const webhooks = companyTable(
  'webhooks',
  {
    url: text().notNull(),
    /** Subscribed event names (WEBHOOK_EVENTS). */
    events: text().array().notNull().default(sql`'{}'::text[]`),
    active: boolean().notNull().default(true),
    description: text().notNull().default(''),
    secretSealed: text().notNull(),
    secretHint: text().notNull(),
    ...timestamps,
  },
  (t) => [index('webhooks_company_idx').on(t.companyId, t.active)],
);

/**
 * One event for one webhook, and how its delivery went. `eventId` is the idempotency id sent in the
 * `X-Zapdesk-Delivery` header; it is unique per webhook, so an event seen twice is delivered once.
 */
export const webhookDeliveries = companyTable(
  'webhook_deliveries',
  {
    webhookId: parentRef(() => webhooks.id),
    eventId: text().notNull(),
    event: text().notNull(),
    payload: jsonb().notNull(),
    /** pending (queued or waiting for a retry), delivered (a 2xx answer), failed (gave up). */
    status: text({ enum: ['pending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    tries: integer().notNull().default(0),
    lastError: text(),
    responseCode: integer(),
    nextAttemptAt: timestamptz(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_key').on(t.webhookId, t.eventId),
    index('webhook_deliveries_company_webhook_idx').on(t.companyId, t.webhookId, t.id),
  ],
);
