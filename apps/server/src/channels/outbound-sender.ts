import crypto from 'node:crypto';
import {
  type ErrorCode,
  isErrorCode,
  type MediaType,
  type Message,
  type OutboundContent,
} from '@zapdesk/shared';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import mime from 'mime-types';
import type { AppContext } from '../context.js';
import type { Tx } from '../db/client.js';
import { contacts, messages, tickets, users } from '../db/schema/index.js';
import type { JobQueue } from '../jobs/job-queue.js';
import { AppError } from '../lib/app-error.js';
import { type AuthContext, isAdmin } from '../lib/guards.js';
import { findMessage, findMessages } from '../modules/messages/message-repository.js';
import { findTicket, findTickets } from '../modules/tickets/ticket-repository.js';
import { previewOf } from './inbound-pipeline.js';
import type { MediaStore } from './media-store.js';
import { emitMessageUpdates } from './message-events.js';
import { ChannelSendError } from './send-error.js';
import type { SessionManager } from './session-manager.js';

/** An uploaded file to send. */
export interface UploadedFile {
  data: Buffer;
  fileName: string;
  mimetype: string;
}

/** Media size limits in bytes by kind (WhatsApp's own limits). */
export const MEDIA_LIMITS = {
  image: 16 * 1024 * 1024,
  audio: 16 * 1024 * 1024,
  video: 64 * 1024 * 1024,
  document: 100 * 1024 * 1024,
};

const DOCUMENT_TYPES = [
  /^application\/pdf$/,
  /^application\/(zip|x-zip-compressed|x-rar-compressed|x-7z-compressed|gzip)$/,
  /^application\/vnd\./,
  /^application\/msword$/,
  /^application\/rtf$/,
  /^text\/(plain|csv)$/,
];

/**
 * Checks an upload by its content (magic bytes), not its declared type: images, audio, video and
 * documents (PDF, office files, archives, plain text and CSV) are accepted within MEDIA_LIMITS.
 * @throws ERR_UNSUPPORTED_MEDIA_TYPE, ERR_PAYLOAD_TOO_LARGE.
 */
export async function inspectUpload(
  file: UploadedFile,
): Promise<{ mediaType: 'image' | 'audio' | 'video' | 'document'; mimetype: string; ext: string }> {
  const detected = await fileTypeFromBuffer(file.data);
  let mimetype = detected?.mime as string | undefined;
  if (!mimetype) {
    const declared = mime.lookup(file.fileName) || file.mimetype;
    if (/^text\/(plain|csv)$/.test(declared)) mimetype = declared;
  }
  if (!mimetype) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', { extra: { field: 'medias' } });
  const kind = mimetype.startsWith('image/')
    ? 'image'
    : mimetype.startsWith('audio/')
      ? 'audio'
      : mimetype.startsWith('video/')
        ? 'video'
        : DOCUMENT_TYPES.some((r) => r.test(mimetype!))
          ? 'document'
          : undefined;
  if (!kind) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', { extra: { field: 'medias' } });
  if (file.data.length > MEDIA_LIMITS[kind]) {
    throw new AppError('ERR_PAYLOAD_TOO_LARGE', { extra: { field: 'medias', limit: MEDIA_LIMITS[kind] } });
  }
  return { mediaType: kind, mimetype, ext: detected?.ext ?? (mime.extension(mimetype) || 'bin') };
}

/** The job sending again a message the provider refused for its rate limit. */
export const OUTBOUND_RETRY_JOB = 'outbound-retry';

interface OutboundRetryJob {
  companyId: number;
  messageId: number;
  /** Attempts made so far (1 after the first refusal). */
  attempt: number;
}

/** A check run before a user's message is stored (e.g. the Cloud API's 24-hour window). */
export type SendCheck = (
  companyId: number,
  ticket: { companyId: number; contactId: number; whatsappId: number | null },
) => Promise<void>;

/** One outbound message to store (a text, or a stored file with its caption). */
export interface OutboundRow {
  body: string;
  mediaType: MediaType;
  mediaUrl: string | null;
  mediaName: string | null;
}

