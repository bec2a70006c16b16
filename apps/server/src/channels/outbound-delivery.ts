import crypto from 'node:crypto';
import type { Message, OutboundContent, SentMessage } from '@zapdesk/shared';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import mime from 'mime-types';
import type { AppContext } from '../context.js';
import { findMessage } from '../db/message-repository.js';
import { contacts, messages } from '../db/schema/index.js';
import type { JobQueue } from '../jobs/job-queue.js';
import { AppError } from '../lib/app-error.js';
import type { ChannelDriver } from './driver.js';
import type { MediaStore } from './media-store.js';
import { emitMessageUpdates } from './message-events.js';
import { ChannelSendError } from './send-error.js';
import type { SessionManager } from './session-manager.js';

/** The job sending again a message the provider refused for its rate limit. */
export const OUTBOUND_RETRY_JOB = 'outbound-retry';

/**
 * The job that sends, once its claim has lapsed, the oldest unsent message of a ticket that another
 * process claimed (and the ones held back behind it, in order).
 */
export const OUTBOUND_ORDER_JOB = 'outbound-order';

/**
 * The provider id a stored outbound message carries on every attempt (`SendOptions.messageId`):
 * '3EB0' and 18 hex digits, shaped as WhatsApp Web's own ids, derived from the message's row id and
 * creation time. A message the driver accepted but whose id was not stored yet (the process died in
 * between) goes out again after the restart with the same id, and the recipient takes it once.
 * Providers that choose the id themselves (the Cloud API) ignore it.
 */
export function outboundProviderId(message: { id: number; createdAt: Date | string }): string {
  const at = new Date(message.createdAt).getTime();
  const digest = crypto.createHash('sha256').update(`zapdesk-outbound:${message.id}:${at}`).digest('hex');
  return `3EB0${digest.slice(0, 18).toUpperCase()}`;
}

interface OutboundOrderJob {
  companyId: number;
  /** The ticket's oldest unsent message, claimed by another process when the job was queued. */
  messageId: number;
  ticketId: number;
}

/**
 * What one delivery attempt did: `sent` or `failed` (recorded by this caller), `waiting` (left at
 * ack 0 for the session or the retry job), `held` (an earlier message of its ticket is unsent), or
 * `skipped` (claimed by another caller, already sent, or its session runs elsewhere).
 */
type Attempt = { message: Message; result: 'sent' | 'failed' | 'waiting' | 'held' | 'skipped' };

interface OutboundRetryJob {
  companyId: number;
  messageId: number;
  /** Attempts made so far (1 after the first refusal). */
  attempt: number;
}

/** The claim a node takes on an outbound message before handing it to its session. */
export interface SendingClaimOptions {
  /** This node's id (config `nodeId`, stable across restarts, unique among live nodes). */
  nodeId: string;
  /** How long a claim holds, ms (config SENDING_CLAIM_MS); a driver call is given up after half. */
  claimMs: number;
}

/**
 * Hands stored outbound messages (ack 0) to their sessions and records what became of them: the
 * claim that lets one caller only call a driver, the driver call with its timeout, the provider id
 * and ack, the failure (ack -1, a catalogue code) or the wait (for a session, or for the retry job
 * after a rate limit). Used by OutboundSender, which stores the messages.
 *
 * Per-ticket order: a message is claimed only when no earlier outbound message of its ticket (on
 * the same connection) is unsent (ack 0 without a provider id: pending, claimed by anyone, or
 * waiting for its retry). Whoever records an earlier message's outcome (sent, or failed for good:
 * ack -1 no longer holds anything back) sends the next ones of the ticket; a held message whose
 * predecessor another process claimed is woken by `OUTBOUND_ORDER_JOB` when that claim lapses.
 */
export class OutboundDelivery {
  /** What this process writes in `sending_by`: its node id and a random instance of the process. */
  readonly claimant: string;
  private retries: { jobs: JobQueue; baseSeconds: number; limit: number } | undefined;

