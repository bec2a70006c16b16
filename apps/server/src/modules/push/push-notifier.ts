import { TZDate } from '@date-fns/tz';
import {
  type ChannelName,
  type ChannelPayloads,
  DASHBOARD_TIME_ZONE,
  type Language,
  type PushPayload,
} from '@zapdesk/shared';
import { format } from 'date-fns';
import { and, eq, inArray, sql } from 'drizzle-orm';
import webpush from 'web-push';
import type { AppContext } from '../../context.js';
import {
  pushPreferences,
  pushSubscriptions,
  pushTicketStates,
  pushViewing,
  userQueues,
  users,
} from '../../db/schema/index.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import type { CompanyCache } from '../../lib/company-cache.js';
import { OutboundError, outboundPolicy, outboundRequest } from '../../lib/outbound-url.js';
import type { VapidKeys } from '../../lib/vapid.js';

/** The job sending one push to one subscription (data `PushJob`). */
export const PUSH_SEND_JOB = 'push-send';

/** How long a push service has to answer, ms. */
const PUSH_TIMEOUT_MS = 10_000;
/** How long a push service keeps an undelivered push, seconds (an agent's phone off for a day). */
const PUSH_TTL_SECONDS = 24 * 60 * 60;
/** Characters of message text a notification shows when the user's preview is on. */
const PREVIEW_MAX = 200;

/** The events that push, as the preferences name them. */
export type PushKind =
  | 'newPending'
  | 'assigned'
  | 'customerMessage'
  | 'internalChat'
  | 'slaWarning'
  | 'slaBreach'
  | 'mention';

/** What happened, as a push tells it: the kind, what it is about, and the message text. */
export type PushEvent =
  | {
      kind: 'newPending' | 'assigned' | 'customerMessage' | 'mention';
      ticket: { id: number; uuid: string; name: string };
      text: string;
    }
  | { kind: 'internalChat'; chat: { uuid: string; title: string }; text: string }
  | {
      kind: 'slaWarning' | 'slaBreach';
      ticket: { uuid: string; name: string };
      target: 'first_response' | 'resolution';
      dueAt: string;
    };

/** One push queued for one subscription; `ticketId` spares a user who has that ticket on screen. */
export interface PushJob {
  subscriptionId: number;
  companyId: number;
  userId: number;
  ticketId?: number;
  payload: PushPayload;
}

const TITLES: Record<Language, Record<PushKind, (name: string) => string>> = {
  pt: {
    newPending: (name) => `Novo atendimento aguardando: ${name}`,
    assigned: (name) => `Atendimento atribuído a você: ${name}`,
    customerMessage: (name) => `Nova mensagem de ${name}`,
    internalChat: (name) => `Nova mensagem no chat: ${name}`,
    slaWarning: (name) => `Prazo perto do fim: ${name}`,
    slaBreach: (name) => `Prazo estourado: ${name}`,
    mention: (name) => `Você foi mencionado em uma nota: ${name}`,
  },
  en: {
    newPending: (name) => `New pending ticket: ${name}`,
    assigned: (name) => `Ticket assigned to you: ${name}`,
    customerMessage: (name) => `New message from ${name}`,
    internalChat: (name) => `New chat message: ${name}`,
    slaWarning: (name) => `Due soon: ${name}`,
    slaBreach: (name) => `Overdue: ${name}`,
    mention: (name) => `You were mentioned in a note: ${name}`,
  },
  es: {
    newPending: (name) => `Nueva atención pendiente: ${name}`,
    assigned: (name) => `Atención asignada a usted: ${name}`,
    customerMessage: (name) => `Nuevo mensaje de ${name}`,
    internalChat: (name) => `Nuevo mensaje en el chat: ${name}`,
    slaWarning: (name) => `Plazo por vencer: ${name}`,
    slaBreach: (name) => `Plazo vencido: ${name}`,
    mention: (name) => `Le mencionaron en una nota: ${name}`,
  },
};

