/**
 * One message stored alone: through the steady state's statement when it appends to a live
 * ticket, else in its own transaction (contact upserted, live ticket taken, reopened or opened,
 * message inserted, chatbot job queued), retried when it loses a race.
 */
import type { NormalizedMessage } from '@zapdesk/shared';
import { and, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { InboundBotJob } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { contacts, messages, tickets, whatsappQueues } from '../../db/schema/index.js';
import { companiesToPlan } from '../../db/sla-requests.js';
import { pgErrorCode } from '../../lib/db-errors.js';
import { numberVariants } from '../../lib/phone-number.js';
import { emitCreated, finish } from './events.js';
import { contactNameOf, previewOf } from './message-shape.js';
import { appendToLiveTicket, storedFields } from './rows.js';
import {
  type ConnectionRef,
  Duplicate,
  type InboundParts,
  type IngestResult,
  type StoredMedia,
  type Written,
} from './types.js';

const RETRYABLE = new Set(['23505', '40001', '40P01']);

/**
 * One message through the single-message paths (the steady state's statement, else its own
 * transaction), with retries on a lost race: the fallback of a failed batch. Without `append` it
 * goes straight to the transaction (which appends to a live ticket too).
 */
export async function ingestOne(
  p: InboundParts,
  connection: ConnectionRef,
  message: NormalizedMessage,
  stored: StoredMedia,
  append = true,
): Promise<IngestResult | undefined> {
  const { db } = p.ctx;
  const appendable = append && message.mediaType !== 'reaction' && !message.reactionToProviderId;
  for (let attempt = 1; ; attempt++) {
    try {
      if (appendable) {
        const fast = await appendToLiveTicket(p, db, connection, message, stored, {
          botCheck: !!p.jobs && !message.fromMe && !message.isGroup,
          rename: !message.fromMe && !message.isGroup && !!message.senderName,
        });
        if (fast === 'duplicate') return undefined;
        if (fast) {
          emitCreated(p.ctx, fast.message, fast.ticket);
          return { ...fast, ticketCreated: false };
        }
      }
      const result = await db.transaction((tx) => write(p, tx, connection, message, stored));
      if (result.botQueued) p.jobs?.wake(p.automation.botJob);
      if (result.ticketCreated) p.jobs?.wake(p.automation.slaPlanJob);
      return await finish(p, connection, result);
    } catch (error) {
      if (error instanceof Duplicate) return undefined;
      if (attempt < 5 && RETRYABLE.has(pgErrorCode(error) ?? '')) continue;
      throw error;
    }
  }
}

/**
 * Stores one message in `tx`: upserts its contact (the stored form of a Brazilian mobile number),
 * takes, reopens or opens the live ticket, stores the message (through the steady state's
 * statement when the ticket is live, else by an insert that also takes reactions and rating
 * answers) and queues its chatbot job. Answers what it wrote.
 * @throws Duplicate when the message was stored already, a retryable error (40001) when the live
 *   ticket moved, or the database's error.
 */
export async function write(
  p: InboundParts,
  tx: Tx,
  connection: ConnectionRef,
  message: NormalizedMessage,
  media: StoredMedia,
): Promise<Written> {
  const companyId = connection.companyId;
  const contactName = contactNameOf(message);
  // A Brazilian mobile number may arrive with or without its ninth digit: use the stored form.
  let number = message.chatId;
  const variants = message.isGroup ? [number] : numberVariants(number);
  if (variants.length > 1) {
    const [known] = await tx
      .select({ number: contacts.number })
      .from(contacts)
      .where(and(eq(contacts.companyId, companyId), inArray(contacts.number, variants)))
      .orderBy(contacts.number)
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
    // xmax is 0 only on a row this statement inserted: the upsert tells a new contact by itself.
    .returning({ ...getTableColumns(contacts), created: sql<boolean>`(xmax = 0)` });
  const { created: contactCreated, ...contactRow } = contact!;
  const contactId = contactRow.id;
  const newContact = contactCreated ? contactRow : undefined;
  const live = await liveTicket(p, tx, companyId, contactId, connection.id, message);
  const { ticketId, created } = live;
  if (created) await queueSlaPlans(p, tx, [ticketId]);
  // The chatbot answers customer messages on tickets no human holds, and rating answers.
  const botQueued = !!p.jobs && !message.fromMe && !message.isGroup && live.botMayAnswer;
  const queueBot = async (messageId: number) => {
    if (!botQueued) return;
    await p.jobs!.send<InboundBotJob>(
      p.automation.botJob,
      { companyId, ticketId, messageId, ticketCreated: created },
      { tx },
    );
  };

  if (message.mediaType !== 'reaction' && !message.reactionToProviderId && !live.closed) {
    // The ticket is live and locked by this transaction: store through the steady state's
    // statement, which answers the event payloads too (the contact was upserted above).
    const payload = await appendToLiveTicket(p, tx, connection, message, media, {
      botCheck: false,
      rename: false,
      number,
    });
    if (payload === 'duplicate') throw new Duplicate();
    if (!payload || payload.ticket.id !== ticketId) {
      throw Object.assign(new Error('live ticket moved'), { code: '40001' });
    }
    await queueBot(payload.message.id);
    return {
      messageId: payload.message.id,
      ticketId,
      ticketCreated: created,
      botQueued,
      newContact,
      payload,
    };
  }

  const [quoted, reacted] = await Promise.all([
    byProviderId(tx, connection.id, message.quotedProviderId),
    byProviderId(tx, connection.id, message.reactionToProviderId),
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
      ...storedFields(message, media),
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
  await queueBot(row.id);
  if (message.mediaType !== 'reaction') {
    await tx
      .update(tickets)
      .set({
        lastMessage: previewOf({ ...message, fileName: media.fileName ?? undefined }),
        unreadMessages: message.fromMe ? sql`${tickets.unreadMessages}` : sql`${tickets.unreadMessages} + 1`,
        updatedAt: sql`now()`,
      })
      .where(eq(tickets.id, ticketId));
  }
  return { messageId: row.id, ticketId, ticketCreated: created, botQueued, newContact };
}

/**
 * The live ticket of the contact on the connection: existing, reopened or new (pending). A closed
 * ticket waiting for a rating keeps the customer's 1..3 answer instead of reopening (`closed`). A
 * reopened ticket starts over: routed like a new one, the chatbot from the start.
 */
async function liveTicket(
  p: InboundParts,
  tx: Tx,
  companyId: number,
  contactId: number,
  whatsappId: number,
  message: NormalizedMessage,
): Promise<{ ticketId: number; created: boolean; botMayAnswer: boolean; closed?: boolean }> {
  const isGroup = message.isGroup;
  const scope = and(
    eq(tickets.companyId, companyId),
    eq(tickets.contactId, contactId),
    eq(tickets.whatsappId, whatsappId),
  );
  // The live ticket if there is one (at most one), else the last closed one; locked.
  const [found] = await tx
    .select({
      id: tickets.id,
      status: tickets.status,
      userId: tickets.userId,
      chatbot: tickets.chatbot,
      useIntegration: tickets.useIntegration,
      awaitingRating: tickets.awaitingRating,
    })
    .from(tickets)
    .where(scope)
    .orderBy(sql`${tickets.status} = 'closed'`, desc(tickets.updatedAt), desc(tickets.id))
    .limit(1)
    .for('update');
  if (found && found.status !== 'closed') {
    // Past a conversation's first message the bot only has something to say while its menu is
    // open (chatbot on) or a prompt/integration holds the ticket (useIntegration); otherwise no job
    // is queued for the message.
    const botMayAnswer =
      found.status === 'pending' && found.userId === null && (found.chatbot || found.useIntegration);
    return { ticketId: found.id, created: false, botMayAnswer };
  }
  const lastClosed = found;
  if (lastClosed?.awaitingRating && !message.fromMe && p.automation.isRatingAnswer(message.body)) {
    return { ticketId: lastClosed.id, created: false, botMayAnswer: true, closed: true };
  }
  // A connection with exactly one queue routes its new tickets there (document 2, queues): read by
  // the statement that reopens or creates the ticket, not by one of its own.
  const queueId = sql<number | null>`(select case when count(*) = 1 then min(q.queue_id) end from (
    select ${whatsappQueues.queueId} as queue_id from ${whatsappQueues}
    where ${whatsappQueues.companyId} = ${companyId} and ${whatsappQueues.whatsappId} = ${whatsappId}
    limit 2) q)`;
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

/** The id of the connection's message with that provider id; undefined without one (or without an id). */
async function byProviderId(
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
 * Queues, in `tx`, one service-level plan job per company whose tickets among `ticketIds` (just
 * opened or reopened) got targets to plan (decision 0124), so their due times do not wait for the
 * every-minute sweep. The caller wakes the job after the commit.
 */
export async function queueSlaPlans(p: InboundParts, tx: Tx, ticketIds: number[]): Promise<void> {
  if (!p.jobs || ticketIds.length === 0) return;
  const companies = await companiesToPlan(tx, ticketIds);
  if (companies.length === 0) return;
  await p.jobs.sendMany(
    p.automation.slaPlanJob,
    companies.map((companyId) => ({ companyId })),
    { tx },
  );
}
