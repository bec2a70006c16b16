import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { extensionKey, optionalRef, parentRef, timestamps, timestamptz } from './columns.js';
import { flows } from './flows.js';
import { queues } from './queues.js';
import { companyRef, companyTable } from './tenant.js';

/** WhatsApp connections (document 2 section 3). One default per company (partial unique index). */
export const whatsapps = companyTable(
  'whatsapps',
  {
    name: text().notNull(),
    status: text().notNull().default('DISCONNECTED'),
    /** Why the session last stopped, as the driver reported it; null once connected. */
    statusReason: text(),
    qrcode: text().notNull().default(''),
    retries: integer().notNull().default(0),
    isDefault: boolean().notNull().default(false),
    provider: text().notNull().default('beta'),
    number: text(),
    greetingMessage: text().notNull().default(''),
    complationMessage: text().notNull().default(''),
    outOfHoursMessage: text().notNull().default(''),
    ratingMessage: text().notNull().default(''),
    /**
     * The external API's bearer token: made by the server (`newApiToken`, 256 random bits), unique
     * across the platform, replaced by POST /whatsapp/:id/token. The database default (two random
     * UUIDs, 244 bits) covers rows inserted without one.
     */
    token: text()
      .notNull()
      .default(sql`replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')`),
    expiresInactiveMessage: text().notNull().default(''),
    /** Close open tickets inactive for this many minutes (0: never). */
    expiresTicket: integer().notNull().default(0),
    timeUseBotQueues: integer().notNull().default(0),
    maxUseBotQueues: integer().notNull().default(3),
    /** Move waiting tickets to transferQueueId after this many minutes (0: never). */
    timeToTransfer: integer().notNull().default(0),
    transferQueueId: optionalRef(() => queues.id),
    promptId: integer(),
    integrationId: integer(),
    /**
     * The welcome flow: started for a new ticket of this connection when no flow
     * campaign's phrase matched. Deleting the flow clears it; an inactive flow simply does not start.
     */
    flowIdWelcome: optionalRef((): AnyPgColumn => flows.id),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('whatsapps_company_name_key').on(t.companyId, t.name),
    uniqueIndex('whatsapps_token_key').on(t.token),
    uniqueIndex('whatsapps_company_default_key').on(t.companyId).where(sql`${t.isDefault}`),
    index('whatsapps_status_idx').on(t.status),
    index('whatsapps_flow_id_welcome_idx').on(t.flowIdWelcome),
  ],
);

/** Queues served by a connection. */
export const whatsappQueues = pgTable(
  'whatsapp_queues',
  {
    companyId: companyRef(),
    whatsappId: parentRef(() => whatsapps.id),
    queueId: parentRef(() => queues.id),
  },
  (t) => [
    primaryKey({ columns: [t.whatsappId, t.queueId] }),
    index('whatsapp_queues_company_idx').on(t.companyId),
  ],
);

/**
 * Driver session state (Baileys credentials and signal keys), one row per key, values encrypted at
 * rest (AES-256-GCM, key from config/DATA_DIR).
 */
export const whatsappSessions = pgTable(
  'whatsapp_sessions',
  {
    companyId: companyRef(),
    whatsappId: parentRef(() => whatsapps.id),
    key: text().notNull(),
    value: text().notNull(),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.whatsappId, t.key] })],
);

/**
 * Which server node runs a connection's session (Postgres deployments with several nodes): one row
 * per connection, renewed by its owner before `expiresAt`; a lapsed lease is taken over by another
 * node. Only the owner runs the driver, so a WhatsApp number never has two sessions.
 */
export const whatsappLeases = pgTable(
  'whatsapp_leases',
  {
    whatsappId: extensionKey(() => whatsapps.id),
    companyId: companyRef(),
    owner: text().notNull(),
    expiresAt: timestamptz().notNull(),
  },
  (t) => [index('whatsapp_leases_owner_idx').on(t.owner)],
);