/** The ticket fields storing an outbound message needs. */
export interface OutboundTicket {
  id: number;
  companyId: number;
  contactId: number;
  whatsappId: number | null;
  queueId: number | null;
  userId: number | null;
  status: string;
}

/** The claim a node takes on an outbound message before handing it to its session. */
export interface SendingClaimOptions {
  /** This node's id (config `nodeId`, stable across restarts, unique among live nodes). */
  nodeId: string;
  /** How long a claim holds, ms (config SENDING_CLAIM_MS); a driver call is given up after half. */
  claimMs: number;
}

/**
 * Outbound messages (issue: messaging engine, point 5). Each message is stored with ack 0 before
 * the driver call and updated with the provider id and ack afterwards; a driver failure marks it
 * ack -1 with error ERR_SENDING_WAPP_MSG, and `retry` sends it again. A message with a provider id
 * is never sent again. While the connection's session is not connected anywhere yet (starting,
 * restarting, its lease moving between nodes) a message waits at ack 0 and goes out when the
 * session connects; only a stopped connection (DISCONNECTED) or the provider's refusal fails it.
 */
export class OutboundSender {
  /** What this process writes in `sending_by`: its node id and a random instance of the process. */
  readonly claimant: string;
  /** Checks run before `send` stores anything; a throw refuses the send (providers add theirs). */
  readonly sendChecks: SendCheck[] = [];
  private retries: { jobs: JobQueue; baseSeconds: number; limit: number } | undefined;

  constructor(
    private readonly ctx: AppContext,
    private readonly sessions: SessionManager,
    private readonly media: MediaStore,
    private readonly claim: SendingClaimOptions = { nodeId: 'local', claimMs: 120_000 },
  ) {
    this.claimant = `${claim.nodeId}/${crypto.randomUUID()}`;
  }

  /**
   * Sends again, with exponential backoff (`baseSeconds`, doubling, up to `limit` attempts), the
   * messages a driver refused with a `ChannelSendError` asking for a retry (rate limits); they
   * wait at ack 0 meanwhile and fail (ack -1) after the last attempt. Call before the queue starts.
   */
  useRetries(jobs: JobQueue, options: { baseSeconds: number; limit: number }): void {
    this.retries = { jobs, ...options };
    jobs.define<OutboundRetryJob>(
      OUTBOUND_RETRY_JOB,
      async (data) => void (await this.deliver(data.companyId, data.messageId, data.attempt)),
      { key: (data) => `outbound-${data.messageId}` },
    );
  }

  /**
   * Whether a message's claim (`sending_at`, `sending_by`) may be taken: none, lapsed (older than
   * `claimMs`), or left by an earlier process of this node id (it restarted, so that process died
   * before recording the outcome).
   */
  private claimable() {
    return sql`(${messages.sendingAt} is null
      or ${messages.sendingAt} < now() - make_interval(secs => ${this.claim.claimMs / 1000})
      or (split_part(${messages.sendingBy}, '/', 1) = ${this.claim.nodeId}
        and ${messages.sendingBy} <> ${this.claimant}))`;
  }

