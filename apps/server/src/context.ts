import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Contact } from '@zapdesk/shared';
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RedisClientType } from 'redis';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/client.js';
import type { contacts } from './db/schema/index.js';
import type { CompanyCaches } from './lib/company-cache.js';
import type { NotifyListener } from './lib/notify-listener.js';
import type { NotifySignal } from './lib/notify-signal.js';
import type { OutboundPolicy } from './lib/outbound-url.js';
import type { Secrets } from './lib/secrets.js';
import type { AuthCache } from './modules/auth/auth-cache.js';
import type { findMessage, toMessage } from './modules/messages/message-repository.js';
import type { findTicket, toTicket } from './modules/tickets/ticket-repository.js';
import type { Realtime } from './realtime/realtime.js';

/** What services need: database, configuration, secrets, realtime emitter, logger. */
export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  db: DatabaseHandle['db'];
  secrets: Secrets;
  realtime: Realtime;
  log: FastifyBaseLogger;
  /** Redis, when REDIS_URL is set: state shared by every node (login limits). */
  redis?: RedisClientType;
  /** The auth guard's per-node cache (see AuthCache); absent in contexts built without buildApp. */
  authCache?: AuthCache;
  /** Per-node caches of per-company values (see CompanyCaches); absent in contexts built without buildApp. */
  caches?: CompanyCaches;
  /** The node's one LISTEN connection, carrying authCache and caches; absent without buildApp. */
  notifications?: NotifyListener;
  /** Wakes this node when another gives its session leases back (graceful stop); absent without buildApp. */
  leaseReleases?: NotifySignal;
  /** Wakes this node's job workers when a job is queued or freed on any node (JobQueue `wakes`); absent without buildApp. */
  jobWakes?: NotifySignal;
  /**
   * Seams of the outbound-URL policy (a resolver, an address judge) that tests set to treat a local
   * server as public; unset in production.
   */
  outbound?: Pick<OutboundPolicy, 'resolve' | 'isAllowedAddress'>;
  /**
   * What the inbound pipeline (channels) asks of the layers above it, wired by buildApp; absent in
   * contexts built without it, which build no pipeline.
   */
  inbound?: { automation: InboundAutomation; records: InboundRecords };
}

/**
 * The automation as the inbound pipeline (channels) sees it: implemented by the composition root
 * with the queue chatbot's job and the ratings, so that the pipeline imports nothing above it.
 */
export interface InboundAutomation {
  /** The job queued, in the message's transaction, for a customer message the chatbot may answer. */
  botJob: string;
  /** Whether a customer's text answers the rating question (a closed ticket awaiting one keeps it). */
  isRatingAnswer(body: string): boolean;
  /**
   * The service levels' plan job (`{ companyId }`), queued in the transaction that opened or
   * reopened tickets in a queue with targets, once per company (decision 0124).
   */
  slaPlanJob: string;
}

/**
 * The API shapes of stored records as the inbound pipeline emits them: implemented by the
 * composition root with the messages', tickets' and contacts' own mappers and readers.
 */
export interface InboundRecords {
  /** A message row joined with its contact's name and quoted message, in the API shape. */
  toMessage: typeof toMessage;
  /** A ticket row joined with its contact, user, queue, connection and tags, in the API shape. */
  toTicket: typeof toTicket;
  /** The company's message of that id in the API shape; undefined when there is none. */
  findMessage: typeof findMessage;
  /** The company's ticket of that id in the API shape; undefined when there is none. */
  findTicket: typeof findTicket;
  /** A contact row in the API shape, with its extra info rows and its connection (null: none yet). */
  toContact(
    row: typeof contacts.$inferSelect,
    extraInfo: { id: number; name: string; value: string }[],
    whatsapp: { id: number; name: string } | null,
  ): Contact;
}

/** The payload of the chatbot's job (`InboundAutomation.botJob`): the message to answer and its ticket. */
export interface InboundBotJob {
  companyId: number;
  ticketId: number;
  messageId: number;
  /** The message created (or reopened) the ticket. */
  ticketCreated: boolean;
}

/** Fastify instance with the zod type provider, as route modules receive it. */
export type ZodApp = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;
