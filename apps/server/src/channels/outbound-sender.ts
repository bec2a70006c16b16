import { type ErrorCode, isErrorCode, type MediaType, type Message } from '@zapdesk/shared';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { Tx } from '../db/client.js';
import { findMessage } from '../db/message-repository.js';
import { contacts, messages, tickets, users } from '../db/schema/index.js';
import { assertMayActOnTicket, loadViewer } from '../db/ticket-visibility.js';
import type { JobQueue } from '../jobs/job-queue.js';
import { AppError } from '../lib/app-error.js';
import { type AuthContext, isAdmin } from '../lib/guards.js';
import type { MediaStore } from './media-store.js';
import { emitMessageUpdates } from './message-events.js';
import { OutboundDelivery, type SendingClaimOptions } from './outbound-delivery.js';
import {
  emitStored,
  emitStoredMany,
  insertOutbound,
  insertOutboundMany,
  type OutboundRow,
  type OutboundTicket,
} from './outbound-store.js';
import { inspectUpload, type UploadedFile } from './outbound-upload.js';
import type { SessionManager } from './session-manager.js';

/** A check run before a user's message is stored (e.g. the Cloud API's 24-hour window). */
export type SendCheck = (
  companyId: number,
  ticket: { companyId: number; contactId: number; whatsappId: number | null },
) => Promise<void>;

/**
 * Outbound messages. Each message is stored with ack 0 before
 * the driver call and updated with the provider id and ack afterwards; a driver failure marks it
 * ack -1 with its error (ERR_WAPP_NOT_INITIALIZED when the session is stopped, the provider's code,
 * or ERR_SENDING_WAPP_MSG), and `retry` sends it again. A message with a provider id
 * is never sent again. While the connection's session is not connected anywhere yet (starting,
 * restarting, its lease moving between nodes) a message waits at ack 0 and goes out when the
 * session connects; only a stopped connection (DISCONNECTED) or the provider's refusal fails it.
 * Storing is in outbound-store.ts, the driver calls and their outcomes in outbound-delivery.ts
 * (OutboundDelivery), the checks of uploaded files in outbound-upload.ts.
 */
export class OutboundSender {
  /** What this process writes in `sending_by`: its node id and a random instance of the process. */
  readonly claimant: string;
  /** Checks run before `send` stores anything; a throw refuses the send (providers add theirs). */
  readonly sendChecks: SendCheck[] = [];
  private readonly delivery: OutboundDelivery;

  constructor(
    private readonly ctx: AppContext,
    private readonly sessions: SessionManager,
    private readonly media: MediaStore,
    claim: SendingClaimOptions = { nodeId: 'local', claimMs: 120_000 },
  ) {
    this.delivery = new OutboundDelivery(ctx, sessions, media, claim);
    this.claimant = this.delivery.claimant;
  }

  /**
   * Sends again, with exponential backoff (`baseSeconds`, doubling, up to `limit` attempts), the
   * messages a driver refused with a `ChannelSendError` asking for a retry (rate limits); they
   * wait at ack 0 meanwhile and fail (ack -1) after the last attempt. Call before the queue starts.
   */
  useRetries(jobs: JobQueue, options: { baseSeconds: number; limit: number }): void {
    this.delivery.useRetries(jobs, options);
  }

  /**
   * POST /messages/:ticketId: stores and sends a text or files (one message per file, the body as
   * the first file's caption). Signs with '*Name:*' when `signMessage`. Answers the stored messages.
   * @throws ERR_NO_TICKET_FOUND, ERR_VALIDATION (empty body), ERR_NO_MESSAGE_FOUND (quoted),
   *   ERR_WAPP_NOT_INITIALIZED (session stopped) or ERR_SENDING_WAPP_MSG (with `messageIds`, retry possible).
   */
  async send(
    auth: AuthContext,
    ticketId: number,
    input: {
      body: string;
      quotedMsgId?: number;
      files?: UploadedFile[];
      signMessage?: boolean;
      /** Written by the app for the agent (greeting, transfer notice): not the agent's first reply. */
      automatic?: boolean;
    },
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
    const rows = await this.rowsOf(auth.companyId, body, files);
    const ids = await this.store(
      auth.companyId,
      target.ticket,
      auth.userId,
      rows,
      quotedMsgId,
      input.automatic === true,
    );
    const results = [];
    for (const id of ids) results.push(await this.delivery.deliver(auth.companyId, id));
    const failed = results.filter((m) => m.ack === -1);
    if (failed.length)
      throw new AppError(catalogued(failed[0]!.error), { extra: { messageIds: failed.map((m) => m.id) } });
    return results;
  }

