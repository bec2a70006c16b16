/**
 * The transaction path of a batch, batch-wide: the contacts of all its chats upserted with one
 * statement, the chats' live tickets (taken, reopened or opened) with one, the messages with the
 * batch statement and their chatbot jobs with one; a chat that needs more goes message by message.
 */
import type { InboundBotJob } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { contacts } from '../../db/schema/index.js';
import { canonicalNumber, numberVariants } from '../../lib/phone-number.js';
import {
  type ContactInput,
  decodeColumns,
  runBatchAppend,
  runContactsUpsert,
  runTicketsOpen,
} from '../inbound-batch.js';
import { chatKey, contactNameOf } from './message-shape.js';
import { batchRow, payloadFromRow } from './rows.js';
import { Duplicate, type InboundParts, type Pending, type Written } from './types.js';
import { queueSlaPlans, write } from './write-one.js';

/**
 * Stores a batch's messages of the transaction path in `tx`, batch-wide: the
 * contacts of all their chats with one statement, the chats' live tickets (taken, reopened or
 * opened) with one, the messages with the batch statement, and their chatbot jobs with one. A chat
 * that needs more than that goes message by message through `write` after them, in order: one
 * with a reaction or a message quoting one of this group (the batch statement's snapshot would not
 * see it), or whose first message may answer a rating (a closed ticket awaiting one keeps it).
 * Answers what each message wrote, in the group's order.
 * @throws Duplicate when a message was stored already, a retryable error (40001) when another
 *   transaction took a contact or ticket first, or the database's error; nothing is kept then.
 */
export async function writeMany(p: InboundParts, tx: Tx, group: Pending[]): Promise<Written[]> {
  const out: Written[] = new Array(group.length);
  const ids = new Set(group.map((item) => `${item.connection.id}\u0000${item.message.providerId}`));
  const chats = new Map<string, number[]>();
  for (const [index, item] of group.entries()) {
    const key = chatKey(item.connection, item.message);
    const list = chats.get(key);
    if (list) list.push(index);
    else chats.set(key, [index]);
  }
  const oneByOne: number[] = [];
  const wide: number[][] = [];
  for (const indexes of chats.values()) {
    const first = group[indexes[0]!]!.message;
    const alone =
      (!first.fromMe && !first.isGroup && p.automation.isRatingAnswer(first.body)) ||
      indexes.some((index) => {
        const { connection, message } = group[index]!;
        return (
          message.mediaType === 'reaction' ||
          !!message.reactionToProviderId ||
          (!!message.quotedProviderId && ids.has(`${connection.id}\u0000${message.quotedProviderId}`))
        );
      });
    if (alone) oneByOne.push(...indexes);
    else wide.push(indexes);
  }
  if (wide.length > 0) await writeWide(p, tx, group, wide, out);
  oneByOne.sort((x, y) => x - y);
  for (const index of oneByOne) {
    const item = group[index]!;
    out[index] = await write(p, tx, item.connection, item.message, item.media);
  }
  return out;
}