  constructor(
    private readonly ctx: AppContext,
    private readonly sessions: SessionManager,
    private readonly media: MediaStore,
    private readonly claim: SendingClaimOptions,
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
    jobs.define<OutboundOrderJob>(OUTBOUND_ORDER_JOB, (data) => this.resumeTicket(data), {
      key: (data) => `outbound-order-${data.ticketId}`,
    });
  }

  /**
   * `OUTBOUND_ORDER_JOB`: sends a ticket's oldest unsent message whose claim (another process's)
   * was due to lapse, then the ones held back behind it. When yet another process claimed it
   * meanwhile, waits again for that claim.
   */
  private async resumeTicket(data: OutboundOrderJob): Promise<void> {
    const message = await this.deliver(data.companyId, data.messageId);
    if (message.ack === 0 && !message.wid) await this.wakeAfterClaim(data.companyId, data.messageId);
  }

  /**
   * Whether an earlier outbound message of the same ticket on the same connection is still unsent
   * (ack 0 without a provider id: pending, claimed by anyone, or waiting for its retry); the message
   * then waits behind it. Reads `messages_ticket_unsent_idx`. Failed messages (ack -1) hold nothing.
   */
  private heldBack() {
    return sql`exists (select 1 from messages e
      where e.company_id = messages.company_id and e.ticket_id = messages.ticket_id
        and e.whatsapp_id = messages.whatsapp_id and e.from_me and e.wid is null and e.ack = 0
        and e.id < messages.id)`;
  }