  /**
   * POST /messages/:ticketId: stores and sends a text or files (one message per file, the body as
   * the first file's caption). Signs with '*Name:*' when `signMessage`. Answers the stored messages.
   * @throws ERR_NO_TICKET_FOUND, ERR_VALIDATION (empty body), ERR_NO_MESSAGE_FOUND (quoted),
   *   ERR_SENDING_WAPP_MSG (with `messageIds`, retry possible).
   */
  async send(
    auth: AuthContext,
    ticketId: number,
    input: { body: string; quotedMsgId?: number; files?: UploadedFile[]; signMessage?: boolean },
  ): Promise<Message[]> {
    const files = input.files ?? [];
    const text = input.body.trim();
    if (!text && files.length === 0)
      throw new AppError('ERR_VALIDATION', { extra: { field: 'body', message: 'required' } });
    const [target] = await this.ctx.db
      .select({ ticket: tickets, number: contacts.number, userName: users.name })
      .from(tickets)
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .innerJoin(users, eq(users.id, auth.userId))
      .where(and(eq(tickets.companyId, auth.companyId), eq(tickets.id, ticketId)));
    if (!target) throw new AppError('ERR_NO_TICKET_FOUND');
    for (const check of this.sendChecks) await check(auth.companyId, target.ticket);
    let quotedMsgId: number | null = null;
    if (input.quotedMsgId) {
      const [quoted] = await this.ctx.db
        .select({ id: messages.id })
        .from(messages)
        .where(
          and(
            eq(messages.companyId, auth.companyId),
            eq(messages.id, input.quotedMsgId),
            eq(messages.contactId, target.ticket.contactId),
          ),
        );
      if (!quoted) throw new AppError('ERR_NO_MESSAGE_FOUND', { extra: { field: 'quotedMsg' } });
      quotedMsgId = quoted.id;
    }
    const body = text && input.signMessage ? `*${target.userName}:*\n${input.body}` : input.body;
    const inspected = await Promise.all(files.map((file) => inspectUpload(file)));
    const stored = await Promise.all(
      files.map((file, i) => this.media.save(auth.companyId, file.data, inspected[i]!.ext)),
    );
    const rows = files.length
      ? files.map((file, i) => ({
          body: i === 0 ? body : '',
          mediaType: inspected[i]!.mediaType as MediaType,
          mediaUrl: stored[i]!,
          mediaName: file.fileName,
        }))
      : [{ body, mediaType: 'chat' as MediaType, mediaUrl: null, mediaName: null }];
    const ids = await this.store(auth.companyId, target.ticket, auth.userId, rows, quotedMsgId);
    const results = [];
    for (const id of ids) results.push(await this.deliver(auth.companyId, id));
    const failed = results.filter((m) => m.ack === -1);
    if (failed.length)
      throw new AppError(catalogued(failed[0]!.error), { extra: { messageIds: failed.map((m) => m.id) } });
    return results;
  }

