import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { companies } from './companies.js';
import { contactLists } from './contact-lists.js';
import { fileLists } from './files.js';
import { tags } from './tags.js';
import { contacts } from './tickets.js';
import { timestamps } from './timestamps.js';
import { whatsapps } from './whatsapps.js';

/**
 * Campaigns (document 2 sections 3 and 4): up to five message variants sent to a
 * contact list or the contacts of a tag on one connection. `status` INATIVA, PROGRAMADA,
 * EM_ANDAMENTO, CANCELADA, FINALIZADA.
 */
export const campaigns = pgTable(
  'campaigns',
  {
    id: serial().primaryKey(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    status: text({ enum: ['INATIVA', 'PROGRAMADA', 'EM_ANDAMENTO', 'CANCELADA', 'FINALIZADA'] })
      .notNull()
      .default('INATIVA'),
    message1: text().notNull().default(''),
    message2: text().notNull().default(''),
    message3: text().notNull().default(''),
    message4: text().notNull().default(''),
    message5: text().notNull().default(''),
    confirmation: boolean().notNull().default(false),
    confirmationMessage1: text().notNull().default(''),
    confirmationMessage2: text().notNull().default(''),
    confirmationMessage3: text().notNull().default(''),
    confirmationMessage4: text().notNull().default(''),
    confirmationMessage5: text().notNull().default(''),
    scheduledAt: timestamp({ withTimezone: true }),
    completedAt: timestamp({ withTimezone: true }),
    whatsappId: integer().references(() => whatsapps.id, { onDelete: 'set null' }),
    contactListId: integer().references(() => contactLists.id, { onDelete: 'set null' }),
    tagId: integer().references(() => tags.id, { onDelete: 'set null' }),
    fileListId: integer().references(() => fileLists.id, { onDelete: 'set null' }),
    mediaPath: text(),
    mediaName: text(),
    templateName: text(),
    templateLanguage: text(),
    ...timestamps,
  },
  (t) => [
    index('campaigns_company_id_idx').on(t.companyId, t.id),
    index('campaigns_company_name_idx').on(t.companyId, t.name),
  ],
);

/**
 * One recipient of a campaign (a "shipping"), unique per campaign and number. `status` pending until
 * the pace job hands its message to the outbound sender (delivered, in the same transaction that
 * stores the outbound message), failed when the provider refused it, skipped when the number opted
 * out. `whatsappId` is the connection that sends it (the claim index).
 */
export const campaignShippings = pgTable(
  'campaign_shippings',
  {
    id: serial().primaryKey(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    campaignId: integer()
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    whatsappId: integer().references(() => whatsapps.id, { onDelete: 'set null' }),
    number: text().notNull(),
    name: text().notNull().default(''),
    contactId: integer().references(() => contacts.id, { onDelete: 'set null' }),
    status: text({ enum: ['pending', 'delivered', 'failed', 'skipped'] })
      .notNull()
      .default('pending'),
    variant: integer(),
    message: text(),
    /** The outbound message that carries it (messages.id). */
    messageId: integer(),
    error: text(),
    deliveredAt: timestamp({ withTimezone: true }),
    confirmationRequestedAt: timestamp({ withTimezone: true }),
    confirmedAt: timestamp({ withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('campaign_shippings_campaign_number_key').on(t.campaignId, t.number),
    index('campaign_shippings_claim_idx').on(t.whatsappId, t.id).where(sql`${t.status} = 'pending'`),
    index('campaign_shippings_campaign_status_idx').on(t.campaignId, t.status),
    index('campaign_shippings_company_idx').on(t.companyId, t.campaignId),
    // The answer that confirms a shipping is looked up by connection and number (confirmFromInbound).
    index('campaign_shippings_awaiting_confirmation_idx')
      .on(t.whatsappId, t.number, t.confirmationRequestedAt)
      .where(sql`${t.confirmationRequestedAt} is not null and ${t.confirmedAt} is null`),
  ],
);

/** Campaign settings of a company (document 2 section 3 plus ours; defaults in the shared schema). */
export const campaignSettings = pgTable('campaign_settings', {
  companyId: integer()
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  messageInterval: integer().notNull().default(20),
  longerIntervalAfter: integer().notNull().default(20),
  greaterInterval: integer().notNull().default(60),
  variables: jsonb().$type<{ key: string; value: string }[]>().notNull().default([]),
  jitterSeconds: integer().notNull().default(5),
  sendWindowStart: text().notNull().default('08:00'),
  sendWindowEnd: text().notNull().default('20:00'),
  dailyCap: integer().notNull().default(1000),
  optOutKeyword: text().notNull().default('SAIR'),
  ...timestamps,
});

/**
 * The pace of campaign sends on one connection, shared by every campaign on it: when the next send
 * may happen (`nextAt`), sends since the last longer pause (`sentInRun`), and sends on the local
 * day `day` (yyyy-MM-dd, company time zone) for the daily cap.
 */
export const campaignPace = pgTable('campaign_pace', {
  whatsappId: integer()
    .primaryKey()
    .references(() => whatsapps.id, { onDelete: 'cascade' }),
  companyId: integer()
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  nextAt: timestamp({ withTimezone: true }),
  lastSentAt: timestamp({ withTimezone: true }),
  sentInRun: integer().notNull().default(0),
  day: text().notNull().default(''),
  sentToday: integer().notNull().default(0),
  ...timestamps,
});

/** Numbers that answered the opt-out keyword: every later campaign of the company skips them. */
export const campaignOptOuts = pgTable(
  'campaign_opt_outs',
  {
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    number: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.number] })],
);
