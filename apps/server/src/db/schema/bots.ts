import { doublePrecision, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { optionalRef, parentRef, timestamps, timestamptz } from './columns.js';
import { queues } from './queues.js';
import { companyRef, companyTable } from './tenant.js';
import { tickets } from './tickets.js';

/**
 * AI prompts (document 2 section 3 "Prompt"): an assistant answering the tickets of the queues and
 * connections whose `promptId` points here. `apiKey` is encrypted at rest (lib/secrets.ts
 * `encryptSecret`); `queueId` is the queue the ticket goes to when the customer asks for a human.
 */
export const prompts = companyTable(
  'prompts',
  {
    name: text().notNull(),
    prompt: text().notNull(),
    model: text().notNull().default('gpt-3.5-turbo-1106'),
    maxTokens: integer().notNull().default(100),
    temperature: doublePrecision().notNull().default(1),
    maxMessages: integer().notNull().default(10),
    apiKey: text().notNull(),
    queueId: optionalRef(() => queues.id),
    ...timestamps,
  },
  (t) => [index('prompts_company_name_idx').on(t.companyId, t.name)],
);

/**
 * Queue integrations (document 2 section 3 "Queue integration"): an outside bot (typebot, n8n,
 * webhook, dialogflow, flowbuilder) answering the tickets of the queues and connections whose
 * `integrationId` points here. `jsonContent` (a Dialogflow service-account key) is encrypted at
 * rest; `secret` signs the n8n/webhook requests (HMAC-SHA256).
 */
export const queueIntegrations = companyTable(
  'queue_integrations',
  {
    type: text({ enum: ['dialogflow', 'n8n', 'webhook', 'typebot', 'flowbuilder'] }).notNull(),
    name: text().notNull(),
    projectName: text().notNull().default(''),
    jsonContent: text().notNull().default(''),
    language: text().notNull().default('pt-BR'),
    urlN8N: text('url_n8n').notNull().default(''),
    typebotSlug: text().notNull().default(''),
    typebotExpires: integer().notNull().default(1),
    typebotDelayMessage: integer().notNull().default(1000),
    typebotKeywordFinish: text().notNull().default(''),
    typebotKeywordRestart: text().notNull().default(''),
    typebotRestartMessage: text().notNull().default(''),
    typebotUnknownMessage: text().notNull().default(''),
    secret: text().notNull(),
    ...timestamps,
  },
  (t) => [index('queue_integrations_company_name_idx').on(t.companyId, t.name)],
);

/**
 * A bot's conversation state on one ticket (typebot session id and expected input, Dialogflow
 * session, flow builder request): one row per ticket, removed when the bot hands the ticket back.
 */
export const botSessions = pgTable(
  'bot_sessions',
  {
    ticketId: parentRef(() => tickets.id),
    companyId: companyRef(),
    integrationId: parentRef(() => queueIntegrations.id),
    /** The outside session id (Typebot's sessionId), empty when none is open. */
    sessionId: text().notNull().default(''),
    /** Runner-specific state (e.g. the choices Typebot offered last). */
    state: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    /** Last exchange with the customer: a Typebot session older than typebotExpires starts anew. */
    lastActivityAt: timestamptz().notNull().defaultNow(),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.ticketId] })],
);