/** The body of a notification without preview: no message text leaves the server. */
const NO_PREVIEW: Record<Language, string> = {
  pt: 'Abra o Zapdesk para ver.',
  en: 'Open Zapdesk to see it.',
  es: 'Abra Zapdesk para verlo.',
};

/** The body of a service-level notification: which target, due at what local time (HH:mm). */
const SLA_BODY: Record<Language, Record<'first_response' | 'resolution', (time: string) => string>> = {
  pt: { first_response: (time) => `Responder até ${time}`, resolution: (time) => `Resolver até ${time}` },
  en: { first_response: (time) => `Reply by ${time}`, resolution: (time) => `Resolve by ${time}` },
  es: {
    first_response: (time) => `Responder hasta las ${time}`,
    resolution: (time) => `Resolver hasta las ${time}`,
  },
};

/**
 * The notification of `event` for a user of `language` (pt, en, es; others read pt): the title names
 * the customer or chat, the body is the message text (cut to 200 characters) only when `preview` is
 * on, the URL is the ticket's (/tickets/{uuid}) or chat's page, and the tag collapses the
 * notifications of one ticket or chat into the newest. A service-level warning or breach says which
 * target is due at what time (HH:mm, company time) instead of a message text. This is what the push
 * carries before encryption.
 */
export function buildPushPayload(event: PushEvent, language: string | null, preview: boolean): PushPayload {
  const lang: Language = language === 'en' || language === 'es' ? language : 'pt';
  if ('dueAt' in event) {
    const time = format(new TZDate(event.dueAt, DASHBOARD_TIME_ZONE), 'HH:mm');
    return {
      title: TITLES[lang][event.kind](event.ticket.name),
      body: SLA_BODY[lang][event.target](time),
      url: `/tickets/${event.ticket.uuid}`,
      tag: `sla-${event.ticket.uuid}`,
      ticketUuid: event.ticket.uuid,
    };
  }
  const text = event.text.trim();
  const body = preview && text ? text.slice(0, PREVIEW_MAX) : NO_PREVIEW[lang];
  if (event.kind === 'internalChat') {
    return {
      title: TITLES[lang].internalChat(event.chat.title),
      body,
      url: `/chats/${event.chat.uuid}`,
      tag: `chat-${event.chat.uuid}`,
    };
  }
  return {
    title: TITLES[lang][event.kind](event.ticket.name),
    body,
    url: `/tickets/${event.ticket.uuid}`,
    tag: `ticket-${event.ticket.uuid}`,
    ticketUuid: event.ticket.uuid,
  };
}

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null;

/** The ticket fields a realtime payload carries that pushes read. */
interface TicketView {
  id: number;
  uuid: string;
  status: string;
  userId: number | null;
  queueId: number | null;
  lastMessage: string;
  name: string;
}

function ticketOf(value: unknown): TicketView | undefined {
  if (!isRecord(value) || typeof value.id !== 'number' || typeof value.uuid !== 'string') return undefined;
  const contact = isRecord(value.contact) ? value.contact : {};
  return {
    id: value.id,
    uuid: value.uuid,
    status: String(value.status ?? ''),
    userId: typeof value.userId === 'number' ? value.userId : null,
    queueId: typeof value.queueId === 'number' ? value.queueId : null,
    lastMessage: String(value.lastMessage ?? ''),
    name: String(contact.name ?? contact.number ?? ''),
  };
}

/** The state a ticket event moves a ticket to, as `push_ticket_states` records it. */
function ticketState(ticket: TicketView): string {
  if (ticket.status === 'closed') return 'closed';
  if (ticket.status === 'pending' && ticket.userId === null) return `pending:${ticket.queueId ?? 0}`;
  return ticket.userId === null ? 'open' : `user:${ticket.userId}`;
}

/** Whether any user of the company has a push subscription (events of others push nothing). */
export async function hasSubscriptions(ctx: AppContext, companyId: number): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.companyId, companyId))
    .limit(1);
  return row !== undefined;
}

