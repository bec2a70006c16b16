import crypto from 'node:crypto';
import { TZDate } from '@date-fns/tz';
import { DASHBOARD_TIME_ZONE, TICKETS_COUNT_BOUND, type Ticket, type ZTicketsQuery } from '@zapdesk/shared';
import { addDays } from 'date-fns';
import type { z } from 'zod';
import { protocolOf } from '../../automation/message-variables.js';
import type { Viewer } from '../../db/ticket-visibility.js';

/** GET /tickets query after parsing. */
export type TicketsQueryParsed = z.output<typeof ZTicketsQuery>;

/**
 * The instants of a calendar day (yyyy-MM-dd) in the company's time zone (America/Sao_Paulo, as the
 * dashboard): from its local midnight to the next local midnight.
 */
export function localDayRange(day: string, timeZone = DASHBOARD_TIME_ZONE): { start: Date; end: Date } {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const start = new TZDate(year, month - 1, date, timeZone);
  return { start: new Date(start.getTime()), end: new Date(addDays(start, 1).getTime()) };
}

/** A Postgres int[] literal of validated ids, sent as one parameter so the statement text stays fixed. */
export const intArrayParam = (ids: number[]) => `{${ids.map((id) => Math.trunc(id)).join(',')}}`;

/**
 * The plain ticket list's statement written as SQL text: the same rows, order,
 * count and cursor as the Drizzle query of `ticketQuery` + `ticketListWhere` + `afterCursor`
 * (checked by ticket-list-equivalence.test.ts and the tickets tests), without rebuilding a query
 * tree per request. The text depends only on the request's shape (which filters are present); the
 * values are parameters. Rows come back as arrays in `SELECT` order and are mapped by `toListTicket`.
 */
export interface ListStatement {
  /** Name of the prepared statement: one per text. */
  name: string;
  text: string;
  values: unknown[];
}

/**
 * The service-level sort key of a ticket row `a` (`sortBy=due`): its earlier due time, 'infinity'
 * when it has none (so those come last). The expression of index `tickets_company_status_due_idx`.
 */
export const dueKey = (a: string) =>
  `coalesce(least(${a}.first_response_due_at, ${a}.resolution_due_at), 'infinity'::timestamptz)`;
/** The cursor's key for 'infinity' (no due time): 17 nines, more than any real instant's microseconds. */
export const NO_DUE_CURSOR = '99999999999999999';

/** Columns of a list row, in order (`rowMode: 'array'`), with the cursor key of the order. */
const selectFor = (
  sortBy: string,
) => `select t.id, t.uuid, t.status, t.user_id, t.queue_id, t.whatsapp_id, t.contact_id, t.company_id,
  t.is_group, t.chatbot, t.unread_messages, t.last_message, t.use_integration, t.prompt_id, t.integration_id,
  t.created_at, t.updated_at,
  c.id, c.name, c.number, c.email, c.profile_pic_url, c.is_group,
  u.name, q.name, q.color, w.name,
  coalesce((select json_agg(json_build_object('id', tg.id, 'name', tg.name, 'color', tg.color) order by tg.name)
    from ticket_tags tt join tags tg on tg.id = tt.tag_id where tt.ticket_id = t.id), '[]'::json),
  ${
    sortBy === 'due'
      ? `case when ${dueKey('t')} = 'infinity' then '${NO_DUE_CURSOR}' else ((extract(epoch from ${dueKey('t')}) * 1000000)::bigint)::text end`
      : '((extract(epoch from t.updated_at) * 1000000)::bigint)::text'
  },`;
const FROM = `from tickets t
  inner join contacts c on c.id = t.contact_id
  left join users u on u.id = t.user_id
  left join queues q on q.id = t.queue_id
  left join whatsapps w on w.id = t.whatsapp_id`;

/** Texts by shape, and their statement names. */
const texts = new Map<string, string>();
const names = new Map<string, string>();

