import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import {
  createdAtColumn,
  extensionKey,
  mediaColumns,
  optionalRef,
  parentRef,
  timestamps,
  timestamptz,
} from './columns.js';
import { companies } from './companies.js';
import { contactLists } from './contact-lists.js';
import { fileLists } from './files.js';
import { tags } from './tags.js';
import { companyRef, companyTable } from './tenant.js';
import { contacts } from './tickets.js';
import { whatsapps } from './whatsapps.js';

/**
 * Campaigns (document 2 sections 3 and 4): up to five message variants sent to a
 * contact list or the contacts of a tag on one connection. `status` INATIVA, PROGRAMADA,
 * EM_ANDAMENTO, CANCELADA, FINALIZADA.
 */
export const campaigns = companyTable(
  'campaigns',
  {
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
    scheduledAt: timestamptz(),
    completedAt: timestamptz(),
    whatsappId: optionalRef(() => whatsapps.id),
    contactListId: optionalRef(() => contactLists.id),
    tagId: optionalRef(() => tags.id),
    fileListId: optionalRef(() => fileLists.id),
    ...mediaColumns(),
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
export const campaignShippings = companyTable(
  'campaign_shippings',
  {
    campaignId: parentRef(() => campaigns.id),
    whatsappId: optionalRef(() => whatsapps.id),
    number: text().notNull(),
    name: text().notNull().default(''),
    contactId: optionalRef(() => contacts.id),
    status: text({ enum: ['pending', 'delivered', 'failed', 'skipped'] })
      .notNull()
      .default('pending'),
    variant: integer(),
    message: text(),
    /** The outbound message that carries it (messages.id). */
    messageId: integer(),
    error: text(),
    deliveredAt: timestamptz(),
    confirmationRequestedAt: timestamptz(),
    confirmedAt: timestamptz(),
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
  companyId: extensionKey(() => companies.id),
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
  whatsappId: extensionKey(() => whatsapps.id),
  companyId: companyRef(),
  nextAt: timestamptz(),
  lastSentAt: timestamptz(),
  sentInRun: integer().notNull().default(0),
  day: text().notNull().default(''),
  sentToday: integer().notNull().default(0),
  ...timestamps,
});

/** Numbers that answered the opt-out keyword: every later campaign of the company skips them. */
export const campaignOptOuts = pgTable(
  'campaign_opt_outs',
  {
    companyId: companyRef(),
    number: text().notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.number] })],
);