/**
 * Records the state of the company's unclosed tickets as it stands (`ticketState`, in SQL), without
 * pushing: run when a company gets its first subscription, whose events were not followed before,
 * so that the next event of an already held ticket is not taken for an assignment.
 */
export async function seedTicketStates(ctx: AppContext, companyId: number): Promise<void> {
  await ctx.db.execute(sql`
    insert into push_ticket_states (ticket_id, company_id, state)
    select id, company_id,
      case when status = 'pending' and user_id is null then 'pending:' || coalesce(queue_id, 0)
           when user_id is null then 'open'
           else 'user:' || user_id end
    from tickets
    where company_id = ${companyId} and status <> 'closed'
    on conflict (ticket_id) do update set state = excluded.state`);
}

/**
 * Web Push to agents (docs/operations.md "Web Push"). Subscribes to the realtime emissions, the
 * same point the outgoing webhooks use: a ticket that turns pending pushes to the users of its
 * queue (every user when it has none), a ticket that gets a holder pushes to that holder (a
 * transfer, an acceptance, automatic assignment), a customer message pushes to the ticket's holder
 * and an internal-chat message to the other participants. Each user who chose the event gets one
 * `push-send` job per subscription, which any node runs; a user connected with the ticket on screen
 * is spared when the job runs.
 */