  /**
   * Queues `OUTBOUND_ORDER_JOB` for the oldest unsent message of `messageId`'s ticket (the message
   * itself or one before it) when another process holds its claim, due when that claim lapses.
   * Nothing when this process holds it (its outcome sends the next ones) or nobody does (the
   * session's connect, the lease tick or the retry job sends it).
   */
  private async wakeAfterClaim(companyId: number, messageId: number): Promise<void> {
    if (!this.retries) return;
    const { rows } = await this.ctx.db.execute<{
      id: number | string;
      ticket_id: number;
      sending_by: string | null;
      wait: number | string | null;
    }>(sql`
      select e.id, e.ticket_id, e.sending_by,
        extract(epoch from e.sending_at + make_interval(secs => ${this.claim.claimMs / 1000}) - now()) as wait
      from messages m
      join messages e on e.company_id = m.company_id and e.ticket_id = m.ticket_id
        and e.whatsapp_id = m.whatsapp_id and e.from_me and e.wid is null and e.ack = 0 and e.id <= m.id
      where m.company_id = ${companyId} and m.id = ${messageId}
      order by e.id
      limit 1`);
    const head = rows[0];
    if (!head?.sending_by || head.sending_by === this.claimant) return;
    // A claim of this node id by another process (it died) may be taken at once.
    const dead = head.sending_by.split('/')[0] === this.claim.nodeId;
    await this.retries.jobs.send<OutboundOrderJob>(
      OUTBOUND_ORDER_JOB,
      { companyId, messageId: Number(head.id), ticketId: head.ticket_id },
      { startAfterSeconds: dead ? 1 : Math.max(1, Math.ceil(Number(head.wait ?? 0)) + 1) },
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
   * while the session was not connected), oldest first: each pass takes, `limit` at most, the
   * oldest unsent message of each ticket (`deliver` sends the ones after it), until none is left or
   * no session is connected any more. @returns how many were handed to `deliver`.
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
          sql`not ${this.heldBack()}`,
        ),
      )
      .orderBy(asc(messages.whatsappId), asc(messages.id))
      .limit(limit);
    for (const row of rows) await this.deliver(row.companyId, row.id);
    return rows.length;
  }

  /**
   * Calls the driver for a stored message (ack 0) and records the outcome, then sends the messages
   * of its ticket held back behind it. When the session is not connected here but runs, or will run,
   * somewhere (`SessionManager.willRun`) the message is left at ack 0 for the node whose session
   * connects (`deliverPending`). A claim (`sending_at`) makes sure only one caller hands a message to
   * a driver; a claim left by a dead process of this node id or older than `claimMs` is taken again
   * (the driver call is given up after `claimMs / 2`, so a live claimant's claim never lapses
   * mid-call). A message behind an unsent earlier one of its ticket is left at ack 0: it goes out
   * after that one. `attempt` counts the rate-limit retries made so far.
   * @returns the message as stored now. @throws ERR_NO_MESSAGE_FOUND.
   */
  async deliver(companyId: number, messageId: number, attempt = 0): Promise<Message> {
    const first = await this.deliverOne(companyId, messageId, attempt);
    if (first.result === 'held') await this.wakeAfterClaim(companyId, messageId);
    if (first.result !== 'sent' && first.result !== 'failed') return first.message;
    await this.deliverFollowing(companyId, first.message);
    return first.message;
  }

  /**
   * Sends, in order, the unsent messages of `after`'s ticket and connection stored after it (message
   * ids), until one cannot go now (held, waiting, or another caller's).
   */
  private async deliverFollowing(companyId: number, after: { id: number }): Promise<void> {
    let last = after.id;
    for (;;) {
      const { rows } = await this.ctx.db.execute<{ id: number | string }>(sql`
        select n.id from messages a
        join messages n on n.company_id = a.company_id and n.ticket_id = a.ticket_id
          and n.whatsapp_id = a.whatsapp_id and n.from_me and n.wid is null and n.ack = 0 and n.id > ${last}
        where a.company_id = ${companyId} and a.id = ${after.id}
        order by n.id
        limit 1`);
      const next = rows[0] ? Number(rows[0].id) : undefined;
      if (next === undefined) return;
      const step = await this.deliverOne(companyId, next, 0);
      if (step.result !== 'sent' && step.result !== 'failed') return;
      last = next;
    }
  }

  /** One message: claim (unless held back), driver call, outcome. */
  private async deliverOne(companyId: number, messageId: number, attempt: number): Promise<Attempt> {
    const [row] = await this.rowsOf(companyId, [messageId]);
    if (!row) throw new AppError('ERR_NO_MESSAGE_FOUND');
    const m = row.message;
    const local = m.whatsappId ? this.sessions.ready(m.whatsappId) : undefined;
    const current = async () => (await findMessage(this.ctx.db, companyId, messageId))!;
    if (!local && m.whatsappId && (await this.sessions.willRun(m.whatsappId)))
      return { message: await current(), result: 'skipped' };
    const [claimed] = await this.ctx.db
      .update(messages)
      .set({ sendingAt: sql`now()`, sendingBy: this.claimant })
      .where(
        and(
          eq(messages.id, messageId),
          isNull(messages.wid),
          eq(messages.ack, 0),
          this.claimable(),
          sql`not ${this.heldBack()}`,
        ),
      )
      .returning({ id: messages.id });
    if (!claimed) {
      const message = await current();
      const held = message.ack === 0 && !message.wid && (await this.isHeld(companyId, messageId));
      return { message, result: held ? 'held' : 'skipped' };
    }
    let outcome: Outcome;
    try {
      const sent = await this.sendThrough(local, companyId, row);
      outcome = { wid: sent.providerId, ack: sent.ack };
    } catch (error) {
      outcome = this.failureOf(error, messageId, attempt);
    }
    const message = await this.record(companyId, messageId, attempt, outcome);
    return { message, result: 'wait' in outcome ? 'waiting' : 'wid' in outcome ? 'sent' : 'failed' };
  }

  /** Whether an unsent earlier message of its ticket holds this one back. */
  private async isHeld(companyId: number, messageId: number): Promise<boolean> {
    const [row] = await this.ctx.db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.companyId, companyId), eq(messages.id, messageId), this.heldBack()));
    return !!row;
  }

  /** Stored messages of a company with their contact's number and the quoted message's provider id. */
  private rowsOf(companyId: number, ids: number[]) {
    return this.ctx.db
      .select({
        message: messages,
        number: contacts.number,
        quotedWid: sql<string | null>`(select q.wid from messages q where q.id = ${messages.quotedMsgId})`,
      })
      .from(messages)
      .innerJoin(contacts, eq(contacts.id, messages.contactId))
      .where(and(eq(messages.companyId, companyId), inArray(messages.id, ids)));
  }

  /**
   * Hands a claimed message to its session's driver with the provider id of every attempt
   * (`outboundProviderId`); given up after `claimMs / 2`.
   * @throws when the session is not running here, or what the driver throws.
   */
  private async sendThrough(
    driver: ChannelDriver | undefined,
    companyId: number,
    row: Awaited<ReturnType<OutboundDelivery['rowsOf']>>[number],
  ): Promise<SentMessage> {
    if (!driver) throw new ChannelSendError('ERR_WAPP_NOT_INITIALIZED', 'session not running');
    const content = await this.contentOf(companyId, row.message);
    return withTimeout(
      driver.send(row.number, content, {
        quotedProviderId: row.quotedWid ?? undefined,
        messageId: outboundProviderId(row.message),
      }),
      this.claim.claimMs / 2,
    );
  }

  /** The outcome of a driver call that threw: wait for the session, retry later, or fail. */
  private failureOf(error: unknown, messageId: number, attempt: number): Outcome {
    this.ctx.log.warn({ err: error, messageId }, 'sending failed');
    if (!(error instanceof ChannelSendError))
      return { error: notInitialized(error) ?? 'ERR_SENDING_WAPP_MSG' };
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
   * Delivers many stored messages (ack 0) of a company at once, already emitted: claims in one UPDATE
   * those whose session is connected here, hands them to the driver one after the other, and records
   * the accepted ones in one UPDATE. The rest (session elsewhere or not yet connected, claimed by
   * another caller, refused by the driver) take the one-message path of `deliver`. Not thrown on
   * failure (ack -1). @returns the messages, in the order of `ids`.
   */
  async deliverMany(companyId: number, ids: number[]): Promise<Message[]> {
    const rows = await this.rowsOf(companyId, ids);
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
              // Messages behind an unsent one of their ticket (in this batch or not) take the
              // one-message path below, after the batch's are recorded.
              sql`not ${this.heldBack()}`,
            ),
          )
          .returning({ id: messages.id })
      : [];
    const mine = new Set(claimed.map((r) => r.id));
    const results = new Map<number, Message>();
    const accepted: { id: number; wid: string; ack: number }[] = [];
    /** Messages whose outcome is final (sent or failed): the ones held back behind them go next. */
    const settled: Message[] = [];
    for (const row of rows) {
      const m = row.message;
      if (!mine.has(m.id)) continue;
      try {
        const sent = await this.sendThrough(this.sessions.ready(m.whatsappId!), companyId, row);
        accepted.push({ id: m.id, wid: sent.providerId, ack: sent.ack });
      } catch (error) {
        const message = await this.record(companyId, m.id, 0, this.failureOf(error, m.id, 0));
        results.set(m.id, message);
        if (message.ack === -1) settled.push(message);
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
      settled.push(...updated);
    }
    for (const message of settled.sort((x, y) => x.id - y.id))
      await this.deliverFollowing(companyId, message);
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

/** Resolves or rejects like `promise`, or rejects after `ms` milliseconds. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`driver call timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * ERR_WAPP_NOT_INITIALIZED when a driver threw its "session not connected" error (an Error carrying
 * that code, as the Baileys driver does); undefined for any other failure.
 */
function notInitialized(error: unknown): 'ERR_WAPP_NOT_INITIALIZED' | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_WAPP_NOT_INITIALIZED' ? code : undefined;
}
