import { boolean, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAtColumn, extensionKey, optionalRef, parentRef, timestamptz } from './columns.js';
import { companyRef, companyTable } from './tenant.js';
import { tickets } from './tickets.js';
import { users } from './users.js';

/**
 * A browser's Web Push subscription of one user (docs/operations.md "Web Push"): the push service's
 * endpoint (unique: one browser profile subscribes once) and the keys the payload is encrypted with.
 */
export const pushSubscriptions = companyTable(
  'push_subscriptions',
  {
    userId: parentRef(() => users.id),
    endpoint: text().notNull(),
    p256dh: text().notNull(),
    auth: text().notNull(),
    userAgent: text().notNull().default(''),
    createdAt: createdAtColumn(),
    lastUsedAt: timestamptz(),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_key').on(t.endpoint),
    index('push_subscriptions_company_user_idx').on(t.companyId, t.userId),
  ],
);

/**
 * Which events push to a user, and whether the message text goes with them (`preview`). A user
 * without a row has the defaults: every event, no preview.
 */
export const pushPreferences = pgTable('push_preferences', {
  userId: extensionKey(() => users.id),
  companyId: companyRef(),
  newPending: boolean().notNull().default(true),
  assigned: boolean().notNull().default(true),
  customerMessage: boolean().notNull().default(true),
  internalChat: boolean().notNull().default(true),
  /** Service levels: a ticket's due time is near (assignee and admins). */
  slaWarning: boolean().notNull().default(true),
  /** Service levels: a ticket's due time passed (assignee and admins). */
  slaBreach: boolean().notNull().default(true),
  mention: boolean().notNull().default(true),
  preview: boolean().notNull().default(false),
});

/**
 * The ticket a user has on screen, as the web app reports it (null: none). A push about that ticket
 * is not sent while the user has a live socket.
 */
export const pushViewing = pgTable('push_viewing', {
  userId: extensionKey(() => users.id),
  companyId: companyRef(),
  ticketId: optionalRef(() => tickets.id),
});

/**
 * The last state of a ticket pushed about: `pending:<queueId>`, `user:<userId>` or `closed`. A
 * ticket event pushes only when it moves the ticket to another state (one new-pending push per
 * arrival, one assignment push per holder), whichever node emitted it.
 */
export const pushTicketStates = pgTable(
  'push_ticket_states',
  {
    ticketId: extensionKey(() => tickets.id),
    companyId: companyRef(),
    state: text().notNull(),
  },
  (t) => [index('push_ticket_states_company_idx').on(t.companyId)],
);