/**
 * The statement of one page of GET /tickets without a search: `TICKETS_PAGE_SIZE + 1` rows from
 * `offset` (or after `query.cursor`), newest update first, each carrying the count: the sum of
 * ticket_counts' matching rows when `countedByCounters`, else the bounded count of tickets.
 * Ids and dates come validated from the route's schema.
 */
export function listStatement(
  viewer: Viewer,
  companyId: number,
  query: TicketsQueryParsed,
  offset: number,
  limit: number,
): ListStatement {
  const values: unknown[] = [];
  const param = (value: unknown) => `$${values.push(value)}`;
  // Each condition is written for an alias ('t' for the page, 'n' for the count's sub-select); both
  // copies share the same parameters.
  const conditions: ((a: string) => string)[] = [];
  const company = param(companyId);
  conditions.push((a) => `${a}.company_id = ${company}`);
  if (!(viewer.admin && query.showAll)) {
    const user = param(viewer.userId);
    const queues = viewer.queueIds.length ? param(intArrayParam(viewer.queueIds)) : '';
    conditions.push(
      (a) =>
        `(${a}.user_id = ${user} or (${a}.queue_id is null and ${a}.user_id is null)` +
        (queues ? ` or ${a}.queue_id = any(${queues}::int[])` : '') +
        (viewer.allTicket ? ` or ${a}.status = 'pending'` : '') +
        ')',
    );
  }
  if (query.status) {
    const status = param(query.status);
    conditions.push((a) => `${a}.status = ${status}`);
  }
  if (query.queueIds?.length) {
    const ids = param(intArrayParam(query.queueIds));
    conditions.push((a) => `(${a}.queue_id = any(${ids}::int[]) or ${a}.queue_id is null)`);
  }
  if (query.users?.length) {
    const ids = param(intArrayParam(query.users));
    conditions.push((a) => `${a}.user_id = any(${ids}::int[])`);
  }
  if (query.tags?.length) {
    const ids = param(intArrayParam(query.tags));
    conditions.push(
      (a) =>
        `exists (select 1 from ticket_tags tt where tt.ticket_id = ${a}.id and tt.tag_id = any(${ids}::int[]))`,
    );
  }
  for (const [day, column] of [
    [query.date, 'created_at'],
    [query.updatedAt, 'updated_at'],
  ] as const) {
    if (!day) continue;
    const { start, end } = localDayRange(day);
    const from = param(start.toISOString());
    const to = param(end.toISOString());
    conditions.push((a) => `${a}.${column} >= ${from}::timestamptz and ${a}.${column} < ${to}::timestamptz`);
  }
  // Conditions on company, status, queue and holder alone hold for ticket_counts' rows as for tickets:
  // the count sums those rows (exact, a few rows read), their unread column with the unread filter;
  // other filters count tickets, bounded.
  const cellConditions = [...conditions];
  if (query.withUnreadMessages) conditions.push((a) => `${a}.unread_messages > 0`);
  const byCounters = countedByCounters(query);
  const bound = byCounters ? '' : param(TICKETS_COUNT_BOUND);
  let after = '';
  const due = query.sortBy === 'due';
  if (query.cursor) {
    const [micros, id] = query.cursor.split('.') as [string, string];
    if (due) {
      const key = param(micros);
      after = ` and (${dueKey('t')}, t.id) > (case when ${key}::bigint = ${NO_DUE_CURSOR} then 'infinity'::timestamptz else timestamptz 'epoch' + ${key}::bigint * interval '1 microsecond' end, ${param(Number(id))}::bigint)`;
    } else {
      after = ` and (t.updated_at, t.id) < (timestamptz 'epoch' + ${param(micros)}::bigint * interval '1 microsecond', ${param(Number(id))}::bigint)`;
    }
  }
  const limitParam = param(limit);
  const offsetParam = offset > 0 ? param(offset) : '';
  const shape = `${values.length}|${conditions.length}|${!(viewer.admin && query.showAll)}|${viewer.queueIds.length > 0}|${viewer.allTicket}|${!!query.status}|${!!query.queueIds?.length}|${!!query.users?.length}|${!!query.tags?.length}|${!!query.date}|${!!query.updatedAt}|${!!query.withUnreadMessages}|${!!query.cursor}|${offset > 0}|${due}`;
  let text = texts.get(shape);
  if (text === undefined) {
    const where = (a: string) => conditions.map((c) => c(a)).join(' and ');
    const cells = cellConditions.map((c) => c('k')).join(' and ');
    const count = byCounters
      ? `(select coalesce(sum(k.${query.withUnreadMessages ? 'unread' : 'tickets'}), 0)::int from ticket_counts k where ${cells})`
      : `(select count(*)::int from (select 1 from tickets n where ${where('n')} limit ${bound}) counted)`;
    text =
      `${selectFor(query.sortBy)}\n  ${count},\n  t.first_response_due_at, t.resolution_due_at\n` +
      `${FROM}\nwhere ${where('t')}${after}\norder by ${due ? `${dueKey('t')} asc, t.id asc` : 't.updated_at desc, t.id desc'} limit ${limitParam}` +
      (offsetParam ? ` offset ${offsetParam}` : '');
    texts.set(shape, text);
    names.set(shape, `ticket_page_${crypto.createHash('sha1').update(text).digest('hex').slice(0, 16)}`);
  }
  return { name: names.get(shape)!, text, values };
}

