import type { NormalizedMessage, PresenceState } from '@zapdesk/shared';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { messages } from '../db/schema/index.js';
import type { JobQueue } from '../jobs/job-queue.js';
import type { CompanyCache } from '../lib/company-cache.js';
import { withoutNulBytes } from '../lib/input-guard.js';
import { readIgnoresGroups, SETTINGS_WRITE, storeMedia } from './inbound/intake.js';
import { createLanes, enqueue, type Lane } from './inbound/lanes.js';
import { withoutBidiInNames } from './inbound/message-shape.js';
import {
  type BatchOptions,
  type ConnectionRef,
  DEFAULT_BATCHING,
  type InboundParts,
  type IngestResult,
} from './inbound/types.js';
import {
  AckQueues,
  editMessage,
  emitContactPresence,
  removeMessage,
  updateContact,
} from './inbound/updates.js';
import type { MediaStore } from './media-store.js';
import { emitMessageUpdates } from './message-events.js';

export { previewOf, withoutBidiInNames } from './inbound/message-shape.js';
export type { BatchOptions, ConnectionRef, IngestResult } from './inbound/types.js';

/**
 * The inbound pipeline: the drivers' entry point for what a connection receives. De-duplicates by
 * (connection, provider id). Messages arriving within a few milliseconds are stored together (group
 * commit): `ingest()` puts a message in the lane of its chat (a chat always uses the same lane, so
 * its messages keep their order) and each lane runs one batch at a time — the messages that arrived
 * during the previous batch, or within `windowMs` of the first one when the lane was idle
 * (inbound/lanes.ts). A batch stores its steady-state messages (known contact, live ticket, no
 * chatbot job) with one multi-row statement (inbound-batch.ts), which is its own transaction and
 * answers the event payloads; the others (new contact or conversation, chatbot job, reaction,
 * rating answer, and the later messages of their chats) go through one transaction (`transactions`
 * side by side at most; each chat in one of them, its messages in order), written batch-wide
 * (inbound/write-many.ts): upsert the contacts; find the live ticket of each (company, contact,
 * connection), reopen the contact's last closed ticket on this connection, or create one as pending
 * (a partial unique index keeps one live ticket); store the messages; queue the chatbot jobs in the
 * same transaction. A batch whose statement or transaction fails is retried message by message
 * (each with its own retries, inbound/write-one.ts), so one poisoned message fails alone. After
 * commit it emits `contact` create to the company when the upsert inserted the contact, then
 * `appMessage` create and `ticket` update to the rooms allowed to see the ticket
 * (inbound/events.ts). Returns undefined for a duplicate or an ignored message (group messages
 * while CheckMsgIsGroup is enabled). Acks, edits, deletions and contact updates: inbound/updates.ts.
 */
export class InboundPipeline {
  private readonly acks: AckQueues;
  private readonly batching: BatchOptions;
  private readonly lanes: Lane[];
  /** What the storing functions share with this pipeline (see InboundParts). */
  private readonly parts: InboundParts;
  /** Whether each company ignores group messages (per-node cache, when the app keeps caches). */
  private readonly groupsIgnored?: CompanyCache<boolean>;
  /**
   * Counters (tests, benchmarks): batches run, messages they held, the largest one, and the batch
   * statements or transactions that failed and were retried message by message.
   */
  readonly stats = { batches: 0, messages: 0, largest: 0, retriedAlone: 0 };
  /**
   * Called after a message was stored (not for duplicates or ignored ones), in order; a failure is
   * logged, never thrown to the driver. Campaign opt-outs listen here.
   */
  readonly observers: ((connection: ConnectionRef, result: IngestResult) => Promise<void>)[] = [];

