import { createHash } from 'node:crypto';
import { type Message, type NormalizedMessage, type Ticket, withoutBidiControls } from '@zapdesk/shared';
import { and, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import mime from 'mime-types';
import type pg from 'pg';
import { QUEUE_BOT_JOB, type QueueBotJob } from '../automation/jobs.js';
import { isRatingAnswer } from '../automation/ratings.js';
import type { AppContext } from '../context.js';
import type { DatabaseHandle, Tx } from '../db/client.js';
import { contacts, messages, settings, tickets, whatsappQueues } from '../db/schema/index.js';
import type { JobQueue } from '../jobs/job-queue.js';
import type { CompanyCache } from '../lib/company-cache.js';
import { pgErrorCode } from '../lib/db-errors.js';
import { withoutNulBytes } from '../lib/input-guard.js';
import { toContact } from '../modules/contacts/contacts-service.js';
import { canonicalNumber, numberVariants } from '../modules/contacts/phone-number.js';
import { findMessage, toMessage } from '../modules/messages/message-repository.js';
import { findTicket, toTicket } from '../modules/tickets/ticket-repository.js';
import {
  type BatchRow,
  type ContactInput,
  decodeColumns,
  PAYLOAD_MESSAGE_KEYS,
  PAYLOAD_TICKET_KEYS,
  runBatchAppend,
  runContactsUpsert,
  runTicketsOpen,
  selectColumns,
} from './inbound-batch.js';
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

/** A message's media after download: stored name, file name, or the download error. */
interface StoredMedia {
  name: string | null;
  fileName: string | null;
  error: string | null;
}

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
select k.id as k_id, k.name as k_name, k.number as k_number, k.email as k_email,
  k.profile_pic_url as k_profile_pic_url, k.is_group as k_is_group,
  ${selectColumns(messages, 'm', 'm_', PAYLOAD_MESSAGE_KEYS)},
  ${selectColumns(tickets, 'u', 't_', PAYLOAD_TICKET_KEYS)},
  us.name as user_name, qu.name as queue_name, qu.color as queue_color, wa.name as whatsapp_name,
  coalesce((
    select json_agg(json_build_object('id', tg.id, 'name', tg.name, 'color', tg.color) order by tg.name)
    from ticket_tags tt join tags tg on tg.id = tt.tag_id
    where tt.ticket_id = u.id), '[]'::json) as tags,
  q.id as q_id, q.body as q_body, q.from_me as q_from_me, q.media_type as q_media_type,
  q.media_url as q_media_url, qc.id as q_contact_id, qc.name as q_contact_name
from k cross join l
left join m on true
left join u on u.id = m.ticket_id
left join users us on us.id = u.user_id
left join queues qu on qu.id = u.queue_id
left join whatsapps wa on wa.id = u.whatsapp_id
left join messages q on q.id = m.quoted_msg_id
left join contacts qc on qc.id = q.contact_id`;

/** The server-side name of APPEND_SQL, derived from its text (a changed text is a new statement). */
const APPEND_NAME = `inbound_append_${createHash('sha1').update(APPEND_SQL).digest('hex').slice(0, 12)}`;

/**
 * Runs APPEND_SQL on the database or in an open transaction: as a named prepared statement on `pg`
 * (each pooled connection plans it once), as plain text on PGlite.
 */
async function runAppend(
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

type RawClient = { query(text: string, values: unknown[]): Promise<{ rows: unknown[] }> };

/** Statements of this node that may change a company's settings (the settings cache bypasses then). */
const SETTINGS_WRITE = /^\s*(?:insert\s+into|update|delete\s+from)\s+"?settings"?[\s(;]|^\s*truncate\b/i;

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

/** Group-commit knobs of the inbound pipeline. */
export interface BatchOptions {
  /** How long the first message reaching an idle lane waits for others to join its batch (ms). */
  windowMs: number;
  /** The most messages one batch takes. */
  maxBatch: number;
  /** Independent batch lanes (each runs one batch at a time); a chat always uses the same lane. */
  lanes: number;
  /** The most transactions a batch spreads its new conversations over (run side by side). */
  transactions: number;
}

const DEFAULT_BATCHING: BatchOptions = { windowMs: 1, maxBatch: 128, lanes: 2, transactions: 1 };

/** A message waiting in a lane for its batch, with the settlement of its `ingest()` call. */
interface Pending {
  connection: ConnectionRef;
  message: NormalizedMessage;
  media: StoredMedia;
  /** Position in the batch (arrival order). */
  seq: number;
  resolve(result: IngestResult | undefined): void;
  reject(error: unknown): void;
}

interface Lane {
  pending: Pending[];
  busy: boolean;
  timer?: NodeJS.Timeout;
}

/** What the transaction path wrote for one message (see InboundPipeline.write). */
interface Written {
  messageId: number;
  ticketId: number;
  ticketCreated: boolean;
  botQueued: boolean;
  /** The contact row when this message created it (for the `contact` create event). */
  newContact?: typeof contacts.$inferSelect;
  /** The event payloads, when the statements that stored the message answered them. */
  payload?: { message: Message; ticket: Ticket };
}

/** The chat a message belongs to on its connection (one key for both forms of a Brazilian mobile). */
function chatKey(connection: ConnectionRef, message: NormalizedMessage): string {
  return `${connection.id}:${message.isGroup ? message.chatId : canonicalNumber(message.chatId)}`;
}

/** The name a contact gets from the message that creates it: the sender's, else the chat's id. */
/**
 * `message` with bidi embedding, override and isolate controls removed from the names it carries
 * (the sender's push name and the media file name), which are stored and shown as they are.
 */
export function withoutBidiInNames(message: NormalizedMessage): NormalizedMessage {
  const senderName = message.senderName && withoutBidiControls(message.senderName);
  const fileName = message.media?.fileName && withoutBidiControls(message.media.fileName);
  if (senderName === message.senderName && fileName === message.media?.fileName) return message;
  return {
    ...message,
    senderName,
    media: message.media && { ...message.media, fileName: fileName || undefined },
  };
}

function contactNameOf(message: NormalizedMessage): string {
  return message.isGroup || message.fromMe ? message.chatId : message.senderName || message.chatId;
}

/**
 * The inbound pipeline (docs/messaging.md "Inbound pipeline" and "Ingest group commit").
 * De-duplicates by (connection, provider id). Messages arriving within a few milliseconds are stored
 * together (group commit): `ingest()` puts a message in the lane of its chat (a chat always uses the
 * same lane, so its messages keep their order) and each lane runs one batch at a time — the messages
 * that arrived during the previous batch, or within `windowMs` of the first one when the lane was
 * idle. A batch stores its steady-state messages (known contact, live ticket, no chatbot job) with one
 * multi-row statement (inbound-batch.ts), which is its own transaction and answers the event payloads;
 * the others (new contact or conversation, chatbot job, reaction, rating answer, and the later
 * messages of their chats) go through one transaction (`transactions` side by side at most; each
 * chat in one of them, its messages in order), written batch-wide (`writeMany`): upsert the
 * contacts; find the live ticket of each (company, contact, connection), reopen the contact's last
 * closed ticket on this connection, or create one as pending (a partial unique index keeps one live
 * ticket); store the messages; queue the chatbot jobs in the same transaction. A batch whose statement or
 * transaction fails is retried message by message (each with its own retries), so one poisoned
 * message fails alone. After commit it emits `contact` create to the company when the upsert inserted
 * the contact, then `appMessage` create and `ticket` update to the rooms allowed to see the ticket.
 * Returns undefined for a duplicate or an ignored message (group messages while CheckMsgIsGroup is
 * enabled).
 */
export class InboundPipeline {
  /** Per connection: the acks waiting for the next batch, the batch queued, the one being stored. */
  private readonly ackQueues = new Map<
    number,
    { pending: Map<string, number>; next?: Promise<void>; running: Promise<void> }
  >();
  private readonly batching: BatchOptions;
  private readonly lanes: Lane[];
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

  constructor(
    private readonly ctx: AppContext,
    private readonly media: MediaStore,
    /** Where customer messages the chatbot may answer are queued (in the message's transaction). */
    private readonly jobs?: JobQueue,
    batching: Partial<BatchOptions> = {},
  ) {
    this.groupsIgnored = ctx.caches?.define({
      topic: 'settings',
      localWrite: SETTINGS_WRITE,
      load: (companyId) => this.readIgnoresGroups(companyId),
    });
    this.batching = { ...DEFAULT_BATCHING, ...batching };
    this.lanes = Array.from({ length: Math.max(1, this.batching.lanes) }, () => ({
      pending: [],
      busy: false,
    }));
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
    const media = await this.storeMedia(connection.companyId, message);
    const result = await new Promise<IngestResult | undefined>((resolve, reject) => {
      const key = chatKey(connection, message);
      let hash = 0;
      for (let i = 0; i < key.length; i++) hash = (hash * 31 + key.charCodeAt(i)) | 0;
      const lane = this.lanes[Math.abs(hash) % this.lanes.length]!;
      lane.pending.push({ connection, message, media, seq: 0, resolve, reject });
      if (lane.pending.length >= this.batching.maxBatch && lane.timer) clearTimeout(lane.timer);
      this.schedule(lane, lane.pending.length >= this.batching.maxBatch);
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

  /** Starts the lane's next batch: at once with `now`, else after the window (unless one runs). */
  private schedule(lane: Lane, now: boolean): void {
    if (lane.busy || lane.pending.length === 0) return;
    if (now) {
      lane.timer = undefined;
      void this.flush(lane);
    } else if (!lane.timer) {
      lane.timer = setTimeout(() => {
        lane.timer = undefined;
        void this.flush(lane);
      }, this.batching.windowMs);
    }
  }

  private async flush(lane: Lane): Promise<void> {
    lane.busy = true;
    const batch = lane.pending.splice(0, this.batching.maxBatch);
    this.stats.batches++;
    this.stats.messages += batch.length;
    this.stats.largest = Math.max(this.stats.largest, batch.length);
    batch.forEach((item, seq) => {
      item.seq = seq;
    });
    try {
      await this.runBatch(batch);
    } catch (error) {
      // runBatch settles every message itself; this only guards against a bug leaving one waiting.
      for (const item of batch) item.reject(error);
    } finally {
      lane.busy = false;
      // What arrived meanwhile has waited long enough.
      this.schedule(lane, true);
    }
  }

  /** Stores one batch (see the class comment) and settles each of its messages. */
  private async runBatch(batch: Pending[]): Promise<void> {
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
        void this.ingestOne(follower.connection, follower.message, follower.media).then(
          follower.resolve,
          follower.reject,
        );
      }
    };
    const alone = (item: Pending, append = true) =>
      this.ingestOne(item.connection, item.message, item.media, append).then(
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
    const botCheckOf = (m: NormalizedMessage) => !!this.jobs && !m.fromMe && !m.isGroup;
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
        rows.push(this.batchRow(item.connection, item.message, item.media, botCheckOf(item.message)));
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
          const [row] = await runAppend(this.ctx.db, this.ctx.database.kind, rows[0]!);
          answers = [row ? { ...row, l_id: true } : { l_id: null }];
        } else answers = await runBatchAppend(this.ctx.db, this.ctx.database.kind, rows);
      } catch (error) {
        this.ctx.log.debug({ err: error, size: sent.length }, 'inbound batch failed, storing one by one');
      }
      if (!answers) {
        this.stats.retriedAlone++;
        // Nothing of the statement was written: each message alone, in order.
        for (const item of sent) await alone(item);
      } else {
        sent.forEach((item, index) => {
          const row = answers[index]!;
          if (row.l_id === null || row.l_id === undefined) slow.push(item);
          else if (row.m_id === null || row.m_id === undefined) done(item, undefined);
          else {
            try {
              const payload = this.payloadFromRow(row, item.message, rows[index]!.rename);
              this.emitCreated(payload.message, payload.ticket);
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
        if (groups.length < this.batching.transactions) groups.push([]);
        group = groups[groupOf.size % groups.length]!;
        groupOf.set(chat, group);
      }
      group.push(item);
    }
    await Promise.all(groups.map((group) => this.runTransaction(group, { alone, done, failed })));
  }

  /**
   * Stores messages of the transaction path in one transaction (a single one through ingestOne),
   * then settles them; when the transaction fails, each message goes alone, in order.
   */
  private async runTransaction(
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
      written = await this.ctx.db.transaction((tx) => this.writeMany(tx, group));
    } catch (error) {
      // A redelivery, a race lost or a poisoned message: each one alone, in order.
      this.ctx.log.debug({ err: error, size: group.length }, 'inbound batch transaction failed');
      this.stats.retriedAlone++;
      for (const item of group) await settle.alone(item, false);
      return;
    }
    if (written.some((w) => w.botQueued)) this.jobs?.wake(QUEUE_BOT_JOB);
    for (const [index, item] of group.entries()) {
      try {
        settle.done(item, await this.finish(item.connection, written[index]!));
      } catch (error) {
        settle.failed(item, error);
      }
    }
  }

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
  private async writeMany(tx: Tx, group: Pending[]): Promise<Written[]> {
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
        (!first.fromMe && !first.isGroup && isRatingAnswer(first.body)) ||
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
    if (wide.length > 0) await this.writeWide(tx, group, wide, out);
    oneByOne.sort((x, y) => x - y);
    for (const index of oneByOne) {
      const item = group[index]!;
      out[index] = await this.write(tx, item.connection, item.message, item.media);
    }
    return out;
  }

  /** The batch-wide part of writeMany: `chats` lists each chat's message indexes in `group`. */
  private async writeWide(tx: Tx, group: Pending[], chats: number[][], out: Written[]): Promise<void> {
    const kind = this.ctx.database.kind;
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
      return this.batchRow(item.connection, item.message, item.media, false, { rename: false, number });
    });
    const answers = await runBatchAppend(tx, kind, rows);
    const jobs: QueueBotJob[] = [];
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
      const payload = this.payloadFromRow(row, item.message, false);
      // The message that opened (or reopened) the ticket; past it, the bot has something to say
      // only while its menu is open or a prompt or integration holds the ticket.
      const created = ticket.created === true && !chatStarted.has(chat);
      chatStarted.add(chat);
      const botMayAnswer =
        created ||
        (ticket.status === 'pending' &&
          (ticket.user_id === null || ticket.user_id === undefined) &&
          (ticket.chatbot === true || ticket.use_integration === true));
      const botQueued = !!this.jobs && !item.message.fromMe && !item.message.isGroup && botMayAnswer;
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
    await this.jobs?.sendMany<QueueBotJob>(QUEUE_BOT_JOB, jobs, { tx });
  }

  /**
   * One message through the single-message paths (the steady state's statement, else its own
   * transaction), with retries on a lost race: the fallback of a failed batch. Without `append` it
   * goes straight to the transaction (which appends to a live ticket too).
   */
  private async ingestOne(
    connection: ConnectionRef,
    message: NormalizedMessage,
    stored: StoredMedia,
    append = true,
  ): Promise<IngestResult | undefined> {
    const { db } = this.ctx;
    const appendable = append && message.mediaType !== 'reaction' && !message.reactionToProviderId;
    for (let attempt = 1; ; attempt++) {
      try {
        if (appendable) {
          const fast = await this.appendToLiveTicket(db, connection, message, stored, {
            botCheck: !!this.jobs && !message.fromMe && !message.isGroup,
            rename: !message.fromMe && !message.isGroup && !!message.senderName,
          });
          if (fast === 'duplicate') return undefined;
          if (fast) {
            this.emitCreated(fast.message, fast.ticket);
            return { ...fast, ticketCreated: false };
          }
        }
        const result = await db.transaction((tx) => this.write(tx, connection, message, stored));
        if (result.botQueued) this.jobs?.wake(QUEUE_BOT_JOB);
        return await this.finish(connection, result);
      } catch (error) {
        if (error instanceof Duplicate) return undefined;
        if (attempt < 5 && RETRYABLE.has(pgErrorCode(error) ?? '')) continue;
        throw error;
      }
    }
  }

  /** After the commit of the transaction path: the payloads (read back if needed) and the events. */
  private async finish(connection: ConnectionRef, result: Written): Promise<IngestResult | undefined> {
    const [full, ticket] = result.payload
      ? [result.payload.message, result.payload.ticket]
      : await Promise.all([
          findMessage(this.ctx.db, connection.companyId, result.messageId),
          findTicket(this.ctx.db, connection.companyId, result.ticketId),
        ]);
    if (!full || !ticket) return undefined;
    if (result.newContact) {
      this.ctx.realtime.toCompany(connection.companyId, 'contact', {
        action: 'create',
        contact: toContact(result.newContact, [], ticket.whatsapp),
      });
    }
    this.emitCreated(full, ticket);
    return { message: full, ticket, ticketCreated: result.ticketCreated };
  }

  private emitCreated(message: Message, ticket: Ticket): void {
    this.ctx.realtime.toTicket(ticket, 'appMessage', {
      action: 'create',
      message,
      ticket,
      contact: ticket.contact,
    });
    this.ctx.realtime.toTicket(ticket, 'ticket', { action: 'update', ticket });
  }

  /**
   * APPEND_SQL: when the contact exists and has a live ticket on the connection (one the chatbot
   * has nothing to say on, with `botCheck`), lock the contact, then the ticket (the order the
   * transaction path locks them in), insert the message, update the ticket (and the contact's name,
   * with `rename`) and answer the event payloads. Undefined when there is no such ticket (nothing
   * was written then); 'duplicate' when the provider id is already stored. Outside a transaction
   * it is the steady state's only statement.
   */
  private async appendToLiveTicket(
    db: Tx,
    connection: ConnectionRef,
    message: NormalizedMessage,
    media: StoredMedia,
    options: { botCheck: boolean; rename: boolean; number?: string },
  ): Promise<{ message: Message; ticket: Ticket } | 'duplicate' | undefined> {
    const params = this.batchRow(connection, message, media, options.botCheck, options);
    const [row] = await runAppend(db, this.ctx.database.kind, params);
    if (!row) return undefined;
    if (row.m_id === null || row.m_id === undefined) return 'duplicate';
    return this.payloadFromRow(row, message, params.rename);
  }

  /**
   * The statement parameters of one message (APPEND_SQL's, one row of the batch statement's):
   * `number` forces the contact's stored number; `rename` defaults to a customer's message with a
   * sender name.
   * @throws RangeError when the message's timestamp is not a valid date.
   */
  private batchRow(
    connection: ConnectionRef,
    message: NormalizedMessage,
    media: StoredMedia,
    botCheck: boolean,
    options: { rename?: boolean; number?: string } = {},
  ): BatchRow {
    const variants = options.number
      ? [options.number]
      : message.isGroup
        ? [message.chatId]
        : numberVariants(message.chatId);
    return {
      companyId: connection.companyId,
      whatsappId: connection.id,
      number: variants[0]!,
      otherNumber: variants[1] ?? variants[0]!,
      botCheck,
      providerId: message.providerId,
      body: message.body,
      fromMe: message.fromMe,
      mediaType: message.mediaType,
      mediaUrl: media.name,
      mediaName: media.fileName,
      ack: message.fromMe ? 1 : 0,
      quotedProviderId: message.quotedProviderId ?? null,
      participant: message.isGroup ? message.senderNumber : null,
      error: media.error,
      at: new Date(Math.min(message.timestamp, Date.now())).toISOString(),
      preview: previewOf({ ...message, fileName: media.fileName ?? undefined }),
      unread: message.fromMe ? 0 : 1,
      rename: options.rename ?? (!message.fromMe && !message.isGroup && !!message.senderName),
      name: message.senderName ?? '',
    };
  }

  /** The event payloads of a row of APPEND_SQL or of the batch statement that stored a message. */
  private payloadFromRow(
    row: Record<string, unknown>,
    message: NormalizedMessage,
    rename: boolean,
  ): { message: Message; ticket: Ticket } {
    const contact = {
      id: Number(row.k_id),
      name: rename ? message.senderName! : (row.k_name as string),
      number: row.k_number as string,
      email: row.k_email as string,
      profilePicUrl: (row.k_profile_pic_url as string | null) ?? null,
      isGroup: row.k_is_group as boolean,
    };
    const quotedId = row.q_id as number | string | null;
    const full = toMessage({
      message: decodeColumns(messages, row, 'm_', PAYLOAD_MESSAGE_KEYS),
      contactName: contact.name,
      quoted:
        quotedId === null
          ? null
          : {
              id: Number(quotedId),
              body: row.q_body as string,
              fromMe: row.q_from_me as boolean,
              mediaType: row.q_media_type as string,
              mediaUrl: (row.q_media_url as string | null) ?? null,
            },
      // The quoted message's contact may be the one this statement renamed.
      quotedContactName:
        row.q_contact_id !== null && Number(row.q_contact_id) === contact.id
          ? contact.name
          : ((row.q_contact_name as string | null) ?? null),
    });
    const ticket = toTicket({
      ticket: decodeColumns(tickets, row, 't_', PAYLOAD_TICKET_KEYS),
      contact,
      userName: (row.user_name as string | null) ?? null,
      queueName: (row.queue_name as string | null) ?? null,
      queueColor: (row.queue_color as string | null) ?? null,
      whatsappName: (row.whatsapp_name as string | null) ?? null,
      tags: row.tags as Ticket['tags'],
    });
    return { message: full, ticket };
  }

  /** Whether the company ignores group messages (CheckMsgIsGroup), from the cache when there is one. */
  private async ignoresGroups(companyId: number): Promise<boolean> {
    return this.groupsIgnored ? this.groupsIgnored.get(companyId) : this.readIgnoresGroups(companyId);
  }

  private async readIgnoresGroups(companyId: number): Promise<boolean> {
    const [row] = await this.ctx.db
      .select({ value: settings.value })
      .from(settings)
      .where(and(eq(settings.companyId, companyId), eq(settings.key, 'CheckMsgIsGroup')));
    return row?.value === 'enabled';
  }

  private async storeMedia(companyId: number, message: NormalizedMessage): Promise<StoredMedia> {
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
    const live = await this.liveTicket(tx, companyId, contactId, connection.id, message);
    const { ticketId, created } = live;
    // The chatbot answers customer messages on tickets no human holds, and rating answers.
    const botQueued = !!this.jobs && !message.fromMe && !message.isGroup && live.botMayAnswer;
    const queueBot = async (messageId: number) => {
      if (!botQueued) return;
      await this.jobs!.send<QueueBotJob>(
        QUEUE_BOT_JOB,
        { companyId, ticketId, messageId, ticketCreated: created },
        { tx },
      );
    };

    if (message.mediaType !== 'reaction' && !message.reactionToProviderId && !live.closed) {
      // The ticket is live and locked by this transaction: store through the steady state's
      // statement, which answers the event payloads too (the contact was upserted above).
      const payload = await this.appendToLiveTicket(tx, connection, message, media, {
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
    await queueBot(row.id);
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
    return { messageId: row.id, ticketId, ticketCreated: created, botQueued, newContact };
  }

  /**
   * The live ticket of the contact on the connection: existing, reopened or new (pending). A closed
   * ticket waiting for a rating keeps the customer's 1..3 answer instead of reopening (`closed`). A
   * reopened ticket starts over: routed like a new one, the chatbot from the start.
   */
  private async liveTicket(
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
    if (lastClosed?.awaitingRating && !message.fromMe && isRatingAnswer(message.body)) {
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
   * `appMessage` update when it changed. Acks of one connection are stored and emitted one batch
   * after the other, so clients see them in order (1→2→3→4) even when the driver reports them
   * faster than a round trip; the acks reported while a batch is being stored form the next batch
   * (one UPDATE; a message's highest ack wins, so an intermediate one may be skipped, never
   * reordered). Resolves once this ack's batch is stored and emitted.
   */
  async ack(connection: ConnectionRef, providerId: string, ack: number): Promise<void> {
    let queue = this.ackQueues.get(connection.id);
    if (!queue) {
      queue = { pending: new Map(), running: Promise.resolve() };
      this.ackQueues.set(connection.id, queue);
    }
    queue.pending.set(providerId, Math.max(queue.pending.get(providerId) ?? ack, ack));
    if (queue.next) return queue.next;
    const q = queue;
    const next = q.running.then(async () => {
      const batch = q.pending;
      q.pending = new Map();
      q.next = undefined;
      await this.applyAcks(connection, batch);
    });
    q.next = next;
    q.running = next.catch(() => undefined);
    const tail = q.running;
    void tail.then(() => {
      if (q.running === tail && !q.next && this.ackQueues.get(connection.id) === q)
        this.ackQueues.delete(connection.id);
    });
    return next;
  }

  private async applyAcks(connection: ConnectionRef, acks: Map<string, number>): Promise<void> {
    if (!acks.size) return;
    const result = await this.ctx.db.execute(sql`
        update messages m set ack = v.ack, updated_at = now()
        from (values ${sql.join(
          [...acks].map(([wid, ack]) => sql`(${wid}::text, ${ack}::int)`),
          sql`, `,
        )}) as v(wid, ack)
        where m.whatsapp_id = ${connection.id} and m.wid = v.wid and m.ack < v.ack
        returning m.id`);
    // node-postgres and PGlite both answer { rows }.
    const rows = (result as unknown as { rows: { id: number }[] }).rows;
    await this.emitUpdates(
      connection.companyId,
      rows.map((r) => r.id),
    );
  }

  /** Marks a message edited with its new body. */
  async edit(connection: ConnectionRef, providerId: string, body: string): Promise<void> {
    const rows = await this.ctx.db
      .update(messages)
      .set({ body: body.replaceAll('\u0000', ''), isEdited: true, updatedAt: sql`now()` })
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
    if (update.name) set.name = update.name.replaceAll('\u0000', '');
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
