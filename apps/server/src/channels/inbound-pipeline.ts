import type { Message, NormalizedMessage, Ticket } from '@zapdesk/shared';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import mime from 'mime-types';
import { QUEUE_BOT_JOB, type QueueBotJob } from '../automation/jobs.js';
import { isRatingAnswer } from '../automation/ratings.js';
import type { AppContext } from '../context.js';
import type { Tx } from '../db/client.js';
import { contacts, messages, settings, tickets, whatsappQueues } from '../db/schema/index.js';
import type { JobQueue } from '../jobs/job-queue.js';
import { pgErrorCode } from '../lib/db-errors.js';
import { numberVariants } from '../modules/contacts/phone-number.js';
import { findMessage } from '../modules/messages/message-repository.js';
import { findTicket } from '../modules/tickets/ticket-repository.js';
import type { MediaStore } from './media-store.js';
import { emitMessageUpdates } from './message-events.js';

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

class Duplicate extends Error {}

const RETRYABLE = new Set(['23505', '40001', '40P01']);

/** The ticket list's preview of a message body. */
export function previewOf(
  message: Pick<NormalizedMessage, 'body' | 'mediaType'> & { fileName?: string },
): string {
  if (message.mediaType === 'locationMessage') return message.body.split('|')[2] || '📍';
  if (message.mediaType === 'vcard' || message.mediaType === 'contactMessage') return '👤';
  if (message.body) return message.body.slice(0, 255);
  return message.fileName ?? message.mediaType;
}

/**
 * The inbound pipeline (issue: messaging engine, point 4). One transaction per message:
 * de-duplicate by (connection, provider id); upsert the contact; find the live ticket of
 * (company, contact, connection), reopen the contact's last closed ticket on this connection, or
 * create one as pending (a partial unique index keeps one live ticket, and a conflict retries);
 * store the message; update lastMessage, unreadMessages and updatedAt. After commit it emits
 * `appMessage` create and `ticket` update to the rooms allowed to see the ticket.
 * Returns undefined for a duplicate or an ignored message (group messages while CheckMsgIsGroup
 * is enabled).
 */
export class InboundPipeline {
  private readonly ackChains = new Map<number, Promise<void>>();

  constructor(
    private readonly ctx: AppContext,
    private readonly media: MediaStore,
    /** Where customer messages the chatbot may answer are queued (in the message's transaction). */
    private readonly jobs?: JobQueue,
  ) {}