  /**
   * @param ctx the app; its `inbound` (read now) holds what the pipeline asks of the layers above.
   * @param media where downloaded media is stored.
   * @param jobs where customer messages the chatbot may answer are queued (in the message's
   *   transaction); none without it.
   * @param batching group-commit knobs over DEFAULT_BATCHING.
   * @throws Error when `ctx.inbound` is not wired (a context built without buildApp).
   */
  constructor(
    private readonly ctx: AppContext,
    private readonly media: MediaStore,
    jobs?: JobQueue,
    batching: Partial<BatchOptions> = {},
  ) {
    this.groupsIgnored = ctx.caches?.define({
      topic: 'settings',
      localWrite: SETTINGS_WRITE,
      load: (companyId) => readIgnoresGroups(ctx, companyId),
    });
    this.batching = { ...DEFAULT_BATCHING, ...batching };
    this.lanes = createLanes(this.batching.lanes);
    this.acks = new AckQueues(ctx);
    if (!ctx.inbound) throw new Error('the inbound pipeline needs ctx.inbound (wired by buildApp)');
    this.parts = {
      ctx,
      jobs,
      automation: ctx.inbound.automation,
      records: ctx.inbound.records,
      batching: this.batching,
      stats: this.stats,
    };
  }

  /**
   * Stores one message (driver entry point): resolves after its batch committed and its events were
   * emitted, with the stored message and its ticket, or undefined for a duplicate or an ignored
   * message. Rejects with the error of this message alone (its batch-mates are retried apart).
   */
  async ingest(connection: ConnectionRef, received: NormalizedMessage): Promise<IngestResult | undefined> {
    const { db } = this.ctx;
    const message = withoutBidiInNames(withoutNulBytes(received));
    if (message.isGroup && (await this.ignoresGroups(connection.companyId))) return undefined;
    // The unique index de-duplicates when storing; this early look only spares a redelivered
    // message's media from being downloaded again.
    if (message.media) {
      const [seen] = await db
        .select({ id: messages.id })
        .from(messages)
        .where(and(eq(messages.whatsappId, connection.id), eq(messages.wid, message.providerId)));
      if (seen) return undefined;
    }
    const media = await storeMedia(this.ctx, this.media, connection.companyId, message);
    const result = await new Promise<IngestResult | undefined>((resolve, reject) => {
      enqueue(this.parts, this.lanes, { connection, message, media, seq: 0, resolve, reject });
    });
    if (result) {
      for (const observe of this.observers) {
        await observe(connection, result).catch((error) =>
          this.ctx.log.error({ err: error }, 'inbound observer failed'),
        );
      }
    }
    return result;
  }

  /** Whether the company ignores group messages (CheckMsgIsGroup), from the cache when there is one. */
  private async ignoresGroups(companyId: number): Promise<boolean> {
    return this.groupsIgnored ? this.groupsIgnored.get(companyId) : readIgnoresGroups(this.ctx, companyId);
  }

  /**
   * Applies a delivery ack to a message sent by the connection; acks only move forward, and one
   * connection's acks are stored and emitted in order (see AckQueues). Resolves once this ack's
   * batch is stored and emitted.
   */
  ack(connection: ConnectionRef, providerId: string, ack: number): Promise<void> {
    return this.acks.ack(connection, providerId, ack);
  }

  /** Marks a message edited with its new body. */
  async edit(connection: ConnectionRef, providerId: string, body: string): Promise<void> {
    await editMessage(this.ctx, connection, providerId, body);
  }

  /** Marks a message deleted for everyone. */
  async remove(connection: ConnectionRef, providerId: string): Promise<void> {
    await removeMessage(this.ctx, connection, providerId);
  }

  /** Updates a contact's name or picture and emits `contact` update. */
  async contact(
    connection: ConnectionRef,
    update: { number: string; name?: string; profilePicUrl?: string | null },
  ): Promise<void> {
    await updateContact(this.ctx, connection, update);
  }

  /** A contact's typing or recording, to those who can see its live tickets on the connection. */
  async presence(
    connection: ConnectionRef,
    update: { number: string; presence: PresenceState },
  ): Promise<void> {
    await emitContactPresence(this.ctx, connection, update);
  }

  /** Emits `appMessage` update for changed messages, to their tickets' rooms. */
  async emitUpdates(companyId: number, ids: number[]): Promise<void> {
    await emitMessageUpdates(this.ctx, companyId, ids);
  }
}
