import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  text,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { idColumn, optionalRef, parentRef, timestamps, timestamptz } from './columns.js';
import { queueOptions } from './queue-extra.js';
import { queues } from './queues.js';
import { companyRef, companyTable } from './tenant.js';
import { users } from './users.js';
import { whatsapps } from './whatsapps.js';

/** Contacts: one per company and number (digits only, or a group id). */
export const contacts = companyTable(
  'contacts',
  {
    name: text().notNull(),
    number: text().notNull(),
    email: text().notNull().default(''),
    profilePicUrl: text(),
    isGroup: boolean().notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('contacts_company_number_key').on(t.companyId, t.number),
    index('contacts_company_name_idx').on(t.companyId, t.name),
    index('contacts_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
    index('contacts_number_trgm_idx').using('gin', sql`${t.number} gin_trgm_ops`),
  ],
);

/**
 * Tickets. At most one live (not closed) ticket per company, contact and connection, guaranteed by
 * a partial unique index, so concurrent inbound messages cannot create two.
 */
export const tickets = pgTable(
  'tickets',
  {
    id: idColumn(),
    uuid: uuid().notNull().defaultRandom(),
    companyId: companyRef(),
    contactId: parentRef(() => contacts.id),
    whatsappId: optionalRef(() => whatsapps.id),
    userId: optionalRef(() => users.id),
    queueId: optionalRef(() => queues.id),
    status: text({ enum: ['open', 'pending', 'closed'] })
      .notNull()
      .default('pending'),
    unreadMessages: integer().notNull().default(0),
    lastMessage: text().notNull().default(''),
    isGroup: boolean().notNull().default(false),
    chatbot: boolean().notNull().default(false),
    useIntegration: boolean().notNull().default(false),
    promptId: integer(),
    integrationId: integer(),
    amountUsedBotQueues: integer().notNull().default(0),
    /** Where the queue chatbot stands in the queue's option tree (null: the queue's top level). */
    queueOptionId: optionalRef(() => queueOptions.id),
    /** Closed with a rating question: the customer's next 1..3 answers it instead of reopening. */
    awaitingRating: boolean().notNull().default(false),
    acceptedAt: timestamptz(),
    closedAt: timestamptz(),
    /** When the first agent reply of this opening is due (service levels); null: no target or met. */
    firstResponseDueAt: timestamptz(),
    /** When this opening's closing is due (service levels); null: no target or met. */
    resolutionDueAt: timestamptz(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('tickets_uuid_key').on(t.uuid),
    uniqueIndex('tickets_live_per_contact_key')
      .on(t.companyId, t.contactId, t.whatsappId)
      .where(sql`${t.status} <> 'closed'`),
    // Lists page newest first by (updated_at, id): the id makes the order total, so a page is read
    // from the index without a sort and keyset pages seek straight to their place.
    index('tickets_company_status_updated_idx').on(t.companyId, t.status, t.updatedAt, t.id),
    // A status tab's count with a queue filter or an agent's visibility (own tickets, the queues'
    // tickets, unassigned ones) reads this index alone: every column those conditions test is in its
    // key, so no ticket row is fetched to count.
    index('tickets_company_status_queue_user_idx').on(t.companyId, t.status, t.queueId, t.userId),
    // The reports' queue or connection filter on ratings and tags: the ticket ids from the index alone.
    index('tickets_company_queue_idx').on(t.companyId, t.queueId, t.id),
    index('tickets_company_whatsapp_idx').on(t.companyId, t.whatsappId, t.id),
    index('tickets_company_user_idx').on(t.companyId, t.userId),
    // Unread tickets: the page of a status in order, and their bounded count with a queue filter or
    // an agent's visibility from the index alone (queue and holder in its key).
    index('tickets_unread_company_status_updated_idx')
      .on(t.companyId, t.status, t.updatedAt, t.id, t.queueId, t.userId)
      .where(sql`${t.unreadMessages} > 0`),
    index('tickets_company_contact_idx').on(t.companyId, t.contactId),
    index('tickets_company_updated_idx').on(t.companyId, t.updatedAt, t.id),
    // The list sorted by service-level due time (sortBy=due): the earlier due time, none last
    // (ticket-list-statement.ts `dueKey`), then the id; a status tab reads it in order.
    index('tickets_company_status_due_idx').on(
      t.companyId,
      t.status,
      sql`coalesce(least(${t.firstResponseDueAt}, ${t.resolutionDueAt}), 'infinity'::timestamptz)`,
      t.id,
    ),
    // Connection timers scan the live tickets of a connection by inactivity.
    index('tickets_live_whatsapp_updated_idx')
      .on(t.whatsappId, t.status, t.updatedAt)
      .where(sql`${t.status} <> 'closed'`),
  ],
);

/**
 * How many tickets a company has per status, queue and holder (null: none), and how many of them
 * have unread messages, kept by the triggers `ticket_counts_follow` and `ticket_counts_unread` in the
 * transaction that inserts, deletes or moves a ticket or crosses zero unread messages (migrations
 * 0039, 0047): the list's count of a status with a queue filter, a users filter, the unread filter or
 * an agent's visibility sums a few of these rows instead of counting tickets (decision 0111).
 */
export const ticketCounts = pgTable(
  'ticket_counts',
  {
    companyId: companyRef(),
    status: text({ enum: ['open', 'pending', 'closed'] }).notNull(),
    queueId: integer(),
    userId: integer(),
    tickets: integer().notNull().default(0),
    /** How many of them have unread messages (`unread_messages > 0`): the unread filter's count. */
    unread: integer().notNull().default(0),
  },
  (t) => [unique('ticket_counts_key').on(t.companyId, t.status, t.queueId, t.userId).nullsNotDistinct()],
);

/**
 * Messages. A provider message id (`wid`) is stored once per connection (unique index), so a
 * redelivered message is not stored twice.
 */
export const messages = pgTable(
  'messages',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    companyId: companyRef(),
    ticketId: parentRef(() => tickets.id),
    contactId: optionalRef(() => contacts.id),
    whatsappId: optionalRef(() => whatsapps.id),
    userId: optionalRef(() => users.id),
    wid: text(),
    body: text().notNull().default(''),
    fromMe: boolean().notNull().default(false),
    mediaType: text().notNull().default('chat'),
    /** Stored file name under DATA_DIR/media (served at /api/public/:name). */
    mediaUrl: text(),
    mediaName: text(),
    isDeleted: boolean().notNull().default(false),
    isEdited: boolean().notNull().default(false),
    ack: integer().notNull().default(0),
    read: boolean().notNull().default(false),
    quotedMsgId: bigint({ mode: 'number' }),
    reactionToId: bigint({ mode: 'number' }),
    /** Group sender number. */
    participant: text(),
    error: text(),
    /**
     * When a node took the outbound message to hand it to its session (null: not yet). The claim makes
     * sure one node sends it once; the session's owner sends what other nodes stored.
     */
    sendingAt: timestamptz(),
    /**
     * Who holds the claim: `<node id>/<process instance>`. A claim of this node id by another
     * instance was left by a process that died; any claim older than SENDING_CLAIM_MS has lapsed.
     */
    sendingBy: text(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('messages_whatsapp_wid_key').on(t.whatsappId, t.wid),
    // Outbound messages waiting for the session's owner to send them (claimed ones included: a
    // claim left by a dead process or lapsed is taken again).
    index('messages_unsent_idx')
      .on(t.whatsappId, t.id)
      .where(sql`${t.fromMe} and ${t.wid} is null and ${t.ack} = 0`),
    // Per-ticket outbound order: a message is claimed only when no earlier one of its ticket is
    // unsent, and whoever settles one sends the next (the same few rows as above, by ticket).
    index('messages_ticket_unsent_idx')
      .on(t.companyId, t.ticketId, t.id)
      .where(sql`${t.fromMe} and ${t.wid} is null and ${t.ack} = 0`),
    index('messages_ticket_created_idx').on(t.ticketId, t.createdAt, t.id),
    index('messages_company_contact_created_idx').on(t.companyId, t.contactId, t.createdAt, t.id),
    index('messages_body_trgm_idx').using('gin', sql`${t.body} gin_trgm_ops`),
  ],
);
