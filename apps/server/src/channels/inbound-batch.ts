/**
 * The group-commit statement of the inbound pipeline: the steady state of many
 * messages (known contact, live ticket) stored by one multi-row statement, which is its own
 * transaction. See InboundPipeline for the batching around it.
 */
import { createHash } from 'node:crypto';
import { type Column, getTableColumns, type Table } from 'drizzle-orm';
import { toSnakeCase } from 'drizzle-orm/casing';
import type pg from 'pg';
import type { DatabaseHandle, Tx } from '../db/client.js';
import { contacts, messages, tickets } from '../db/schema/index.js';

type ColumnList = [key: string, column: Column, name: string][];
const columnLists = new Map<Table, Map<string, ColumnList>>();

/** The columns of `table` named by `keys` (all without), with their SQL names; computed once. */
function columnList(table: Table, keys?: readonly string[]): ColumnList {
  let byKeys = columnLists.get(table);
  if (!byKeys) {
    byKeys = new Map();
    columnLists.set(table, byKeys);
  }
  const id = keys ? keys.join(',') : '*';
  let list = byKeys.get(id);
  if (!list) {
    list = Object.entries(getTableColumns(table))
      .filter(([key]) => !keys || keys.includes(key))
      // Unnamed columns take their key in snake_case (the database's `casing: 'snake_case'`).
      .map(([key, column]) => [key, column, column.keyAsName ? toSnakeCase(column.name) : column.name]);
    byKeys.set(id, list);
  }
  return list;
}

/**
 * `alias.column as "prefixKey"` for every column of a table, or for those named by `keys` (the CTE
 * keeps the table's names).
 */
export function selectColumns(table: Table, alias: string, prefix: string, keys?: readonly string[]): string {
  return columnList(table, keys)
    .map(([key, , name]) => `"${alias}"."${name}" as "${prefix}${key}"`)
    .join(', ');
}

/**
 * Maps the `prefixKey` columns of a raw row as Drizzle maps a select of the table; with `keys`,
 * only those (the others stay undefined: pass the `keys` the statement selected).
 */
