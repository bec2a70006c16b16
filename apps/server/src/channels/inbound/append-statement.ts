/**
 * The single-message statement of the inbound pipeline's steady state: a message of a known contact
 * appended to its live ticket, the event payloads answered by the same statement.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { DatabaseHandle, Tx } from '../../db/client.js';
import { type BatchRow, payloadJoins, payloadSelect } from '../inbound-batch.js';

/** The parameters of APPEND_SQL, in order ($1…). */
type AppendParams = BatchRow;

const APPEND_PARAMS: (keyof AppendParams)[] = [
  'companyId',
  'whatsappId',
  'number',
  'otherNumber',
  'botCheck',
  'providerId',
  'body',
  'fromMe',
  'mediaType',
  'mediaUrl',
  'mediaName',
  'ack',
  'quotedProviderId',
  'participant',
  'error',
  'at',
  'preview',
  'unread',
  'rename',
  'name',
];
const param = (name: keyof AppendParams) => `$${APPEND_PARAMS.indexOf(name) + 1}`;

/**
 * The single statement of the steady state (see `appendToLiveTicket`). Constant text, so the
 * server can keep it prepared (planning it is most of its cost).
 */
const APPEND_SQL = `with k as (
  select c.id, c.name, c.number, c.email, c.profile_pic_url, c.is_group from contacts c
  where c.company_id = ${param('companyId')}::int and c.number in (${param('number')}::text, ${param('otherNumber')}::text)
  order by c.number limit 1
  for no key update
), l as (
  select t.id, k.id as contact_id from tickets t join k on t.contact_id = k.id
  where t.company_id = ${param('companyId')}::int and t.whatsapp_id = ${param('whatsappId')}::int and t.status <> 'closed'
    and not (${param('botCheck')}::boolean and t.status = 'pending' and t.user_id is null and (t.chatbot or t.use_integration))
  for update of t
), m as (
  insert into messages (company_id, ticket_id, contact_id, whatsapp_id, wid, body, from_me, media_type,
    media_url, media_name, ack, read, quoted_msg_id, participant, error, created_at, updated_at)
  select ${param('companyId')}::int, l.id, l.contact_id, ${param('whatsappId')}::int, ${param('providerId')}::text,
    ${param('body')}::text, ${param('fromMe')}::boolean, ${param('mediaType')}::text, ${param('mediaUrl')}::text,
    ${param('mediaName')}::text, ${param('ack')}::int, ${param('fromMe')}::boolean,
    (select q.id from messages q
      where q.whatsapp_id = ${param('whatsappId')}::int and q.wid = ${param('quotedProviderId')}::text),
    ${param('participant')}::text, ${param('error')}::text, ${param('at')}::timestamptz, ${param('at')}::timestamptz
  from l
  on conflict (whatsapp_id, wid) do nothing
  returning *
), u as (
  update tickets t set last_message = ${param('preview')}::text,
    unread_messages = t.unread_messages + ${param('unread')}::int, updated_at = now()
  from m where t.id = m.ticket_id
  returning t.*
), cu as (
  update contacts c set name = ${param('name')}::text, updated_at = now()
  from m where ${param('rename')}::boolean and c.id = m.contact_id
  returning c.id
)
select ${payloadSelect('m')}
from k cross join l
left join m on true
${payloadJoins('m')}`;

/** The server-side name of APPEND_SQL, derived from its text (a changed text is a new statement). */
const APPEND_NAME = `inbound_append_${createHash('sha1').update(APPEND_SQL).digest('hex').slice(0, 12)}`;

/**
 * Runs APPEND_SQL on the database or in an open transaction: as a named prepared statement on `pg`
 * (each pooled connection plans it once), as plain text on PGlite.
 */
export async function runAppend(
  db: Tx,
  kind: DatabaseHandle['kind'],
  params: AppendParams,
): Promise<Record<string, unknown>[]> {
  const values = APPEND_PARAMS.map((name) => params[name]);
  // Both drivers keep their client (pg Pool or PoolClient, PGlite or its transaction) at
  // `session.client`, as transactionExecutor in db/client.ts relies on.
  const client = (db as unknown as { session: { client: RawClient } }).session.client;
  const result =
    kind === 'postgres'
      ? await (client as pg.Pool).query({ name: APPEND_NAME, text: APPEND_SQL, values })
      : await client.query(APPEND_SQL, values);
  return result.rows as Record<string, unknown>[];
}

/** The query method both drivers' clients have. */
type RawClient = { query(text: string, values: unknown[]): Promise<{ rows: unknown[] }> };