  async ingest(connection: ConnectionRef, message: NormalizedMessage): Promise<IngestResult | undefined> {
    const { db } = this.ctx;
    if (message.isGroup && (await this.ignoresGroups(connection.companyId))) return undefined;
    // The unique index de-duplicates inside the transaction; this early look only spares a
    // redelivered message's media from being downloaded again.
    if (message.media) {
      const [seen] = await db
        .select({ id: messages.id })
        .from(messages)
        .where(and(eq(messages.whatsappId, connection.id), eq(messages.wid, message.providerId)));
      if (seen) return undefined;
    }
    const stored = await this.storeMedia(connection.companyId, message);
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await db.transaction((tx) => this.write(tx, connection, message, stored));
        if (result.botQueued) this.jobs?.wake(QUEUE_BOT_JOB);
        const [full, ticket] = await Promise.all([
          findMessage(db, connection.companyId, result.messageId),
          findTicket(db, connection.companyId, result.ticketId),
        ]);
        if (!full || !ticket) return undefined;
        this.ctx.realtime.toTicket(ticket, 'appMessage', {
          action: 'create',
          message: full,
          ticket,
          contact: ticket.contact,
        });
        this.ctx.realtime.toTicket(ticket, 'ticket', { action: 'update', ticket });
        return { message: full, ticket, ticketCreated: result.ticketCreated };
      } catch (error) {
        if (error instanceof Duplicate) return undefined;
        if (attempt < 5 && RETRYABLE.has(pgErrorCode(error) ?? '')) continue;
        throw error;
      }
    }
  }

  private async ignoresGroups(companyId: number): Promise<boolean> {
    const [row] = await this.ctx.db
      .select({ value: settings.value })
      .from(settings)
      .where(and(eq(settings.companyId, companyId), eq(settings.key, 'CheckMsgIsGroup')));
    return row?.value === 'enabled';
  }

  private async storeMedia(
    companyId: number,
    message: NormalizedMessage,
  ): Promise<{ name: string | null; fileName: string | null; error: string | null }> {
    if (!message.media) return { name: null, fileName: null, error: null };
    try {
      const data = await message.media.download();
      const ext = mime.extension(message.media.mimetype) || 'bin';
      const name = await this.media.save(companyId, data, ext);
      return { name, fileName: message.media.fileName ?? `${message.mediaType}.${ext}`, error: null };
    } catch (error) {
      this.ctx.log.warn({ err: error, providerId: message.providerId }, 'media download failed');
      return { name: null, fileName: message.media.fileName ?? null, error: 'ERR_WAPP_DOWNLOAD_MEDIA' };
    }
  }

  private async write(
    tx: Tx,
    connection: ConnectionRef,
    message: NormalizedMessage,
    media: { name: string | null; fileName: string | null; error: string | null },
  ): Promise<{ messageId: number; ticketId: number; ticketCreated: boolean; botQueued: boolean }> {
    const companyId = connection.companyId;
    const contactName = message.isGroup
      ? message.chatId
      : message.fromMe
        ? message.chatId
        : message.senderName || message.chatId;
    // A Brazilian mobile number may arrive with or without its ninth digit: use the stored form.
    let number = message.chatId;
    const variants = message.isGroup ? [number] : numberVariants(number);
    if (variants.length > 1) {
      const [known] = await tx
        .select({ number: contacts.number })
        .from(contacts)
        .where(and(eq(contacts.companyId, companyId), inArray(contacts.number, variants)))
        .limit(1);
      if (known) number = known.number;
    }
    const [contact] = await tx
      .insert(contacts)
      .values({ companyId, number, name: contactName, isGroup: message.isGroup })
      .onConflictDoUpdate({
        target: [contacts.companyId, contacts.number],
        set:
          message.fromMe || message.isGroup || !message.senderName
            ? { updatedAt: sql`${contacts.updatedAt}` }
            : { name: message.senderName, updatedAt: sql`now()` },
      })
      .returning({ id: contacts.id });
    const contactId = contact!.id;
    const live = await this.liveTicket(tx, companyId, contactId, connection.id, message);
    const { ticketId, created } = live;

    const [quoted, reacted] = await Promise.all([
      this.byProviderId(tx, connection.id, message.quotedProviderId),
      this.byProviderId(tx, connection.id, message.reactionToProviderId),
    ]);
    const at = new Date(Math.min(message.timestamp, Date.now()));
    const [row] = await tx
      .insert(messages)
      .values({
        companyId,
        ticketId,
        contactId,
        whatsappId: connection.id,
        wid: message.providerId,
        body: message.body,
        fromMe: message.fromMe,
        mediaType: message.mediaType,
        mediaUrl: media.name,
        mediaName: media.fileName,
        ack: message.fromMe ? 1 : 0,
        read: message.fromMe,
        quotedMsgId: quoted ?? null,
        reactionToId: reacted ?? null,
        participant: message.isGroup ? message.senderNumber : null,
        error: media.error,
        createdAt: at,
        updatedAt: at,
      })
      .onConflictDoNothing({ target: [messages.whatsappId, messages.wid] })
      .returning({ id: messages.id });
    if (!row) throw new Duplicate();
    // The chatbot answers customer messages on tickets no human holds, and rating answers.
    const botQueued = !!this.jobs && !message.fromMe && !message.isGroup && live.botMayAnswer;
    if (botQueued) {
      await this.jobs!.send<QueueBotJob>(
        QUEUE_BOT_JOB,
        { companyId, ticketId, messageId: row.id, ticketCreated: created },
        { tx },
      );
    }
    if (message.mediaType !== 'reaction') {
      await tx
        .update(tickets)
        .set({
          lastMessage: previewOf({ ...message, fileName: media.fileName ?? undefined }),
          unreadMessages: message.fromMe
            ? sql`${tickets.unreadMessages}`
            : sql`${tickets.unreadMessages} + 1`,
          updatedAt: sql`now()`,
        })
        .where(eq(tickets.id, ticketId));
    }
    return { messageId: row.id, ticketId, ticketCreated: created, botQueued };
  }

  /**
   * The live ticket of the contact on the connection: existing, reopened or new (pending). A closed
   * ticket waiting for a rating keeps the customer's 1..3 answer instead of reopening. A reopened
   * ticket starts over: routed like a new one, the chatbot from the start.
   */
  private async liveTicket(
    tx: Tx,
    companyId: number,
    contactId: number,
    whatsappId: number,
    message: NormalizedMessage,
  ): Promise<{ ticketId: number; created: boolean; botMayAnswer: boolean }> {
    const isGroup = message.isGroup;
    const scope = and(
      eq(tickets.companyId, companyId),
      eq(tickets.contactId, contactId),
      eq(tickets.whatsappId, whatsappId),
    );
    const [live] = await tx
      .select({ id: tickets.id, status: tickets.status, userId: tickets.userId, chatbot: tickets.chatbot })
      .from(tickets)
      .where(and(scope, sql`${tickets.status} <> 'closed'`))
      .for('update');
    if (live) {
      // Past a conversation's first message the bot only has something to say while its menu is
      // open (chatbot on); otherwise no job is queued for the message.
      const botMayAnswer = live.status === 'pending' && live.userId === null && live.chatbot;
      return { ticketId: live.id, created: false, botMayAnswer };
    }
    const [lastClosed] = await tx
      .select({ id: tickets.id, awaitingRating: tickets.awaitingRating })
      .from(tickets)
      .where(and(scope, eq(tickets.status, 'closed')))
      .orderBy(desc(tickets.updatedAt), desc(tickets.id))
      .limit(1)
      .for('update');
    if (lastClosed?.awaitingRating && !message.fromMe && isRatingAnswer(message.body)) {
      return { ticketId: lastClosed.id, created: false, botMayAnswer: true };
    }
    // A connection with exactly one queue routes its new tickets there (document 2, queues).
    const connectionQueues = await tx
      .select({ queueId: whatsappQueues.queueId })
      .from(whatsappQueues)
      .where(and(eq(whatsappQueues.companyId, companyId), eq(whatsappQueues.whatsappId, whatsappId)))
      .limit(2);
    const queueId = connectionQueues.length === 1 ? connectionQueues[0]!.queueId : null;
    if (lastClosed) {
      const [reopened] = await tx
        .update(tickets)
        .set({
          status: 'pending',
          userId: null,
          queueId,
          queueOptionId: null,
          chatbot: false,
          amountUsedBotQueues: 0,
          awaitingRating: false,
          unreadMessages: 0,
          closedAt: null,
          acceptedAt: null,
          updatedAt: sql`now()`,
        })
        .where(and(eq(tickets.id, lastClosed.id), eq(tickets.status, 'closed')))
        .returning({ id: tickets.id });
      if (reopened) return { ticketId: reopened.id, created: true, botMayAnswer: true };
    }
    const [inserted] = await tx
      .insert(tickets)
      .values({ companyId, contactId, whatsappId, queueId, status: 'pending', isGroup })
      .onConflictDoNothing()
      .returning({ id: tickets.id });
    if (inserted) return { ticketId: inserted.id, created: true, botMayAnswer: true };
    const [raced] = await tx
      .select({ id: tickets.id })
      .from(tickets)
      .where(and(scope, sql`${tickets.status} <> 'closed'`));
    if (!raced) throw Object.assign(new Error('live ticket vanished'), { code: '40001' });
    return { ticketId: raced.id, created: false, botMayAnswer: false };
  }

  private async byProviderId(
    tx: Tx,
    whatsappId: number,
    providerId: string | undefined,
  ): Promise<number | undefined> {
    if (!providerId) return undefined;
    const [row] = await tx
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.whatsappId, whatsappId), eq(messages.wid, providerId)));
    return row?.id;
  }

  /**
   * Applies a delivery ack to a message sent by the connection; acks only move forward. Emits
   * `appMessage` update when it changed.
   */
  async ack(connection: ConnectionRef, providerId: string, ack: number): Promise<void> {
    // Acks of one connection are stored and emitted one after the other, so clients see 1→2→3→4 in
    // order even when the driver reports them faster than a round trip.
    const previous = this.ackChains.get(connection.id) ?? Promise.resolve();
    const next = previous.then(() => this.applyAck(connection, providerId, ack));
    const tail = next.catch(() => undefined);
    this.ackChains.set(connection.id, tail);
    void tail.then(() => {
      if (this.ackChains.get(connection.id) === tail) this.ackChains.delete(connection.id);
    });
    return next;
  }

  private async applyAck(connection: ConnectionRef, providerId: string, ack: number): Promise<void> {
    const rows = await this.ctx.db
      .update(messages)
      .set({ ack, updatedAt: sql`now()` })
      .where(
        and(
          eq(messages.whatsappId, connection.id),
          eq(messages.wid, providerId),
          sql`${messages.ack} < ${ack}`,
        ),
      )
      .returning({ id: messages.id });
    await this.emitUpdates(
      connection.companyId,
      rows.map((r) => r.id),
    );
  }

  /** Marks a message edited with its new body. */
  async edit(connection: ConnectionRef, providerId: string, body: string): Promise<void> {
    const rows = await this.ctx.db
      .update(messages)
      .set({ body, isEdited: true, updatedAt: sql`now()` })
      .where(and(eq(messages.whatsappId, connection.id), eq(messages.wid, providerId)))
      .returning({ id: messages.id });
    await this.emitUpdates(
      connection.companyId,
      rows.map((r) => r.id),
    );
  }

  /** Marks a message deleted for everyone. */
  async remove(connection: ConnectionRef, providerId: string): Promise<void> {
    const rows = await this.ctx.db
      .update(messages)
      .set({ isDeleted: true, updatedAt: sql`now()` })
      .where(and(eq(messages.whatsappId, connection.id), eq(messages.wid, providerId)))
      .returning({ id: messages.id });
    await this.emitUpdates(
      connection.companyId,
      rows.map((r) => r.id),
    );
  }

  /** Updates a contact's name or picture and emits `contact` update. */
  async contact(
    connection: ConnectionRef,
    update: { number: string; name?: string; profilePicUrl?: string | null },
  ): Promise<void> {
    const set: Partial<typeof contacts.$inferInsert> = {};
    if (update.name) set.name = update.name;
    if (update.profilePicUrl !== undefined) set.profilePicUrl = update.profilePicUrl;
    if (Object.keys(set).length === 0) return;
    const [row] = await this.ctx.db
      .update(contacts)
      .set({ ...set, updatedAt: sql`now()` })
      .where(and(eq(contacts.companyId, connection.companyId), eq(contacts.number, update.number)))
      .returning();
    if (row) {
      this.ctx.realtime.toCompany(connection.companyId, 'contact', {
        action: 'update',
        contact: { ...row, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() },
      });
    }
  }

  /** Emits `appMessage` update for changed messages, to their tickets' rooms. */
  async emitUpdates(companyId: number, ids: number[]): Promise<void> {
    await emitMessageUpdates(this.ctx, companyId, ids);
  }
}
