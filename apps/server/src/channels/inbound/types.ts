/**
 * The shapes the parts of the inbound pipeline share: the connection a message arrived on, what
 * storing it answers, the group-commit knobs, a message waiting for its batch and what the
 * transaction path wrote for it.
 */
import type { Message, NormalizedMessage, Ticket } from '@zapdesk/shared';
import type { AppContext, InboundAutomation, InboundRecords } from '../../context.js';
import type { contacts } from '../../db/schema/index.js';
import type { JobQueue } from '../../jobs/job-queue.js';

/** The connection a driver belongs to. */
export interface ConnectionRef {
  id: number;
  companyId: number;
}

/** A stored inbound message with its ticket (after commit). */
export interface IngestResult {
  message: Message;
  ticket: Ticket;
  /** The ticket was created or reopened by this message. */
  ticketCreated: boolean;
}

/** Thrown inside a write when the message's provider id is stored already (nothing is kept). */
export class Duplicate extends Error {}

/** A message's media after download: stored name, file name, or the download error. */
export interface StoredMedia {
  name: string | null;
  fileName: string | null;
  error: string | null;
}

/** Group-commit knobs of the inbound pipeline. */
export interface BatchOptions {
  /** How long the first message reaching an idle lane waits for others to join its batch (ms). */
  windowMs: number;
  /** The most messages one batch takes. */
  maxBatch: number;
  /** Independent batch lanes (each runs one batch at a time); a chat always uses the same lane. */
  lanes: number;
  /** The most transactions a batch spreads its new conversations over (run side by side). */
  transactions: number;
}

/**
 * The knobs a pipeline uses where its constructor sets none. One lane (decision 0024, amended
 * 2026-11-28): two lanes' batches ran side by side, each half the size; one lane batches all that
 * waits (bench/ingest: C = 8 797 → 1,221 msg/s at 1.01 instead of 1.79 ms of CPU per message,
 * C = 64 731 → 2,125 msg/s with p99 256 → 66 ms).
 */
export const DEFAULT_BATCHING: BatchOptions = { windowMs: 1, maxBatch: 128, lanes: 1, transactions: 1 };

/** A message waiting in a lane for its batch, with the settlement of its `ingest()` call. */
export interface Pending {
  connection: ConnectionRef;
  message: NormalizedMessage;
  media: StoredMedia;
  /** Position in the batch (arrival order). */
  seq: number;
  resolve(result: IngestResult | undefined): void;
  reject(error: unknown): void;
}

/** What the transaction path wrote for one message (see `write` in write-one.ts). */
export interface Written {
  messageId: number;
  ticketId: number;
  ticketCreated: boolean;
  botQueued: boolean;
  /** The contact row when this message created it (for the `contact` create event). */
  newContact?: typeof contacts.$inferSelect;
  /** The event payloads, when the statements that stored the message answered them. */
  payload?: { message: Message; ticket: Ticket };
}

/**
 * Counters (tests, benchmarks): batches run, messages they held, the largest one, and the batch
 * statements or transactions that failed and were retried message by message.
 */
export interface InboundStats {
  batches: number;
  messages: number;
  largest: number;
  retriedAlone: number;
}

/** What the storing functions share with the pipeline that calls them. */
export interface InboundParts {
  readonly ctx: AppContext;
  /** Where customer messages the chatbot may answer are queued (in the message's transaction). */
  readonly jobs?: JobQueue;
  /** The chatbot's job and the rating question, as the composition root wired them. */
  readonly automation: InboundAutomation;
  /** The API shapes of the messages, tickets and contacts it emits. */
  readonly records: InboundRecords;
  readonly batching: BatchOptions;
  readonly stats: InboundStats;
}
