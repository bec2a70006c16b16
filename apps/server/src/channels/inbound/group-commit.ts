/**
 * Group commit: one batch of the inbound pipeline stored and each of its messages settled. The
 * steady-state messages (known contact, live ticket, no chatbot job) go through one multi-row
 * statement, which is its own transaction and answers the event payloads; the others (new contact
 * or conversation, chatbot job, reaction, rating answer, and the later messages of their chats) go
 * through a few transactions side by side (see write-many.ts). A statement or transaction that fails
 * is retried message by message, so one poisoned message fails alone.
 */
import type { NormalizedMessage } from '@zapdesk/shared';
import { type BatchRow, runBatchAppend } from '../inbound-batch.js';
import { runAppend } from './append-statement.js';
import { emitCreated, finish } from './events.js';
import { chatKey } from './message-shape.js';
import { batchRow, payloadFromRow } from './rows.js';
import type { InboundParts, IngestResult, Pending, Written } from './types.js';
import { writeMany } from './write-many.js';
import { ingestOne } from './write-one.js';

/** Stores one batch (see the file comment) and settles each of its messages. */
export async function runBatch(p: InboundParts, batch: Pending[]): Promise<void> {
  // A provider id redelivered inside the batch: the first one is stored, the others answer
  // undefined once it is (or go alone if it failed).
  const followers = new Map<Pending, Pending[]>();
  const done = (item: Pending, result: IngestResult | undefined) => {
    item.resolve(result);
    for (const follower of followers.get(item) ?? []) follower.resolve(undefined);
  };
  const failed = (item: Pending, error: unknown) => {
    item.reject(error);
    for (const follower of followers.get(item) ?? []) {
      void ingestOne(p, follower.connection, follower.message, follower.media).then(
        follower.resolve,
        follower.reject,
      );
    }
  };
  const alone = (item: Pending, append = true) =>
    ingestOne(p, item.connection, item.message, item.media, append).then(
      (result) => done(item, result),
      (error) => failed(item, error),
    );

  const leaders = new Map<string, Pending>();
  const unique: Pending[] = [];
  for (const item of batch) {
    const key = `${item.connection.id}\u0000${item.message.providerId}`;
    const leader = leaders.get(key);
    if (leader) followers.set(leader, [...(followers.get(leader) ?? []), item]);
    else {
      leaders.set(key, item);
      unique.push(item);
    }
  }

  // The multi-row statement takes appendable messages. A chat with one that is not (or that mixes
  // customer and own messages, which the chatbot check may tell apart) goes to the transaction
  // from that message on, and so does a message quoting one of the same batch (the statement's
  // snapshot would not see it): each chat's messages keep their order.
  const botCheckOf = (m: NormalizedMessage) => !!p.jobs && !m.fromMe && !m.isGroup;
  const checks = new Map<string, Set<boolean>>();
  for (const item of unique) {
    const key = chatKey(item.connection, item.message);
    checks.set(key, (checks.get(key) ?? new Set()).add(botCheckOf(item.message)));
  }
  const slowChats = new Set<string>();
  const fast: Pending[] = [];
  const slow: Pending[] = [];
  for (const item of unique) {
    const { message } = item;
    const chat = chatKey(item.connection, message);
    const quotesBatch =
      !!message.quotedProviderId && leaders.has(`${item.connection.id}\u0000${message.quotedProviderId}`);
    const appendable =
      message.mediaType !== 'reaction' &&
      !message.reactionToProviderId &&
      !quotesBatch &&
      checks.get(chat)!.size === 1;
    if (!appendable) slowChats.add(chat);
    if (slowChats.has(chat)) slow.push(item);
    else fast.push(item);
  }

  const rows: BatchRow[] = [];
  const sent: Pending[] = [];
  for (const item of fast) {
    try {
      rows.push(batchRow(item.connection, item.message, item.media, botCheckOf(item.message)));
      sent.push(item);
    } catch (error) {
      failed(item, error);
    }
  }
  if (sent.length > 0) {
    let answers: Record<string, unknown>[] | undefined;
    try {
      if (rows.length === 1) {
        // One message: the single-message statement (its plan is lighter); no row means no live
        // ticket, as a batch row with a null l_id.
        const [row] = await runAppend(p.ctx.db, p.ctx.database.kind, rows[0]!);
        answers = [row ? { ...row, l_id: true } : { l_id: null }];
      } else answers = await runBatchAppend(p.ctx.db, p.ctx.database.kind, rows);
    } catch (error) {
      p.ctx.log.debug({ err: error, size: sent.length }, 'inbound batch failed, storing one by one');
    }
    if (!answers) {
      p.stats.retriedAlone++;
      // Nothing of the statement was written: each message alone, in order.
      for (const item of sent) await alone(item);
    } else {
      sent.forEach((item, index) => {
        const row = answers[index]!;
        if (row.l_id === null || row.l_id === undefined) slow.push(item);
        else if (row.m_id === null || row.m_id === undefined) done(item, undefined);
        else {
          try {
            const payload = payloadFromRow(p.records, row, item.message, rows[index]!.rename);
            emitCreated(p.ctx, payload.message, payload.ticket);
            done(item, { ...payload, ticketCreated: false });
          } catch (error) {
            failed(item, error);
          }
        }
      });
    }
  }
  if (slow.length === 0) return;
  slow.sort((x, y) => x.seq - y.seq);
  // Chats spread over a few transactions that run side by side (one chat's messages in one of
  // them, in order), so that a batch of many new conversations does not hold its lane for long.
  const groups: Pending[][] = [];
  const groupOf = new Map<string, Pending[]>();
  for (const item of slow) {
    const chat = chatKey(item.connection, item.message);
    let group = groupOf.get(chat);
    if (!group) {
      if (groups.length < p.batching.transactions) groups.push([]);
      group = groups[groupOf.size % groups.length]!;
      groupOf.set(chat, group);
    }
    group.push(item);
  }
  await Promise.all(groups.map((group) => runTransaction(p, group, { alone, done, failed })));
}

/**
 * Stores messages of the transaction path in one transaction (a single one through ingestOne),
 * then settles them; when the transaction fails, each message goes alone, in order.
 */
async function runTransaction(
  p: InboundParts,
  group: Pending[],
  settle: {
    alone: (item: Pending, append?: boolean) => Promise<void>;
    done: (item: Pending, result: IngestResult | undefined) => void;
    failed: (item: Pending, error: unknown) => void;
  },
): Promise<void> {
  // These messages had no live ticket to append to a moment ago: straight to the transaction path.
  if (group.length === 1) {
    await settle.alone(group[0]!, false);
    return;
  }
  let written: Written[];
  try {
    written = await p.ctx.db.transaction((tx) => writeMany(p, tx, group));
  } catch (error) {
    // A redelivery, a race lost or a poisoned message: each one alone, in order.
    p.ctx.log.debug({ err: error, size: group.length }, 'inbound batch transaction failed');
    p.stats.retriedAlone++;
    for (const item of group) await settle.alone(item, false);
    return;
  }
  if (written.some((w) => w.botQueued)) p.jobs?.wake(p.automation.botJob);
  if (written.some((w) => w.ticketCreated)) p.jobs?.wake(p.automation.slaPlanJob);
  for (const [index, item] of group.entries()) {
    try {
      settle.done(item, await finish(p, item.connection, written[index]!));
    } catch (error) {
      settle.failed(item, error);
    }
  }
}