/**
 * Whether a list's count sums ticket_counts (decision 0111): its filters test only company, status,
 * queue and holder (visibility, `status`, `queueIds`, `users`), and whether a ticket has unread
 * messages (the cells' `unread`). With tags or days it counts the tickets, exact up to
 * TICKETS_COUNT_BOUND.
 */
export function countedByCounters(query: TicketsQueryParsed): boolean {
  return !query.tags?.length && !query.date && !query.updatedAt;
}

/** Index of the count and of the cursor key in a list row. */
export const ROW_COUNT = 29;
export const ROW_CURSOR_KEY = 28;
/** Index of the first of the two due times (first response, resolution) in a list row. */
const ROW_DUE = 30;

/** A timestamptz column of a list row as ISO text, or null. */
const isoOrNull = (value: unknown) => (value == null ? null : new Date(value as string).toISOString());

/** A list row (`listStatement`'s columns) in the API shape (core section 3 Ticket), as `toTicket`. */
export function toListTicket(r: unknown[]): Ticket {
  const id = r[0] as number;
  const userId = r[3] as number | null;
  const queueId = r[4] as number | null;
  const whatsappId = r[5] as number | null;
  const userName = r[23] as string | null;
  const queueName = r[24] as string | null;
  const whatsappName = r[26] as string | null;
  const createdAt = new Date(r[15] as string);
  return {
    id,
    uuid: r[1] as string,
    code: protocolOf(id, createdAt),
    status: r[2] as Ticket['status'],
    userId,
    user: userId !== null && userName !== null ? { id: userId, name: userName } : null,
    queueId,
    queue:
      queueId !== null && queueName !== null
        ? { id: queueId, name: queueName, color: (r[25] as string | null) ?? '' }
        : null,
    whatsappId,
    whatsapp: whatsappId !== null && whatsappName !== null ? { id: whatsappId, name: whatsappName } : null,
    contactId: r[6] as number,
    contact: {
      id: r[17] as number,
      name: r[18] as string,
      number: r[19] as string,
      email: r[20] as string,
      profilePicUrl: r[21] as string | null,
      isGroup: r[22] as boolean,
    },
    companyId: r[7] as number,
    tags: r[27] as Ticket['tags'],
    isGroup: r[8] as boolean,
    chatbot: r[9] as boolean,
    unreadMessages: r[10] as number,
    lastMessage: r[11] as string,
    useIntegration: r[12] as boolean,
    promptId: r[13] as number | null,
    integrationId: r[14] as number | null,
    createdAt: createdAt.toISOString(),
    updatedAt: new Date(r[16] as string).toISOString(),
    firstResponseDueAt: isoOrNull(r[ROW_DUE]),
    resolutionDueAt: isoOrNull(r[ROW_DUE + 1]),
  };
}
