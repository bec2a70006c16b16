import crypto from 'node:crypto';
import type { ChannelName, WebhookEvent } from '@zapdesk/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { companies, plans, webhookDeliveries, webhooks } from '../../db/schema/index.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import type { CompanyCache } from '../../lib/company-cache.js';
import { OutboundError, outboundPolicy, outboundRequest } from '../../lib/outbound-url.js';
import { decryptSecret } from '../../lib/secrets.js';

/** The job delivering one stored webhook delivery (data `{ deliveryId }`). */
export const WEBHOOK_DELIVERY_JOB = 'webhook-delivery';

/** Attempts per delivery before it is marked failed (the first try included). */
export const WEBHOOK_MAX_TRIES = 8;
/** Delay before the second try, in seconds; each next retry waits twice as long. */
export const WEBHOOK_BACKOFF_BASE_SECONDS = 30;
/** How long a receiver has to answer, in ms. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Characters of a receiver's answer kept in `lastError`. */
const ERROR_TEXT_MAX = 500;

/** Headers of each delivery (docs/messaging.md "External messages API and outgoing webhooks"). */
export const WEBHOOK_HEADERS = {
  event: 'x-zapdesk-event',
  delivery: 'x-zapdesk-delivery',
  timestamp: 'x-zapdesk-timestamp',
  signature: 'x-zapdesk-signature',
} as const;

/** Seconds to wait before try `tries + 1`, after `tries` failed tries (30, 60, 120, ...). */
export function backoffSeconds(tries: number): number {
  return WEBHOOK_BACKOFF_BASE_SECONDS * 2 ** Math.max(0, tries - 1);
}

/**
 * The signature header value: `sha256=` + hex HMAC-SHA256 of `${timestamp}.${body}` under the
 * webhook's secret, `timestamp` being the X-Zapdesk-Timestamp header (Unix seconds).
 */