/** The batch-wide part of writeMany: `chats` lists each chat's message indexes in `group`. */
async function writeWide(
  p: InboundParts,
  tx: Tx,
  group: Pending[],
  chats: number[][],
  out: Written[],
): Promise<void> {
  const kind = p.ctx.database.kind;
  const lost = (what: string) =>
    Object.assign(new Error(`${what} taken by another transaction`), { code: '40001' });
  // Contacts: one per company and number (two connections may share a customer).
  const contactIndex = new Map<string, number>();
  const contactInputs: ContactInput[] = [];
  const contactOfChat: number[] = [];
  for (const indexes of chats) {
    const { connection, message } = group[indexes[0]!]!;
    const key = `${connection.companyId}:${message.isGroup ? message.chatId : canonicalNumber(message.chatId)}`;
    // The name a customer gives last wins, as message after message would leave it.
    let renamed: string | undefined;
    for (const index of indexes) {
      const m = group[index]!.message;
      if (!m.fromMe && !m.isGroup && m.senderName) renamed = m.senderName;
    }
    let at = contactIndex.get(key);
    if (at === undefined) {
      at = contactInputs.length;
      contactIndex.set(key, at);
      const variants = message.isGroup ? [message.chatId] : numberVariants(message.chatId);
      contactInputs.push({
        companyId: connection.companyId,
        number: message.chatId,
        otherNumber: variants.find((v) => v !== message.chatId) ?? message.chatId,
        name: renamed ?? contactNameOf(message),
        rename: renamed !== undefined,
        isGroup: message.isGroup,
      });
    } else if (renamed !== undefined) {
      contactInputs[at] = { ...contactInputs[at]!, name: renamed, rename: true };
    }
    contactOfChat.push(at);
  }
  const contactRows = await runContactsUpsert(tx, kind, contactInputs);
  const stored = contactRows.map((row) => {
    if (row.e_id !== null && row.e_id !== undefined) {
      return { id: Number(row.e_id), number: row.e_number as string, created: undefined };
    }
    if (row.c_id === null || row.c_id === undefined) throw lost('contact');
    const created = decodeColumns(contacts, row, 'c_');
    return { id: created.id, number: created.number, created };
  });

  // Tickets: one per chat (a chat is one contact on one connection).
  const ticketRows = await runTicketsOpen(
    tx,
    kind,
    chats.map((indexes, chat) => {
      const { connection, message } = group[indexes[0]!]!;
      return {
        companyId: connection.companyId,
        contactId: stored[contactOfChat[chat]!]!.id,
        whatsappId: connection.id,
        isGroup: message.isGroup,
      };
    }),
  );

  // Messages: the live tickets are locked by this transaction, so the batch statement appends to
  // them (the contacts were renamed above; no chatbot check, the jobs are decided here).
  const order = chats.flat().sort((x, y) => x - y);
  const chatOf = new Map<number, number>();
  chats.forEach((indexes, chat) => {
    for (const index of indexes) chatOf.set(index, chat);
  });
  const rows = order.map((index) => {
    const item = group[index]!;
    const number = stored[contactOfChat[chatOf.get(index)!]!]!.number;
    return batchRow(item.connection, item.message, item.media, false, { rename: false, number });
  });
  const answers = await runBatchAppend(tx, kind, rows);
  const jobs: InboundBotJob[] = [];
  const contactAnnounced = new Set<number>();
  const chatStarted = new Set<number>();
  for (const [position, index] of order.entries()) {
    const item = group[index]!;
    const row = answers[position]!;
    const chat = chatOf.get(index)!;
    const ticket = ticketRows[chat]!;
    if (ticket.id === null || ticket.id === undefined) throw lost('ticket');
    const ticketId = Number(ticket.id);
    if (row.l_id === null || row.l_id === undefined || Number(row.l_id) !== ticketId) throw lost('ticket');
    if (row.m_id === null || row.m_id === undefined) throw new Duplicate();
    const payload = payloadFromRow(p.records, row, item.message, false);
    // The message that opened (or reopened) the ticket; past it, the bot has something to say
    // only while its menu is open or a prompt or integration holds the ticket.
    const created = ticket.created === true && !chatStarted.has(chat);
    chatStarted.add(chat);
    const botMayAnswer =
      created ||
      (ticket.status === 'pending' &&
        (ticket.user_id === null || ticket.user_id === undefined) &&
        (ticket.chatbot === true || ticket.use_integration === true));
    const botQueued = !!p.jobs && !item.message.fromMe && !item.message.isGroup && botMayAnswer;
    if (botQueued) {
      jobs.push({
        companyId: item.connection.companyId,
        ticketId,
        messageId: payload.message.id,
        ticketCreated: created,
      });
    }
    const contact = stored[contactOfChat[chat]!]!;
    const newContact = contact.created && !contactAnnounced.has(contact.id) ? contact.created : undefined;
    contactAnnounced.add(contact.id);
    out[index] = {
      messageId: payload.message.id,
      ticketId,
      ticketCreated: created,
      botQueued,
      newContact,
      payload,
    };
  }
  await p.jobs?.sendMany<InboundBotJob>(p.automation.botJob, jobs, { tx });
  // Tickets this batch opened or reopened in a queue with targets: one plan job per company.
  const opened = ticketRows.filter((t) => t.created === true && t.id != null).map((t) => Number(t.id));
  await queueSlaPlans(p, tx, opened);
}