  /**
   * Sends a text, or files (the text as the first file's caption), on a ticket as the company itself,
   * with no user behind it (the external messages API). Answers the stored messages.
   * @throws ERR_NO_TICKET_FOUND, ERR_VALIDATION (nothing to send), ERR_UNSUPPORTED_MEDIA_TYPE,
   *   ERR_PAYLOAD_TOO_LARGE, ERR_WAPP_NOT_INITIALIZED (session stopped) or ERR_SENDING_WAPP_MSG
   *   (with `messageIds`, retry possible).
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
    const rows = await this.rowsOf(companyId, input.body, files);
    const ids = await this.store(companyId, ticket, null, rows, null);
    const results = [];
    for (const id of ids) results.push(await this.delivery.deliver(companyId, id));
    const failed = results.filter((m) => m.ack === -1);
    if (failed.length)
      throw new AppError(catalogued(failed[0]!.error), { extra: { messageIds: failed.map((m) => m.id) } });
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
    return this.delivery.deliver(companyId, id!);
  }

  /**
   * The messages of a send: one per file (checked by `inspectUpload`, saved in the media store now,
   * `body` as the first one's caption), or the text alone.
   * @throws ERR_UNSUPPORTED_MEDIA_TYPE, ERR_PAYLOAD_TOO_LARGE.
   */
  private async rowsOf(companyId: number, body: string, files: UploadedFile[]): Promise<OutboundRow[]> {
    const inspected = await Promise.all(files.map((file) => inspectUpload(file)));
    const stored = await this.media.saveAll(
      companyId,
      files.map((file, i) => ({ data: file.data, extension: inspected[i]!.ext })),
    );
    return files.length
      ? files.map((file, i) => ({
          body: i === 0 ? body : '',
          mediaType: inspected[i]!.mediaType as MediaType,
          mediaUrl: stored[i]!,
          mediaName: file.fileName,
        }))
      : [{ body, mediaType: 'chat' as MediaType, mediaUrl: null, mediaName: null }];
  }

  /** Stores outbound messages at ack 0 with the ticket's preview, then emits them. @returns their ids. */
  private async store(
    companyId: number,
    ticket: OutboundTicket,
    userId: number | null,
    rows: OutboundRow[],
    quotedMsgId: number | null,
    automatic = false,
  ): Promise<number[]> {
    const ids = await this.ctx.db.transaction((tx) =>
      insertOutbound(tx, companyId, ticket, userId, rows, quotedMsgId, automatic),
    );
    await emitStored(this.ctx, companyId, ticket, ids);
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
    return insertOutbound(tx, companyId, ticket, null, rows, null);
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
    return insertOutboundMany(tx, companyId, items);
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
    await emitStored(this.ctx, companyId, ticket, ids);
    const results: Message[] = [];
    for (const id of ids) results.push(await this.delivery.deliver(companyId, id));
    return results;
  }

  /**
   * POST /messages/:id/retry: sends a failed message again. A message already accepted by the
   * provider (or in flight) is answered as it is, never sent twice. The caller must be able to open
   * the message's ticket (docs/security.md "Acting on a ticket").
   * @throws ERR_NO_MESSAGE_FOUND, ERR_NO_PERMISSION (403), ERR_WAPP_NOT_INITIALIZED, ERR_SENDING_WAPP_MSG.
   */
  async retry(auth: AuthContext, messageId: number): Promise<Message> {
    await this.assertMayActOnMessage(auth, messageId);
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
    const sent = await this.delivery.deliver(auth.companyId, messageId);
    if (sent.ack === -1) throw new AppError(catalogued(sent.error), { extra: { messageIds: [sent.id] } });
    return sent;
  }

  /**
   * DELETE /messages/:id: deletes for everyone a message sent by the company — the sender's own, or
   * any for admins — on a ticket the caller may open (docs/security.md "Acting on a ticket").
   * @throws ERR_NO_MESSAGE_FOUND, ERR_NO_PERMISSION, ERR_DELETE_WAPP_MSG.
   */
  async remove(auth: AuthContext, messageId: number): Promise<Message> {
    await this.assertMayActOnMessage(auth, messageId);
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
   * The caller may act on the ticket of the company's message `messageId` (when it has one).
   * @throws ERR_NO_PERMISSION (403).
   */
  private async assertMayActOnMessage(auth: AuthContext, messageId: number): Promise<void> {
    const [row] = await this.ctx.db
      .select({ userId: tickets.userId, queueId: tickets.queueId, status: tickets.status })
      .from(messages)
      .innerJoin(tickets, eq(tickets.id, messages.ticketId))
      .where(and(eq(messages.companyId, auth.companyId), eq(messages.id, messageId)));
    if (row) assertMayActOnTicket(await loadViewer(this.ctx.db, auth), row);
  }

  /**
   * At start: gives back the claims an earlier process of this node id left on unsent messages (it
   * died between the claim and the driver's answer), so whichever node runs each message's session
   * sends it at its next connect or lease tick. @returns how many claims were released.
   */
  releaseDeadClaims(): Promise<number> {
    return this.delivery.releaseDeadClaims();
  }

  /**
   * Sends the outbound messages waiting at ack 0 for these connections (stored by other nodes, or
   * while the session was not connected), oldest first, `limit` per pass until none is left or no
   * session is connected any more. @returns how many were handed to `OutboundDelivery.deliver`.
   */
  deliverPending(connectionIds: number[], limit = 200): Promise<number> {
    return this.delivery.deliverPending(connectionIds, limit);
  }

  /**
   * `deliverStored` for many stored messages (ack 0) of a company at once, on any tickets (a
   * campaign's batch of shippings): emits them, then claims, sends and records them in batches
   * (`OutboundDelivery.deliverMany`). Not thrown on failure (ack -1).
   * @returns the messages, in the order of `ids`.
   */
  async deliverStoredMany(companyId: number, ids: number[]): Promise<Message[]> {
    if (ids.length === 0) return [];
    await emitStoredMany(this.ctx, companyId, ids);
    return this.delivery.deliverMany(companyId, ids);
  }
}

/** A stored message error as a catalogue code (ERR_SENDING_WAPP_MSG when it is not one). */
function catalogued(error: string | null): ErrorCode {
  return isErrorCode(error) ? error : 'ERR_SENDING_WAPP_MSG';
}
