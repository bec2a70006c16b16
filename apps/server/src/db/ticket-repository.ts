import { DASHBOARD_TIME_ZONE, type Ticket } from '@zapdesk/shared';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Tx } from './client.js';
import { preparedPerHandle } from './prepared.js';
import { contacts, queues, tickets, users, whatsapps } from './schema/index.js';

/**
 * The protocol number of a ticket: its creation day (yyyyMMdd, company time) followed by the ticket
 * id padded to six digits — unique per ticket and readable over the phone.
 */
export function protocolOf(ticketId: number, createdAt: Date, timeZone = DASHBOARD_TIME_ZONE): string {
  return `${localDate(createdAt, timeZone)}${String(ticketId).padStart(6, '0')}`;
}

/** One Intl formatter per time zone (yyyy-MM-dd in 'en-CA'): lists format 40 protocols per page. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();
/**
 * Days already formatted, per time zone, by quarter hour since the epoch: UTC offsets are whole
 * quarter hours and change on quarter hours (every zone since the early 20th century), so all the
 * instants of one quarter hour fall on the same local day. Cleared when it grows past DAY_CACHE_MAX.
 */
const dayCache = new Map<string, Map<number, string>>();
const QUARTER_HOUR_MS = 15 * 60 * 1000;
const DAY_CACHE_MAX = 20_000;

/** The calendar day of `at` in `timeZone` as yyyyMMdd. */
function localDate(at: Date, timeZone: string): string {
  const quarter = Math.floor(at.getTime() / QUARTER_HOUR_MS);
  let days = dayCache.get(timeZone);
  const known = days?.get(quarter);
  if (known !== undefined) return known;
  let f = dayFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, f);
  }
  const day = f.format(at).replaceAll('-', '');
  if (!days || days.size >= DAY_CACHE_MAX) {
    days = new Map();
    dayCache.set(timeZone, days);
  }
  if (!Number.isNaN(quarter)) days.set(quarter, day);
  return day;
}

const ticketColumns = {
  ticket: tickets,
  contact: {
    id: contacts.id,
    name: contacts.name,
    number: contacts.number,
    email: contacts.email,
    profilePicUrl: contacts.profilePicUrl,
    isGroup: contacts.isGroup,
  },
  userName: users.name,
  queueName: queues.name,
  queueColor: queues.color,
  whatsappName: whatsapps.name,
  tags: sql<{ id: number; name: string; color: string }[]>`coalesce((
    select json_agg(json_build_object('id', tg.id, 'name', tg.name, 'color', tg.color) order by tg.name)
    from ticket_tags tt join tags tg on tg.id = tt.tag_id
    where tt.ticket_id = "tickets"."id"), '[]'::json)`,
};

type TicketRow = {
  ticket: typeof tickets.$inferSelect;
  contact: Ticket['contact'];
  userName: string | null;
  queueName: string | null;
  queueColor: string | null;
  whatsappName: string | null;
  tags: { id: number; name: string; color: string }[];
};

/** Converts a joined row to the API shape (core section 3 Ticket). */
export function toTicket(row: TicketRow): Ticket {
  const t = row.ticket;
  return {
    id: t.id,
    uuid: t.uuid,
    code: protocolOf(t.id, t.createdAt),
    status: t.status,
    userId: t.userId,
    user: t.userId !== null && row.userName !== null ? { id: t.userId, name: row.userName } : null,
    queueId: t.queueId,
    queue:
      t.queueId !== null && row.queueName !== null
        ? { id: t.queueId, name: row.queueName, color: row.queueColor ?? '' }
        : null,
    whatsappId: t.whatsappId,
    whatsapp:
      t.whatsappId !== null && row.whatsappName !== null
        ? { id: t.whatsappId, name: row.whatsappName }
        : null,
    contactId: t.contactId,
    contact: row.contact,
    companyId: t.companyId,
    tags: row.tags,
    isGroup: t.isGroup,
    chatbot: t.chatbot,
    unreadMessages: t.unreadMessages,
    lastMessage: t.lastMessage,
    useIntegration: t.useIntegration,
    promptId: t.promptId,
    integrationId: t.integrationId,
    firstResponseDueAt: t.firstResponseDueAt?.toISOString() ?? null,
    resolutionDueAt: t.resolutionDueAt?.toISOString() ?? null,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

/**
 * The base select of tickets with contact, user, queue, connection and tags (one query), plus
 * `extra` columns when given.
 */
export function ticketQuery<E extends Record<string, SQL.Aliased | SQL>>(db: Tx, extra?: E) {
  return db
    .select({ ...ticketColumns, ...(extra as E) })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(users, eq(users.id, tickets.userId))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .leftJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId));
}

/** Tickets with contact, user, queue, connection and tags, in one query. */
export async function selectTickets(db: Tx, where: SQL | undefined): Promise<Ticket[]> {
  const rows = await ticketQuery(db).where(where);
  return rows.map(toTicket);
}

/**
 * findTicket's statement, built once per handle (preparedPerHandle): it runs after nearly every
 * change to a ticket, and writing its SQL cost about 1 ms of CPU a call.
 */
const findStatement = preparedPerHandle((db) =>
  ticketQuery(db)
    .where(
      and(eq(tickets.companyId, sql.placeholder('companyId')), eq(tickets.id, sql.placeholder('ticketId'))),
    )
    .prepare('find_ticket'),
);

/** One ticket of the company in the API shape, or undefined. */
export async function findTicket(db: Tx, companyId: number, ticketId: number): Promise<Ticket | undefined> {
  const [row] = await findStatement(db).execute({ companyId, ticketId });
  return row ? toTicket(row) : undefined;
}

/** Several tickets of the company by id. */
export function findTickets(db: Tx, companyId: number, ids: number[]): Promise<Ticket[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return selectTickets(db, and(eq(tickets.companyId, companyId), inArray(tickets.id, ids)));
}