export function decodeColumns<T extends Table>(
  table: T,
  row: Record<string, unknown>,
  prefix: string,
  keys?: readonly string[],
): T['$inferSelect'] {
  const out: Record<string, unknown> = {};
  for (const [key, column] of columnList(table, keys)) {
    const value = row[prefix + key];
    out[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return out as T['$inferSelect'];
}

/**
 * The message columns the event payload reads (`toMessage`): the inbound statements return only
 * these, as fewer columns are less to parse per message. inbound-pipeline-payloads.test.ts checks
 * the payloads against `findMessage`.
 */
export const PAYLOAD_MESSAGE_KEYS = [
  'id',
  'ticketId',
  'contactId',
  'userId',
  'wid',
  'body',
  'fromMe',
  'mediaType',
  'mediaUrl',
  'mediaName',
  'isDeleted',
  'isEdited',
  'ack',
  'read',
  'quotedMsgId',
  'reactionToId',
  'error',
  'createdAt',
  'updatedAt',
] as const satisfies readonly (keyof typeof messages.$inferSelect)[];

/** The ticket columns the event payload reads (`toTicket`); see PAYLOAD_MESSAGE_KEYS. */
export const PAYLOAD_TICKET_KEYS = [
  'id',
  'uuid',
  'companyId',
  'contactId',
  'whatsappId',
  'userId',
  'queueId',
  'status',
  'unreadMessages',
  'lastMessage',
  'isGroup',
  'chatbot',
  'useIntegration',
  'promptId',
  'integrationId',
  'createdAt',
  'updatedAt',
] as const satisfies readonly (keyof typeof tickets.$inferSelect)[];

/** One message of a batch: the parameters of the single-message statement, as one row. */
export interface BatchRow {
  companyId: number;
  whatsappId: number;
  number: string;
  otherNumber: string;
  botCheck: boolean;
  providerId: string;
  body: string;
  fromMe: boolean;
  mediaType: string;
  mediaUrl: string | null;
  mediaName: string | null;
  ack: number;
  quotedProviderId: string | null;
  participant: string | null;
  error: string | null;
  /** ISO timestamp. */
  at: string;
  preview: string;
  unread: number;
  rename: boolean;
  name: string;
}

/** The columns of the input arrays, in parameter order ($1…), with their SQL array types. */
const BATCH_COLUMNS: [keyof BatchRow, string, string][] = [
  ['companyId', 'company_id', 'int'],
  ['whatsappId', 'whatsapp_id', 'int'],
  ['number', 'number', 'text'],
  ['otherNumber', 'other_number', 'text'],
  ['botCheck', 'bot_check', 'boolean'],
  ['providerId', 'wid', 'text'],
  ['body', 'body', 'text'],
  ['fromMe', 'from_me', 'boolean'],
  ['mediaType', 'media_type', 'text'],
  ['mediaUrl', 'media_url', 'text'],
  ['mediaName', 'media_name', 'text'],
  ['ack', 'ack', 'int'],
  ['quotedProviderId', 'quoted_wid', 'text'],
  ['participant', 'participant', 'text'],
  ['error', 'error', 'text'],
  ['at', 'at', 'timestamptz'],
  ['preview', 'preview', 'text'],
  ['unread', 'unread', 'int'],
  ['rename', 'rename', 'boolean'],
  ['name', 'name', 'text'],
];

/**
 * The select list of a message's payload (contact `k`, message `m` under the given alias, ticket `u`
 * with its user, queue, connection and tags, the quoted message `q` and its contact `qc`), as the
 * batch and the single append statements both answer it; decoded by the same row reader.
 */
export function payloadSelect(m: string): string {
  return `k.id as k_id, k.name as k_name, k.number as k_number, k.email as k_email,
  k.profile_pic_url as k_profile_pic_url, k.is_group as k_is_group,
  ${selectColumns(messages, m, 'm_', PAYLOAD_MESSAGE_KEYS)},
  ${selectColumns(tickets, 'u', 't_', PAYLOAD_TICKET_KEYS)},
  us.name as user_name, qu.name as queue_name, qu.color as queue_color, wa.name as whatsapp_name,
  coalesce((
    select json_agg(json_build_object('id', tg.id, 'name', tg.name, 'color', tg.color) order by tg.name)
    from ticket_tags tt join tags tg on tg.id = tt.tag_id
    where tt.ticket_id = u.id), '[]'::json) as tags,
  q.id as q_id, q.body as q_body, q.from_me as q_from_me, q.media_type as q_media_type,
  q.media_url as q_media_url, qc.id as q_contact_id, qc.name as q_contact_name`;
}

/** The joins payloadSelect reads, from the ticket `u` of the message aliased `m` on. */
export function payloadJoins(m: string): string {
  return `left join u on u.id = ${m}.ticket_id
left join users us on us.id = u.user_id
left join queues qu on qu.id = u.queue_id
left join whatsapps wa on wa.id = u.whatsapp_id
left join messages q on q.id = ${m}.quoted_msg_id
left join contacts qc on qc.id = q.contact_id`;
}

/**
 * The batch statement. Input: one array per column (unnest … with ordinality numbers the messages
 * 1..n in arrival order). Per message, in that order: lock its contact (either number variant), then
 * its live ticket (one the chatbot has nothing to say on, with bot_check), the order the transaction
 * path locks them in; insert the messages that have one (in order; a stored provider id is skipped);
 * update each touched ticket once (the last message's preview, the sum of the unread counts) and each
 * renamed contact once (the last name; only when it changed: a repeated name writes nothing); answer one row per input message with the event payloads.
 * Constant text, so each pooled connection keeps it prepared.
 */
const BATCH_SQL = `with i as (
  ${unnestOf(BATCH_COLUMNS)}
), k as (
  select i.n, c.id, c.name, c.number, c.email, c.profile_pic_url, c.is_group
  from i cross join lateral (
    select c.id, c.name, c.number, c.email, c.profile_pic_url, c.is_group from contacts c
    where c.company_id = i.company_id and c.number in (i.number, i.other_number)
    order by c.number limit 1
    for no key update
  ) c
), l as (
  select k.n, t.id, k.id as contact_id from k
  join i on i.n = k.n
  join tickets t on t.contact_id = k.id and t.company_id = i.company_id and t.whatsapp_id = i.whatsapp_id
    and t.status <> 'closed'
    and not (i.bot_check and t.status = 'pending' and t.user_id is null and (t.chatbot or t.use_integration))
  for update of t
), m as (
  insert into messages (company_id, ticket_id, contact_id, whatsapp_id, wid, body, from_me, media_type,
    media_url, media_name, ack, read, quoted_msg_id, participant, error, created_at, updated_at)
  select i.company_id, l.id, l.contact_id, i.whatsapp_id, i.wid, i.body, i.from_me, i.media_type,
    i.media_url, i.media_name, i.ack, i.from_me,
    (select q.id from messages q where q.whatsapp_id = i.whatsapp_id and q.wid = i.quoted_wid),
    i.participant, i.error, i.at, i.at
  from l join i on i.n = l.n
  order by l.n
  on conflict (whatsapp_id, wid) do nothing
  returning *
), mi as (
  select i.n, m.* from m join i on i.whatsapp_id = m.whatsapp_id and i.wid = m.wid
), u as (
  update tickets t set last_message = x.preview, unread_messages = t.unread_messages + x.unread,
    updated_at = now()
  from (
    select distinct on (mi.ticket_id) mi.ticket_id, i.preview,
      (sum(i.unread) over (partition by mi.ticket_id))::int as unread
    from mi join i on i.n = mi.n
    order by mi.ticket_id, mi.n desc
  ) x
  where t.id = x.ticket_id
  returning t.*
), cu as (
  update contacts c set name = x.name, updated_at = now()
  from (
    select distinct on (mi.contact_id) mi.contact_id, i.name from mi join i on i.n = mi.n
    where i.rename
    order by mi.contact_id, mi.n desc
  ) x
  where c.id = x.contact_id and c.name <> x.name
  returning c.id
)
select i.n, l.id as l_id, ${payloadSelect('mi')}
from i
left join k on k.n = i.n
left join l on l.n = i.n
left join mi on mi.n = i.n
${payloadJoins('mi')}
order by i.n`;

/** The server-side name of a constant statement, derived from its text (a changed text is a new one). */
const nameOf = (prefix: string, text: string) =>
  `${prefix}_${createHash('sha1').update(text).digest('hex').slice(0, 12)}`;

/** The server-side name of BATCH_SQL. */
const BATCH_NAME = nameOf('inbound_batch', BATCH_SQL);

type RawClient = { query(text: string, values: unknown[]): Promise<{ rows: unknown[] }> };

/**
 * Runs a constant statement on the database or in an open transaction: as a named prepared
 * statement on `pg` (each pooled connection plans it once), as plain text on PGlite.
 */
async function runNamed(
  db: Tx,
  kind: DatabaseHandle['kind'],
  name: string,
  text: string,
  values: unknown[],
): Promise<Record<string, unknown>[]> {
  // Both drivers keep their client (pg Pool or PoolClient, PGlite or its transaction) at
  // `session.client`, as transactionExecutor in db/client.ts relies on.
  const client = (db as unknown as { session: { client: RawClient } }).session.client;
  const result =
    kind === 'postgres'
      ? await (client as pg.Pool).query({ name, text, values })
      : await client.query(text, values);
  return result.rows as Record<string, unknown>[];
}

/** The `unnest(...) with ordinality as i(...)` of a statement's input arrays, numbered 1..n as `n`. */
function unnestOf(columns: [string, string, string][]): string {
  return `select * from unnest(${columns.map(([, , type], index) => `$${index + 1}::${type}[]`).join(', ')})
    with ordinality as i(${columns.map(([, column]) => column).join(', ')}, n)`;
}

/**
 * Runs BATCH_SQL for `rows` (at least one) outside any transaction: a named prepared statement on
 * `pg`, plain text on PGlite. Answers one raw row per input row, in input order: `l_id` null when the
 * message has no live ticket to append to (nothing was written for it), `m_id` null when it was a
 * stored provider id, else the stored message (`m_*`), its ticket after the whole batch (`t_*`), the
 * contact (`k_*`), the quoted message (`q_*`) and the ticket's names and tags.
 * @throws the database error of the statement; then nothing of the batch was written.
 */
export async function runBatchAppend(
  db: Tx,
  kind: DatabaseHandle['kind'],
  rows: BatchRow[],
): Promise<Record<string, unknown>[]> {
  const values = BATCH_COLUMNS.map(([key]) => rows.map((row) => row[key]));
  return runNamed(db, kind, BATCH_NAME, BATCH_SQL, values);
}

// ---------------------------------------------------------------------------------------------
// New conversations, batch-wide: the contacts of a batch in one statement, their tickets in another
// (both inside the batch's transaction; the messages then go through BATCH_SQL in the same one).

/** One contact of a batch's new conversations, as its messages name it. */
export interface ContactInput {
  companyId: number;
  /** The number as the first message gives it, and its other Brazilian mobile form (or itself). */
  number: string;
  otherNumber: string;
  /** The name a new contact gets, and the name an existing one takes with `rename`. */
  name: string;
  rename: boolean;
  isGroup: boolean;
}

const CONTACT_COLUMNS: [keyof ContactInput, string, string][] = [
  ['companyId', 'company_id', 'int'],
  ['number', 'number', 'text'],
  ['otherNumber', 'other_number', 'text'],
  ['name', 'name', 'text'],
  ['rename', 'rename', 'boolean'],
  ['isGroup', 'is_group', 'boolean'],
];

/**
 * Per input contact, in input order: lock the stored contact of either number form (`for no key
 * update`, as the transaction path's upsert and BATCH_SQL do), rename it when asked and the name
 * changed, or insert it (`on conflict do nothing`: a contact another node inserted meanwhile
 * answers no row). Answers `n`, the existing `e_id` / `e_number`, and the inserted row as `c_*`.
 */
const CONTACTS_SQL = `with i as (
  ${unnestOf(CONTACT_COLUMNS)}
), e as (
  select i.n, c.id, c.number from i cross join lateral (
    select c.id, c.number, c.name from contacts c
    where c.company_id = i.company_id and c.number in (i.number, i.other_number)
    order by c.number limit 1
    for no key update
  ) c
), r as (
  update contacts c set name = i.name, updated_at = now()
  from e join i on i.n = e.n
  where c.id = e.id and i.rename and c.name <> i.name
  returning c.id
), a as (
  insert into contacts (company_id, number, name, is_group)
  select i.company_id, i.number, i.name, i.is_group from i
  where not exists (select 1 from e where e.n = i.n)
  order by i.n
  on conflict (company_id, number) do nothing
  returning *
)
select i.n, e.id as e_id, e.number as e_number, ${selectColumns(contacts, 'a', 'c_')}
from i
left join e on e.n = i.n
left join a on a.company_id = i.company_id and a.number = i.number and e.n is null
order by i.n`;

const CONTACTS_NAME = nameOf('inbound_contacts', CONTACTS_SQL);

/**
 * Finds or creates the contacts of a batch's new conversations with one statement (CONTACTS_SQL),
 * inside the batch's transaction. Inputs must name distinct contacts. Answers one raw row per
 * input, in order: `e_id` set for a stored contact, else the inserted contact (`c_*`); neither when
 * another transaction inserted it first (the caller retries).
 * @throws the database error of the statement.
 */
export async function runContactsUpsert(
  tx: Tx,
  kind: DatabaseHandle['kind'],
  rows: ContactInput[],
): Promise<Record<string, unknown>[]> {
  const values = CONTACT_COLUMNS.map(([key]) => rows.map((row) => row[key]));
  return runNamed(tx, kind, CONTACTS_NAME, CONTACTS_SQL, values);
}

/** One conversation (contact on a connection) of a batch's new conversations. */
export interface TicketInput {
  companyId: number;
  contactId: number;
  whatsappId: number;
  isGroup: boolean;
}

const TICKET_COLUMNS: [keyof TicketInput, string, string][] = [
  ['companyId', 'company_id', 'int'],
  ['contactId', 'contact_id', 'int'],
  ['whatsappId', 'whatsapp_id', 'int'],
  ['isGroup', 'is_group', 'boolean'],
];

/**
 * Per input conversation: lock its live ticket, else its last closed one (`for update`, the
 * transaction path's lookup); reopen a closed one as pending, or insert a pending ticket when there
 * is none (`on conflict do nothing`: the partial unique index of live tickets refuses a second one,
 * which then answers no row). A reopened or new ticket goes to the connection's queue when it has
 * exactly one. Answers `n`, the ticket `id` (null after a lost race), `created` (reopened or
 * inserted) and the ticket's status, user and bot flags as they are after the statement.
 */
const TICKETS_SQL = `with i as (
  ${unnestOf(TICKET_COLUMNS)}
), f as (
  select i.n, t.id, t.status, t.user_id, t.chatbot, t.use_integration from i cross join lateral (
    select t.id, t.status, t.user_id, t.chatbot, t.use_integration from tickets t
    where t.company_id = i.company_id and t.contact_id = i.contact_id and t.whatsapp_id = i.whatsapp_id
    order by t.status = 'closed', t.updated_at desc, t.id desc
    limit 1
    for update
  ) t
), qd as (
  select i.n, (select case when count(*) = 1 then min(q.queue_id) end from (
    select wq.queue_id from whatsapp_queues wq
    where wq.company_id = i.company_id and wq.whatsapp_id = i.whatsapp_id
    limit 2) q) as queue_id
  from i
  where not exists (select 1 from f where f.n = i.n and f.status <> 'closed')
), r as (
  update tickets t set status = 'pending', user_id = null, queue_id = qd.queue_id, queue_option_id = null,
    chatbot = false, amount_used_bot_queues = 0, awaiting_rating = false, unread_messages = 0,
    closed_at = null, accepted_at = null, updated_at = now()
  from f join qd on qd.n = f.n
  where t.id = f.id and t.status = 'closed'
  returning t.id, t.status, t.user_id, t.chatbot, t.use_integration
), a as (
  insert into tickets (company_id, contact_id, whatsapp_id, queue_id, status, is_group)
  select i.company_id, i.contact_id, i.whatsapp_id, qd.queue_id, 'pending', i.is_group
  from i join qd on qd.n = i.n
  where not exists (select 1 from f where f.n = i.n)
  order by i.n
  on conflict do nothing
  returning id, contact_id, whatsapp_id, status, user_id, chatbot, use_integration
)
select i.n,
  case when f.status = 'closed' then r.id when f.id is not null then f.id else a.id end as id,
  (r.id is not null or a.id is not null) as created,
  coalesce(r.status, a.status, f.status) as status,
  case when r.id is not null then r.user_id when a.id is not null then a.user_id else f.user_id end as user_id,
  coalesce(r.chatbot, a.chatbot, f.chatbot) as chatbot,
  coalesce(r.use_integration, a.use_integration, f.use_integration) as use_integration
from i
left join f on f.n = i.n
left join r on r.id = f.id
left join a on a.contact_id = i.contact_id and a.whatsapp_id = i.whatsapp_id and f.n is null
order by i.n`;

const TICKETS_NAME = nameOf('inbound_tickets', TICKETS_SQL);

/**
 * Takes, reopens or opens the live ticket of each conversation of a batch with one statement
 * (TICKETS_SQL), inside the batch's transaction, after runContactsUpsert locked the contacts.
 * Inputs must name distinct conversations. Answers one raw row per input, in order.
 * @throws the database error of the statement.
 */
export async function runTicketsOpen(
  tx: Tx,
  kind: DatabaseHandle['kind'],
  rows: TicketInput[],
): Promise<Record<string, unknown>[]> {
  const values = TICKET_COLUMNS.map(([key]) => rows.map((row) => row[key]));
  return runNamed(tx, kind, TICKETS_NAME, TICKETS_SQL, values);
}
