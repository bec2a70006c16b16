import type { MediaType, Message } from '@zapdesk/shared';
import { and, eq, inArray, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Tx } from './client.js';
import { contacts, messages, tickets } from './schema/index.js';
import { ticketAudienceColumns } from './ticket-visibility.js';

const quoted = alias(messages, 'quoted');
const quotedContact = alias(contacts, 'quoted_contact');

const columns = {
  message: messages,
  contactName: contacts.name,
  quoted: {
    id: quoted.id,
    body: quoted.body,
    fromMe: quoted.fromMe,
    mediaType: quoted.mediaType,
    mediaUrl: quoted.mediaUrl,
  },
  quotedContactName: quotedContact.name,
};

/** Where media is served: `<API_PREFIX>/public/`, set once by buildApp(). */
let publicMediaBase = '/api/public/';

/** Points media paths at the API prefix in use ('/api' by default, '' at the root). */
export function setMediaPrefix(prefix: string): void {
  publicMediaBase = `${prefix}/public/`;
}

/** Public media path of a stored media name ('/api/public/<name>' under the default prefix). */
export const mediaPath = (name: string | null) => (name ? `${publicMediaBase}${name}` : null);

type Row = {
  message: typeof messages.$inferSelect;
  contactName: string | null;
  quoted: { id: number; body: string; fromMe: boolean; mediaType: string; mediaUrl: string | null } | null;
  quotedContactName: string | null;
};

/** Converts a joined row to the API shape (core section 3 Message). */
export function toMessage(row: Row): Message {
  const m = row.message;
  return {
    id: m.id,
    ticketId: m.ticketId,
    contactId: m.contactId,
    body: m.isDeleted ? '' : m.body,
    fromMe: m.fromMe,
    mediaType: m.mediaType as MediaType,
    mediaUrl: m.isDeleted ? null : mediaPath(m.mediaUrl),
    mediaName: m.mediaName,
    isDeleted: m.isDeleted,
    isEdited: m.isEdited,
    ack: m.ack,
    read: m.read,
    wid: m.wid,
    quotedMsgId: m.quotedMsgId,
    quotedMsg:
      row.quoted && row.quoted.id !== null
        ? {
            id: row.quoted.id,
            body: row.quoted.body,
            fromMe: row.quoted.fromMe,
            mediaType: row.quoted.mediaType as MediaType,
            mediaUrl: mediaPath(row.quoted.mediaUrl),
            contact: row.quotedContactName !== null ? { name: row.quotedContactName } : null,
          }
        : null,
    reactionToId: m.reactionToId,
    contact: m.fromMe || row.contactName === null ? null : { name: row.contactName },
    userId: m.userId,
    error: m.error,
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
  };
}

/** Messages with their contact and quoted message, one query. */
export function selectMessages<E extends Record<string, SQL>>(db: Tx, where: SQL | undefined, extra?: E) {
  return db
    .select({ ...columns, ...(extra as E) })
    .from(messages)
    .leftJoin(contacts, eq(contacts.id, messages.contactId))
    .leftJoin(quoted, eq(quoted.id, messages.quotedMsgId))
    .leftJoin(quotedContact, eq(quotedContact.id, quoted.contactId))
    .where(where);
}

/** One message of the company in the API shape, or undefined. */
export async function findMessage(
  db: Tx,
  companyId: number,
  messageId: number,
): Promise<Message | undefined> {
  const [row] = await selectMessages(db, and(eq(messages.companyId, companyId), eq(messages.id, messageId)));
  return row ? toMessage(row) : undefined;
}

/** Several messages of the company by id. */
export async function findMessages(db: Tx, companyId: number, ids: number[]): Promise<Message[]> {
  if (ids.length === 0) return [];
  const rows = await selectMessages(db, and(eq(messages.companyId, companyId), inArray(messages.id, ids)));
  return rows.map(toMessage);
}

/**
 * Several messages of the company by id in the API shape, each with its ticket's audience columns
 * (who may see it: ticket-visibility.ts), in one query; a message whose ticket is gone is left out.
 */
export async function findMessagesWithAudience(db: Tx, companyId: number, ids: number[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ ...columns, ticket: ticketAudienceColumns })
    .from(messages)
    .innerJoin(tickets, eq(tickets.id, messages.ticketId))
    .leftJoin(contacts, eq(contacts.id, messages.contactId))
    .leftJoin(quoted, eq(quoted.id, messages.quotedMsgId))
    .leftJoin(quotedContact, eq(quotedContact.id, quoted.contactId))
    .where(and(eq(messages.companyId, companyId), inArray(messages.id, ids)));
  return rows.map((row) => ({ message: toMessage(row), ticket: row.ticket }));
}