/** Statements of this node that may add or remove a company's subscriptions. */
const SUBSCRIPTIONS_WRITE =
  /^\s*(?:insert\s+into|update|delete\s+from)\s+"?push_subscriptions"?[\s(;]|^\s*truncate\b/i;

export class PushNotifier {
  readonly #inFlight = new Set<Promise<unknown>>();
  /**
   * Whether a company has subscriptions (per-node cache, when the app keeps caches): every ticket
   * and message event asks, so the inbound pipeline's batches pay no extra read. The trigger of
   * migration 0038 invalidates it on every node when a subscription is added or removed.
   */
  readonly #subscribed?: CompanyCache<boolean>;

  constructor(
    private readonly ctx: AppContext,
    private readonly jobs: JobQueue,
    private readonly vapid: VapidKeys,
  ) {
    this.#subscribed = ctx.caches?.define({
      topic: 'push_subscriptions',
      localWrite: SUBSCRIPTIONS_WRITE,
      load: (companyId) => hasSubscriptions(ctx, companyId),
    });
  }

  /** Whether any user of the company has a push subscription, through the cache when there is one. */
  #anySubscribed(companyId: number): Promise<boolean> {
    return this.#subscribed ? this.#subscribed.get(companyId) : hasSubscriptions(this.ctx, companyId);
  }

  /** Defines the sending job and subscribes to the realtime emissions. */
  register(): void {
    this.jobs.define<PushJob>(PUSH_SEND_JOB, (job) => this.send(job), { retryLimit: 5, concurrency: 8 });
    this.ctx.realtime.subscribe((companyId, channel, payload) =>
      this.#track(companyId, () => this.onCompanyEvent(companyId, channel, payload)),
    );
    this.ctx.realtime.subscribeUsers((companyId, userId, channel, payload) =>
      this.#track(companyId, () => this.onUserEvent(companyId, userId, channel, payload)),
    );
  }

  #track(companyId: number, work: () => Promise<void>): void {
    const running = work()
      .catch((error) => this.ctx.log.error({ err: error, companyId }, 'push enqueue failed'))
      .finally(() => this.#inFlight.delete(running));
    this.#inFlight.add(running);
  }

  /** Resolves when the events emitted so far have queued their pushes (tests). */
  async settled(): Promise<void> {
    while (this.#inFlight.size) await Promise.all([...this.#inFlight]);
  }

  /** A ticket or message event of the company: what it pushes, to whom. */
  async onCompanyEvent(companyId: number, channel: ChannelName, payload: unknown): Promise<void> {
    if (!isRecord(payload)) return;
    if (channel === 'appMessage' && payload.action === 'create' && isRecord(payload.message)) {
      const ticket = ticketOf(payload.ticket);
      if (payload.message.fromMe !== false || !ticket || ticket.userId === null || ticket.status !== 'open')
        return;
      if (!(await this.#anySubscribed(companyId))) return;
      const event: PushEvent = { kind: 'customerMessage', ticket, text: String(payload.message.body ?? '') };
      await this.#queue(companyId, event, [ticket.userId], ticket.id);
      return;
    }
    if (channel !== 'ticket' || payload.action !== 'update') return;
    const ticket = ticketOf(payload.ticket);
    if (!ticket || !(await this.#anySubscribed(companyId))) return;
    const state = ticketState(ticket);
    // One push per move, whichever node emitted the event: only the statement that changes the
    // recorded state returns a row.
    const [moved] = await this.ctx.db
      .insert(pushTicketStates)
      .values({ ticketId: ticket.id, companyId, state })
      .onConflictDoUpdate({
        target: pushTicketStates.ticketId,
        set: { state },
        setWhere: sql`${pushTicketStates.state} <> excluded.state`,
      })
      .returning({ state: pushTicketStates.state });
    if (!moved) return;
    const event = { ticket, text: ticket.lastMessage };
    if (state.startsWith('pending:')) {
      await this.#queue(companyId, { ...event, kind: 'newPending' }, ticket.queueId, ticket.id);
    } else if (ticket.userId !== null) {
      await this.#queue(companyId, { ...event, kind: 'assigned' }, [ticket.userId], ticket.id);
    }
  }

  /**
   * An event sent to one user: an internal-chat message pushes to each participant but its sender;
   * a mention in a ticket note pushes to the mentioned user (the note's text only with preview).
   */
  async onUserEvent(
    companyId: number,
    userId: number,
    channel: ChannelName,
    payload: unknown,
  ): Promise<void> {
    if (channel === 'sla' && isRecord(payload)) {
      const sla = payload as ChannelPayloads['sla'];
      const event: PushEvent = {
        kind: sla.action === 'breach' ? 'slaBreach' : 'slaWarning',
        ticket: { uuid: sla.ticketUuid, name: sla.contactName },
        target: sla.target,
        dueAt: sla.dueAt,
      };
      if (await this.#anySubscribed(companyId)) await this.#queue(companyId, event, [userId], sla.ticketId);
      return;
    }
    if (channel === 'ticketNote' && isRecord(payload) && payload.action === 'mention') {
      const mention = payload.mention;
      if (!isRecord(mention) || typeof mention.ticketId !== 'number') return;
      if (!(await this.#anySubscribed(companyId))) return;
      const event: PushEvent = {
        kind: 'mention',
        ticket: {
          id: mention.ticketId,
          uuid: String(mention.ticketUuid),
          name: String(mention.contactName ?? ''),
        },
        text: String(mention.note ?? ''),
      };
      // A mention pushes even with the ticket on screen: the note may be out of view.
      await this.#queue(companyId, event, [userId]);
      return;
    }
    if (channel !== 'chat' || !isRecord(payload) || payload.action !== 'new-message') return;
    const message = payload.newMessage;
    const chat = payload.chat;
    if (!isRecord(message) || !isRecord(chat) || message.senderId === userId) return;
    const event: PushEvent = {
      kind: 'internalChat',
      chat: { uuid: String(chat.uuid), title: String(chat.title ?? '') },
      text: String(message.message ?? ''),
    };
    await this.#queue(companyId, event, [userId]);
  }

  /**
   * Queues `event` for the subscriptions of the users who chose its kind among `recipients`: user
   * ids, a queue id (its users), or null (every user of the company).
   */
  async #queue(
    companyId: number,
    event: PushEvent,
    recipients: number[] | number | null,
    ticketId?: number,
  ): Promise<void> {
    const chosen = sql`coalesce(${pushPreferences[event.kind]}, true)`;
    const who =
      recipients === null
        ? undefined
        : Array.isArray(recipients)
          ? inArray(pushSubscriptions.userId, recipients)
          : inArray(
              pushSubscriptions.userId,
              this.ctx.db
                .select({ id: userQueues.userId })
                .from(userQueues)
                .where(and(eq(userQueues.companyId, companyId), eq(userQueues.queueId, recipients))),
            );
    const rows = await this.ctx.db
      .select({
        id: pushSubscriptions.id,
        userId: pushSubscriptions.userId,
        language: users.language,
        preview: sql<boolean>`coalesce(${pushPreferences.preview}, false)`,
      })
      .from(pushSubscriptions)
      .innerJoin(users, eq(users.id, pushSubscriptions.userId))
      .leftJoin(pushPreferences, eq(pushPreferences.userId, pushSubscriptions.userId))
      .where(and(eq(pushSubscriptions.companyId, companyId), who, sql`${chosen}`));
    const jobs: PushJob[] = rows.map((row) => ({
      subscriptionId: row.id,
      companyId,
      userId: row.userId,
      ...(ticketId !== undefined ? { ticketId } : {}),
      payload: buildPushPayload(event, row.language, row.preview),
    }));
    await this.jobs.sendMany(PUSH_SEND_JOB, jobs);
  }

  /**
   * Runs one `push-send` job: skipped when the subscription is gone or its user is connected with
   * the ticket on screen; otherwise the payload is encrypted for the subscription (web-push, RFC
   * 8291 aes128gcm, VAPID RFC 8292) and POSTed to its endpoint under the outbound URL policy. A 404
   * or 410 answer (the browser unsubscribed) deletes the subscription; a refused URL drops the push;
   * any other failure throws, and the job queue retries it.
   */
  async send(job: PushJob): Promise<void> {
    const [subscription] = await this.ctx.db
      .select()
      .from(pushSubscriptions)
      .where(and(eq(pushSubscriptions.id, job.subscriptionId), eq(pushSubscriptions.userId, job.userId)));
    if (!subscription) return;
    if (job.ticketId !== undefined && (await this.#onScreen(job.companyId, job.userId, job.ticketId))) return;
    const request = webpush.generateRequestDetails(
      { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
      JSON.stringify(job.payload),
      { vapidDetails: this.vapid, TTL: PUSH_TTL_SECONDS, urgency: 'high' },
    );
    let status: number;
    try {
      const answer = await outboundRequest(
        subscription.endpoint,
        {
          method: 'POST',
          headers: request.headers as Record<string, string>,
          body: request.body ?? undefined,
          timeoutMs: PUSH_TIMEOUT_MS,
          maxBytes: 64 * 1024,
          truncate: true,
        },
        outboundPolicy(this.ctx),
      );
      status = answer.status;
    } catch (error) {
      if (error instanceof OutboundError && error.kind === 'refused') {
        this.ctx.log.warn({ subscriptionId: subscription.id }, 'push endpoint refused by the URL policy');
        return;
      }
      throw error;
    }
    if (status === 404 || status === 410) {
      await this.ctx.db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, subscription.id));
      return;
    }
    if (status < 200 || status > 299) throw new Error(`push service answered ${status}`);
    await this.ctx.db
      .update(pushSubscriptions)
      .set({ lastUsedAt: sql`now()` })
      .where(eq(pushSubscriptions.id, subscription.id));
  }

  /** Whether the user has `ticketId` on screen now: reported by the web app, with a live socket. */
  async #onScreen(companyId: number, userId: number, ticketId: number): Promise<boolean> {
    const [viewing] = await this.ctx.db
      .select({ ticketId: pushViewing.ticketId })
      .from(pushViewing)
      .where(and(eq(pushViewing.companyId, companyId), eq(pushViewing.userId, userId)));
    if (viewing?.ticketId !== ticketId) return false;
    return (await this.ctx.realtime.connectedUsers(companyId, [userId])).has(userId);
  }
}