  /**
   * Sends a text, or files (the text as the first file's caption), on a ticket as the company itself,
   * with no user behind it (the external messages API, issue 13 item 3). Answers the stored messages.
   * @throws ERR_NO_TICKET_FOUND, ERR_VALIDATION (nothing to send), ERR_UNSUPPORTED_MEDIA_TYPE,
   *   ERR_PAYLOAD_TOO_LARGE, ERR_SENDING_WAPP_MSG (with `messageIds`, retry possible).
   */
  async sendAsCompany(
    companyId: number,
    ticketId: number,
    input: { body: string; files?: UploadedFile[] },
  ): Promise<Message[]> {
    const files = input.files ?? [];
    if (!input.body.trim() && files.length === 0)
      throw new AppError('ERR_VALIDATION', { extra: { field: 'body', message: 'required' } });
    const [ticket] = await this.ctx.db
      .select()
      .from(tickets)
      .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId)));
    if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
    const inspected = await Promise.all(files.map((file) => inspectUpload(file)));
    const stored = await Promise.all(
      files.map((file, i) => this.media.save(companyId, file.data, inspected[i]!.ext)),
    );
    const rows = files.length
      ? files.map((file, i) => ({
          body: i === 0 ? input.body : '',
          mediaType: inspected[i]!.mediaType as MediaType,
          mediaUrl: stored[i]!,
          mediaName: file.fileName,
        }))
      : [{ body: input.body, mediaType: 'chat' as MediaType, mediaUrl: null, mediaName: null }];
    const ids = await this.store(companyId, ticket, null, rows, null);
    const results = [];
    for (const id of ids) results.push(await this.deliver(companyId, id));
    const failed = results.filter((m) => m.ack === -1);
    if (failed.length)
      throw new AppError('ERR_SENDING_WAPP_MSG', { extra: { messageIds: failed.map((m) => m.id) } });
    return results;
  }

  /**
   * Sends an automatic text (chatbot menus, out-of-hours, timers, closing and rating messages) on a
   * ticket with no user behind it. A delivery failure leaves the message at ack -1, retryable from the
   * chat, and is not thrown. @returns the stored message, or undefined when the ticket is gone.
   */
  async sendAutomatic(companyId: number, ticketId: number, body: string): Promise<Message | undefined> {
    const [ticket] = await this.ctx.db
      .select()
      .from(tickets)
      .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId)));
    if (!ticket || !body.trim()) return undefined;
    const [id] = await this.store(
      companyId,
      ticket,
      null,
      [{ body, mediaType: 'chat', mediaUrl: null, mediaName: null }],
      null,
    );
    return this.deliver(companyId, id!);
  }

  /** Stores outbound messages at ack 0 with the ticket's preview, then emits them. @returns their ids. */
  private async store(
    companyId: number,
    ticket: OutboundTicket,
    userId: number | null,
    rows: { body: string; mediaType: MediaType; mediaUrl: string | null; mediaName: string | null }[],
    quotedMsgId: number | null,
  ): Promise<number[]> {
    const ids = await this.ctx.db.transaction((tx) =>
      this.insertOutbound(tx, companyId, ticket, userId, rows, quotedMsgId),
    );
    await this.emitStored(companyId, ticket, ids);
    return ids;
  }

  /**
   * Stores outbound messages at ack 0 inside the caller's transaction `tx` (no event, no driver
   * call): what commits with `tx` is sent exactly once by `deliverStored` after the commit, or by
   * `deliverPending` when the session (re)connects. Campaigns mark a shipping in the same `tx`.
   * @returns the message ids.
   */
  async storeWithin(
    tx: Tx,
    companyId: number,
    ticket: OutboundTicket,
    rows: OutboundRow[],
  ): Promise<number[]> {
    return this.insertOutbound(tx, companyId, ticket, null, rows, null);
  }

  /**
   * `storeWithin` for several tickets at once: one INSERT of every message and one UPDATE of the
   * tickets' previews, inside `tx` (a campaign's batch of shippings). Items may share a ticket (its
   * preview is the last item's). @returns the message ids of each item, in the items' order.
   */
  async storeManyWithin(
    tx: Tx,
    companyId: number,
    items: { ticket: OutboundTicket; rows: OutboundRow[] }[],
  ): Promise<number[][]> {
    const values = items.flatMap(({ ticket, rows }) =>
      rows.map((row) => ({
        ...row,
        companyId,
        ticketId: ticket.id,
        contactId: ticket.contactId,
        whatsappId: ticket.whatsappId,
        userId: null,
        fromMe: true,
        read: true,
        ack: 0,
        quotedMsgId: null,
      })),
    );
    if (values.length === 0) return items.map(() => []);
    const inserted = await tx.insert(messages).values(values).returning({ id: messages.id });
    // One statement numbers its rows from the sequence in the order of its VALUES.
    const ids = inserted.map((r) => r.id).sort((x, y) => x - y);
    const previews = new Map<number, string>();
    for (const { ticket, rows } of items) {
      const last = rows.at(-1);
      if (last)
        previews.set(
          ticket.id,
          previewOf({ body: last.body, mediaType: last.mediaType, fileName: last.mediaName ?? undefined }),
        );
    }
    if (previews.size)
      await tx.execute(sql`
        update tickets t set last_message = v.preview, updated_at = now()
        from (values ${sql.join(
          [...previews].map(([id, preview]) => sql`(${id}::int, ${preview}::text)`),
          sql`, `,
        )}) as v(id, preview)
        where t.id = v.id`);
    let next = 0;
    return items.map(({ rows }) => rows.map(() => ids[next++]!));
  }

  /**
   * After the commit of `storeWithin` (or of another module's own transaction that stored messages
   * at ack 0 with its state: a flow step, a campaign shipping): emits the stored messages and hands
   * each to its session, so a step or shipping run twice sends nothing twice. `ticket` is the ticket
   * or its id (read again for the events). A delivery failure leaves the message at ack -1,
   * retryable, and is not thrown. @returns the messages.
   */
  async deliverStored(companyId: number, ticket: OutboundTicket | number, ids: number[]): Promise<Message[]> {
    if (ids.length === 0) return [];
    await this.emitStored(companyId, ticket, ids);
    const results: Message[] = [];
    for (const id of ids) results.push(await this.deliver(companyId, id));
    return results;
  }

  private async emitStored(companyId: number, ticket: OutboundTicket | number, ids: number[]): Promise<void> {
    const created = await findMessages(this.ctx.db, companyId, ids);
    const fresh = await findTicket(this.ctx.db, companyId, typeof ticket === 'number' ? ticket : ticket.id);
    const target = typeof ticket === 'number' ? fresh : ticket;
    if (target)
      for (const message of created)
        this.ctx.realtime.toTicket(target, 'appMessage', { action: 'create', message, ticket: fresh });
    if (fresh) this.ctx.realtime.toTicket(fresh, 'ticket', { action: 'update', ticket: fresh });
  }

  private async insertOutbound(
    tx: Tx,
    companyId: number,
    ticket: OutboundTicket,
    userId: number | null,
    rows: { body: string; mediaType: MediaType; mediaUrl: string | null; mediaName: string | null }[],
    quotedMsgId: number | null,
  ): Promise<number[]> {
    const ticketId = ticket.id;
    {
      const inserted = await tx
        .insert(messages)
        .values(
          rows.map((row) => ({
            ...row,
            companyId: companyId,
            ticketId,
            contactId: ticket.contactId,
            whatsappId: ticket.whatsappId,
            userId,
            fromMe: true,
            read: true,
            ack: 0,
            quotedMsgId,
          })),
        )
        .returning({ id: messages.id });
      const last = rows.at(-1)!;
      await tx
        .update(tickets)
        .set({
          lastMessage: previewOf({
            body: last.body,
            mediaType: last.mediaType,
            fileName: last.mediaName ?? undefined,
          }),
          updatedAt: sql`now()`,
        })
        .where(eq(tickets.id, ticketId));
      return inserted.map((r) => r.id);
    }
  }

  /**
   * POST /messages/:id/retry: sends a failed message again. A message already accepted by the
   * provider (or in flight) is answered as it is, never sent twice.
   * @throws ERR_NO_MESSAGE_FOUND, ERR_SENDING_WAPP_MSG.
   */
  async retry(auth: AuthContext, messageId: number): Promise<Message> {
    const [claimed] = await this.ctx.db
      .update(messages)
      .set({ ack: 0, error: null, sendingAt: null, sendingBy: null, updatedAt: sql`now()` })
      .where(
        and(
          eq(messages.companyId, auth.companyId),
          eq(messages.id, messageId),
          eq(messages.fromMe, true),
          eq(messages.ack, -1),
          isNull(messages.wid),
        ),
      )
      .returning({ id: messages.id });
    if (!claimed) {
      const current = await findMessage(this.ctx.db, auth.companyId, messageId);
      if (!current?.fromMe) throw new AppError('ERR_NO_MESSAGE_FOUND');
      return current;
    }
    const sent = await this.deliver(auth.companyId, messageId);
    if (sent.ack === -1) throw new AppError(catalogued(sent.error), { extra: { messageIds: [sent.id] } });
    return sent;
  }

  /**
   * DELETE /messages/:id: deletes for everyone a message sent by the company — the sender's own, or
   * any for admins. @throws ERR_NO_MESSAGE_FOUND, ERR_NO_PERMISSION, ERR_DELETE_WAPP_MSG.
   */
  async remove(auth: AuthContext, messageId: number): Promise<Message> {
    const [row] = await this.ctx.db
      .select({ message: messages, number: contacts.number })
      .from(messages)
      .innerJoin(contacts, eq(contacts.id, messages.contactId))
      .where(and(eq(messages.companyId, auth.companyId), eq(messages.id, messageId)));
    if (!row) throw new AppError('ERR_NO_MESSAGE_FOUND');
    const m = row.message;
    if (!m.fromMe || (m.userId !== auth.userId && !isAdmin(auth))) throw new AppError('ERR_NO_PERMISSION');
    if (m.wid && m.whatsappId) {
      const driver = this.sessions.get(m.whatsappId);
      if (!driver) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
      await driver.deleteMessage(row.number, m.wid).catch((error) => {
        this.ctx.log.warn({ err: error }, 'delete failed');
        throw new AppError('ERR_DELETE_WAPP_MSG');
      });
    }
    await this.ctx.db
      .update(messages)
      .set({ isDeleted: true, updatedAt: sql`now()` })
      .where(eq(messages.id, m.id));
    const [updated] = await emitMessageUpdates(this.ctx, auth.companyId, [m.id]);
    return updated!;
  }

  /**
   * At start: gives back the claims an earlier process of this node id left on unsent messages (it
   * died between the claim and the driver's answer), so whichever node runs each message's session
   * sends it at its next connect or lease tick. @returns how many claims were released.
   */
  async releaseDeadClaims(): Promise<number> {
    const released = await this.ctx.db
      .update(messages)
      .set({ sendingAt: null, sendingBy: null })
      .where(
        and(
          eq(messages.fromMe, true),
          isNull(messages.wid),
          eq(messages.ack, 0),
          sql`split_part(${messages.sendingBy}, '/', 1) = ${this.claim.nodeId}`,
          sql`${messages.sendingBy} <> ${this.claimant}`,
        ),
      )
      .returning({ id: messages.id });
    return released.length;
  }

  /**
   * Sends the outbound messages waiting at ack 0 for these connections (stored by other nodes, or
   * while the session was not connected), oldest first, `limit` per pass until none is left or no
   * session is connected any more. @returns how many were handed to `deliver`.
   */
  async deliverPending(connectionIds: number[], limit = 200): Promise<number> {
    let total = 0;
    for (let pass = 0; pass < 100; pass++) {
      const ready = connectionIds.filter((id) => this.sessions.ready(id));
      const count = await this.deliverPendingPass(ready, limit);
      total += count;
      if (count < limit) break;
    }
    return total;
  }

  private async deliverPendingPass(connectionIds: number[], limit: number): Promise<number> {
    if (connectionIds.length === 0) return 0;
    const rows = await this.ctx.db
      .select({ id: messages.id, companyId: messages.companyId })
      .from(messages)
      .where(
        and(
          inArray(messages.whatsappId, connectionIds),
          eq(messages.fromMe, true),
          isNull(messages.wid),
          eq(messages.ack, 0),
          this.claimable(),
        ),
      )
      .orderBy(asc(messages.whatsappId), asc(messages.id))
      .limit(limit);
    for (const row of rows) await this.deliver(row.companyId, row.id);
    return rows.length;
  }

  /**
   * Calls the driver for a stored message (ack 0) and records the outcome. When the session is not
   * connected here but runs, or will run, somewhere (`SessionManager.willRun`) the message is left at
   * ack 0 for the node whose session connects (`deliverPending`). A claim (`sending_at`) makes sure
   * only one caller hands a message to a driver; a claim left by a dead process of this node id or
   * older than `claimMs` is taken again (the driver call is given up after `claimMs / 2`, so a live
   * claimant's claim never lapses mid-call).
   */
  private async deliver(companyId: number, messageId: number, attempt = 0): Promise<Message> {
    const [row] = await this.ctx.db
      .select({
        message: messages,
        number: contacts.number,
        quotedWid: sql<string | null>`(select q.wid from messages q where q.id = ${messages.quotedMsgId})`,
      })
      .from(messages)
      .innerJoin(contacts, eq(contacts.id, messages.contactId))
      .where(and(eq(messages.companyId, companyId), eq(messages.id, messageId)));
    if (!row) throw new AppError('ERR_NO_MESSAGE_FOUND');
    const m = row.message;
    const local = m.whatsappId ? this.sessions.ready(m.whatsappId) : undefined;
    const current = async () => (await findMessage(this.ctx.db, companyId, messageId))!;
    if (!local && m.whatsappId && (await this.sessions.willRun(m.whatsappId))) return current();
    const [claimed] = await this.ctx.db
      .update(messages)
      .set({ sendingAt: sql`now()`, sendingBy: this.claimant })
      .where(and(eq(messages.id, messageId), isNull(messages.wid), eq(messages.ack, 0), this.claimable()))
      .returning({ id: messages.id });
    if (!claimed) return current();
    let outcome: Outcome;
    try {
      const driver = local;
      if (!driver) throw new Error('session not running');
      const content = await this.contentOf(companyId, m);
      const sent = await withTimeout(
        driver.send(row.number, content, { quotedProviderId: row.quotedWid ?? undefined }),
        this.claim.claimMs / 2,
      );
      outcome = { wid: sent.providerId, ack: sent.ack };
    } catch (error) {
      outcome = this.failureOf(error, messageId, attempt);
    }
    return this.record(companyId, messageId, attempt, outcome);
  }

  /** The outcome of a driver call that threw: wait for the session, retry later, or fail. */
  private failureOf(error: unknown, messageId: number, attempt: number): Outcome {
    this.ctx.log.warn({ err: error, messageId }, 'sending failed');
    if (!(error instanceof ChannelSendError)) return { error: 'ERR_SENDING_WAPP_MSG' };
    const retryMs = error.options.retryAfterMs;
    if (error.options.waitForSession) return { wait: null };
    if (retryMs !== undefined && this.retries && attempt < this.retries.limit)
      return { wait: Math.max(retryMs / 1000, this.retries.baseSeconds * 2 ** attempt) };
    return { error: error.code };
  }

  /** Records a claimed message's outcome (provider id, failure, or back to ack 0 to wait) and emits it. */
  private async record(
    companyId: number,
    messageId: number,
    attempt: number,
    outcome: Outcome,
  ): Promise<Message> {
    if ('wait' in outcome) {
      // Left at ack 0 without a claim: the session's next connect, or the retry job, sends it.
      await this.ctx.db
        .update(messages)
        .set({ sendingAt: null, sendingBy: null })
        .where(eq(messages.id, messageId));
      if (outcome.wait !== null && this.retries) {
        await this.retries.jobs.send<OutboundRetryJob>(
          OUTBOUND_RETRY_JOB,
          { companyId, messageId, attempt: attempt + 1 },
          { startAfterSeconds: outcome.wait },
        );
      }
      return (await findMessage(this.ctx.db, companyId, messageId))!;
    }
    await this.ctx.db
      .update(messages)
      .set(
        'wid' in outcome
          ? {
              wid: outcome.wid,
              ack: sql`greatest(${messages.ack}, ${outcome.ack})`,
              error: null,
              updatedAt: sql`now()`,
            }
          : { ack: -1, error: outcome.error, updatedAt: sql`now()` },
      )
      .where(eq(messages.id, messageId));
    const [updated] = await emitMessageUpdates(this.ctx, companyId, [messageId]);
    return updated!;
  }

  /**
   * `deliverStored` for many stored messages (ack 0) of a company at once, on any tickets (a
   * campaign's batch of shippings): emits them, claims in one UPDATE those whose session is
   * connected here, hands them to the driver one after the other, and records the accepted ones in
   * one UPDATE. The rest (session elsewhere or not yet connected, claimed by another caller, refused
   * by the driver) take the one-message path of `deliverStored`. Not thrown on failure (ack -1).
   * @returns the messages, in the order of `ids`.
   */
  async deliverStoredMany(companyId: number, ids: number[]): Promise<Message[]> {
    if (ids.length === 0) return [];
    const created = await findMessages(this.ctx.db, companyId, ids);
    const owners = await findTickets(this.ctx.db, companyId, [...new Set(created.map((m) => m.ticketId))]);
    for (const ticket of owners) {
      for (const message of created)
        if (message.ticketId === ticket.id)
          this.ctx.realtime.toTicket(ticket, 'appMessage', { action: 'create', message, ticket });
      this.ctx.realtime.toTicket(ticket, 'ticket', { action: 'update', ticket });
    }
    const rows = await this.ctx.db
      .select({
        message: messages,
        number: contacts.number,
        quotedWid: sql<string | null>`(select q.wid from messages q where q.id = ${messages.quotedMsgId})`,
      })
      .from(messages)
      .innerJoin(contacts, eq(contacts.id, messages.contactId))
      .where(and(eq(messages.companyId, companyId), inArray(messages.id, ids)));
    const local = rows.filter((r) => r.message.whatsappId && this.sessions.ready(r.message.whatsappId));
    const claimed = local.length
      ? await this.ctx.db
          .update(messages)
          .set({ sendingAt: sql`now()`, sendingBy: this.claimant })
          .where(
            and(
              inArray(
                messages.id,
                local.map((r) => r.message.id),
              ),
              isNull(messages.wid),
              eq(messages.ack, 0),
              this.claimable(),
            ),
          )
          .returning({ id: messages.id })
      : [];
    const mine = new Set(claimed.map((r) => r.id));
    const results = new Map<number, Message>();
    const accepted: { id: number; wid: string; ack: number }[] = [];
    for (const row of rows) {
      const m = row.message;
      if (!mine.has(m.id)) continue;
      try {
        const driver = this.sessions.ready(m.whatsappId!);
        if (!driver) throw new Error('session not running');
        const content = await this.contentOf(companyId, m);
        const sent = await withTimeout(
          driver.send(row.number, content, { quotedProviderId: row.quotedWid ?? undefined }),
          this.claim.claimMs / 2,
        );
        accepted.push({ id: m.id, wid: sent.providerId, ack: sent.ack });
      } catch (error) {
        results.set(m.id, await this.record(companyId, m.id, 0, this.failureOf(error, m.id, 0)));
      }
    }
    if (accepted.length) {
      await this.ctx.db.execute(sql`
        update messages m set wid = v.wid, ack = greatest(m.ack, v.ack), error = null, updated_at = now()
        from (values ${sql.join(
          accepted.map((a) => sql`(${a.id}::int, ${a.wid}::text, ${a.ack}::int)`),
          sql`, `,
        )}) as v(id, wid, ack)
        where m.id = v.id`);
      const updated = await emitMessageUpdates(
        this.ctx,
        companyId,
        accepted.map((a) => a.id),
      );
      for (const message of updated) results.set(message.id, message);
    }
    for (const id of ids) if (!results.has(id)) results.set(id, await this.deliver(companyId, id));
    return ids.map((id) => results.get(id)!);
  }

  private async contentOf(companyId: number, m: typeof messages.$inferSelect): Promise<OutboundContent> {
    if (!m.mediaUrl) return { kind: 'text', body: m.body };
    const data = await this.media.read(companyId, m.mediaUrl);
    const mimetype = mime.lookup(m.mediaUrl) || 'application/octet-stream';
    const mediaType = (['image', 'audio', 'video'].includes(m.mediaType) ? m.mediaType : 'document') as
      | 'image'
      | 'audio'
      | 'video'
      | 'document';
    return {
      kind: 'media',
      mediaType,
      data,
      mimetype,
      fileName: m.mediaName ?? m.mediaUrl,
      caption: m.body || undefined,
    };
  }
}

/** What became of a claimed message: accepted (provider id), failed, or left to wait (seconds or a session). */
type Outcome = { wid: string; ack: number } | { error: string } | { wait: number | null };

/** A stored message error as a catalogue code (ERR_SENDING_WAPP_MSG when it is not one). */
function catalogued(error: string | null): ErrorCode {
  return isErrorCode(error) ? error : 'ERR_SENDING_WAPP_MSG';
}

/** Resolves or rejects like `promise`, or rejects after `ms` milliseconds. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`driver call timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