export function signPayload(secret: string, timestamp: string, body: string): string {
  return `sha256=${crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** What the dispatcher needs of an active webhook to store its deliveries. */
interface ActiveHook {
  id: number;
  events: string[];
  createdAt: Date;
}

/**
 * Statements of this node that may change which webhooks a company has active: writes to webhooks,
 * companies (their plan) and plans (the external API flag).
 */
const WEBHOOKS_WRITE =
  /^\s*(?:insert\s+into|update|delete\s+from)\s+"?(?:webhooks|companies|plans)"?[\s(;]|^\s*truncate\b/i;

/** An event as a webhook receives it (the JSON body). */
export interface WebhookEnvelope {
  /** The idempotency id, also in the X-Zapdesk-Delivery header. */
  id: string;
  event: WebhookEvent;
  companyId: number;
  occurredAt: string;
  data: Record<string, unknown>;
}

/** What one emitted realtime event means for webhooks: candidate events with their ids. */
interface Candidate {
  event: WebhookEvent;
  eventId: string;
  data: Record<string, unknown>;
  /** ISO time of the record's creation, for `created` events (older records are not "created"). */
  createdAt?: string;
  /** Sent only when the candidate before it (a `created`) was new for the webhook. */
  unlessPreviousInserted?: boolean;
}

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null;

/**
 * Maps an emitted realtime event to webhook events: appMessage create/update → message.created /
 * message.updated; a ticket update → ticket.created (the first event of a ticket created after the
 * webhook), else ticket.closed (status closed) or ticket.updated; contact create → contact.created.
 * Deletes and counters (updateUnread) are not webhook events.
 */
export function webhookCandidates(channel: ChannelName, payload: unknown): Candidate[] {
  if (!isRecord(payload)) return [];
  const action = payload.action;
  const random = () => crypto.randomUUID();
  if (channel === 'appMessage' && isRecord(payload.message)) {
    const message = payload.message;
    if (action === 'create') {
      const data: Rec = { message };
      if (isRecord(payload.ticket)) data.ticket = payload.ticket;
      return [{ event: 'message.created', eventId: `message.created:${message.id}`, data }];
    }
    if (action === 'update') return [{ event: 'message.updated', eventId: random(), data: { message } }];
    return [];
  }
  if (channel === 'ticket' && action === 'update' && isRecord(payload.ticket)) {
    const ticket = payload.ticket;
    const created: Candidate = {
      event: 'ticket.created',
      eventId: `ticket.created:${ticket.id}`,
      data: { ticket },
      createdAt: String(ticket.createdAt ?? ''),
    };
    const next: Candidate =
      ticket.status === 'closed'
        ? {
            event: 'ticket.closed',
            eventId: `ticket.closed:${ticket.id}:${String(ticket.closedAt ?? ticket.updatedAt ?? '')}`,
            data: { ticket },
          }
        : { event: 'ticket.updated', eventId: random(), data: { ticket }, unlessPreviousInserted: true };
    return [created, next];
  }
  if (channel === 'contact' && action === 'create' && isRecord(payload.contact)) {
    const contact = payload.contact;
    return [{ event: 'contact.created', eventId: `contact.created:${contact.id}`, data: { contact } }];
  }
  return [];
}

/**
 * Outgoing webhooks. Subscribes once to the realtime emissions
 * (`Realtime.subscribe`), turns the ticket, message and contact events of a company into delivery
 * rows of its active webhooks that chose them, and queues one durable job per delivery in the same
 * transaction. The job POSTs the event, signed, and on a failure (no answer in WEBHOOK_TIMEOUT_MS,
 * a non-2xx answer) queues the next try with exponential backoff, up to WEBHOOK_MAX_TRIES.
 */
export class WebhookDispatcher {
  readonly #inFlight = new Set<Promise<unknown>>();
  /**
   * The companies' active webhooks (per-node cache, when the app keeps caches). While it is bypassed
   * the concurrent events of a company (a batch of campaign messages and their acks emits dozens at
   * once) still share one read: its misses are single-flight.
   */
  readonly #hooks?: CompanyCache<ActiveHook[]>;

  constructor(
    private readonly ctx: AppContext,
    private readonly jobs: JobQueue,
  ) {
    this.#hooks = ctx.caches?.define({
      topic: 'webhooks',
      localWrite: WEBHOOKS_WRITE,
      load: (companyId) => this.activeHooks(companyId),
    });
  }

  /**
   * The company's active webhooks, none when its plan lacks the external API. Every ticket, message
   * and contact event asks: read from the per-node cache that changes of webhooks, of a company's
   * plan or of plans invalidate (migration 0028), when the app keeps one.
   */
  private async activeHooks(companyId: number): Promise<ActiveHook[]> {
    return this.ctx.db
      .select({ id: webhooks.id, events: webhooks.events, createdAt: webhooks.createdAt })
      .from(webhooks)
      .innerJoin(companies, eq(companies.id, webhooks.companyId))
      .innerJoin(plans, eq(plans.id, companies.planId))
      .where(
        and(eq(webhooks.companyId, companyId), eq(webhooks.active, true), eq(plans.useExternalApi, true)),
      );
  }

  /** Defines the delivery job and subscribes to the realtime emissions. */
  register(): void {
    this.jobs.define<{ deliveryId: number }>(WEBHOOK_DELIVERY_JOB, (data) => this.deliver(data.deliveryId), {
      // The handler records HTTP failures itself; pg-boss retries only a crash or a database error.
      retryLimit: 3,
      concurrency: 8,
    });
    this.ctx.realtime.subscribe((companyId, channel, payload) => {
      const candidates = webhookCandidates(channel, payload);
      if (candidates.length === 0) return;
      const work = this.enqueue(companyId, candidates)
        .catch((error) => this.ctx.log.error({ err: error, companyId }, 'webhook enqueue failed'))
        .finally(() => this.#inFlight.delete(work));
      this.#inFlight.add(work);
    });
  }

  /** Resolves when the events emitted so far are stored and queued (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.#inFlight.size) await Promise.all([...this.#inFlight]);
  }

  /**
   * Stores the deliveries of `candidates` for the company's active webhooks subscribed to them and
   * queues their jobs, in one transaction. An event id already stored for a webhook is skipped.
   */
  async enqueue(companyId: number, candidates: Candidate[]): Promise<number> {
    const hooks = await (this.#hooks ? this.#hooks.get(companyId) : this.activeHooks(companyId));
    if (hooks.length === 0) return 0;
    const occurredAt = new Date().toISOString();
    const queued = await this.ctx.db.transaction(async (tx) => {
      let count = 0;
      for (const hook of hooks) {
        let previousInserted = false;
        for (const candidate of candidates) {
          const wanted = hook.events.includes(candidate.event);
          const skip =
            (candidate.unlessPreviousInserted && previousInserted) ||
            (candidate.createdAt !== undefined &&
              !(new Date(candidate.createdAt).getTime() >= hook.createdAt.getTime()));
          previousInserted = false;
          if (skip || !wanted) continue;
          const envelope: WebhookEnvelope = {
            id: candidate.eventId,
            event: candidate.event,
            companyId,
            occurredAt,
            data: candidate.data,
          };
          const [row] = await tx
            .insert(webhookDeliveries)
            .values({
              companyId,
              webhookId: hook.id,
              eventId: candidate.eventId,
              event: candidate.event,
              payload: envelope,
              nextAttemptAt: new Date(),
            })
            .onConflictDoNothing()
            .returning({ id: webhookDeliveries.id });
          if (!row) continue;
          previousInserted = candidate.event === 'ticket.created';
          await this.jobs.send(WEBHOOK_DELIVERY_JOB, { deliveryId: row.id }, { tx });
          count++;
        }
      }
      return count;
    });
    if (queued) this.jobs.wake(WEBHOOK_DELIVERY_JOB);
    return queued;
  }

  /**
   * The delivery job: one try. A 2xx answer marks the delivery delivered; otherwise the error and
   * the answer's status are recorded and, below WEBHOOK_MAX_TRIES, the next try is queued after
   * `backoffSeconds(tries)` (in the same transaction), else the delivery is marked failed. A
   * delivery no longer pending, or of a webhook deleted or switched off, is left alone.
   */
  async deliver(deliveryId: number): Promise<void> {
    const [row] = await this.ctx.db
      .select({ delivery: webhookDeliveries, hook: webhooks })
      .from(webhookDeliveries)
      .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
      .where(eq(webhookDeliveries.id, deliveryId));
    if (row?.delivery.status !== 'pending') return;
    const { delivery, hook } = row;
    if (!hook.active) {
      await this.ctx.db
        .update(webhookDeliveries)
        .set({ status: 'failed', lastError: 'webhook disabled', nextAttemptAt: null, updatedAt: sql`now()` })
        .where(eq(webhookDeliveries.id, deliveryId));
      return;
    }
    const tries = delivery.tries + 1;
    const body = JSON.stringify(delivery.payload);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const secret = decryptSecret(hook.secretSealed, this.ctx.secrets.sessionKey);
    let responseCode: number | null = null;
    let error: string | null = null;
    try {
      // The outbound-URL policy: a non-public address is refused (the reason is the delivery's error).
      const response = await outboundRequest(
        hook.url,
        {
          method: 'POST',
          timeoutMs: WEBHOOK_TIMEOUT_MS,
          maxBytes: ERROR_TEXT_MAX * 4,
          truncate: true,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Zapdesk-Webhooks/1',
            [WEBHOOK_HEADERS.event]: delivery.event,
            [WEBHOOK_HEADERS.delivery]: delivery.eventId,
            [WEBHOOK_HEADERS.timestamp]: timestamp,
            [WEBHOOK_HEADERS.signature]: signPayload(secret, timestamp, body),
          },
          body,
        },
        outboundPolicy(this.ctx),
      );
      responseCode = response.status;
      const text = response.text().slice(0, ERROR_TEXT_MAX);
      if (!response.ok) {
        error = `HTTP ${response.status}${text ? `: ${text}` : ''}`.slice(0, ERROR_TEXT_MAX);
      }
    } catch (failure) {
      error = (
        failure instanceof OutboundError
          ? failure.kind === 'refused'
            ? `refused: ${failure.message}`
            : `${failure.kind}: ${failure.message}`
          : String(failure)
      ).slice(0, ERROR_TEXT_MAX);
    }
    if (error === null) {
      await this.ctx.db
        .update(webhookDeliveries)
        .set({
          status: 'delivered',
          tries,
          responseCode,
          lastError: null,
          nextAttemptAt: null,
          updatedAt: sql`now()`,
        })
        .where(eq(webhookDeliveries.id, deliveryId));
      return;
    }
    if (tries >= WEBHOOK_MAX_TRIES) {
      await this.ctx.db
        .update(webhookDeliveries)
        .set({
          status: 'failed',
          tries,
          responseCode,
          lastError: error,
          nextAttemptAt: null,
          updatedAt: sql`now()`,
        })
        .where(eq(webhookDeliveries.id, deliveryId));
      return;
    }
    const delay = backoffSeconds(tries);
    await this.ctx.db.transaction(async (tx) => {
      await tx
        .update(webhookDeliveries)
        .set({
          tries,
          responseCode,
          lastError: error,
          nextAttemptAt: new Date(Date.now() + delay * 1000),
          updatedAt: sql`now()`,
        })
        .where(eq(webhookDeliveries.id, deliveryId));
      await this.jobs.send(WEBHOOK_DELIVERY_JOB, { deliveryId }, { tx, startAfterSeconds: delay });
    });
  }
}
