import crypto from 'node:crypto';
import type { CloudConfig, CloudConfigBody, CloudTemplate, CloudWindow, Message } from '@zapdesk/shared';
import { and, eq, max, sql } from 'drizzle-orm';
import { ZodError } from 'zod';
import type { AppContext } from '../../context.js';
import { findMessage } from '../../db/message-repository.js';
import { cloudConnections, contacts, messages, tickets, whatsapps } from '../../db/schema/index.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import { AppError, orNotFound } from '../../lib/app-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { jsonTooDeep, tooDeepError } from '../../lib/json-body.js';
import { decryptValue, encryptValue } from '../baileys/auth-state.js';
import type { DriverContext } from '../driver.js';
import type { InboundPipeline } from '../inbound-pipeline.js';
import { emitMessageUpdates } from '../message-events.js';
import { ChannelSendError } from '../send-error.js';
import type { SessionManager } from '../session-manager.js';
import { CloudDriver, type CloudSettings, sendErrorOf, type TemplateComponent } from './cloud-driver.js';
import { GraphClient, GraphError } from './graph-client.js';
import { messageChanges, normalizeInbound, STATUS_ACKS } from './webhook-payload.js';

/** The job storing a received webhook's events (ordered per connection). */
export const CLOUD_WEBHOOK_JOB = 'cloud-webhook';

interface CloudWebhookJob {
  whatsappId: number;
  companyId: number;
  /** The webhook body as Meta sent it (already authenticated and validated). */
  body: unknown;
  /** The customer the body is about (its first message's sender or status's recipient), for ordering. */
  party?: string;
}

/** How long after the customer's last message free text may be sent (Meta's service window). */
export const WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * The Cloud API channel around its drivers: the connection settings (token and app
 * secret encrypted with the session key), the webhook (verification handshake, signature over the
 * raw body, durable store as a job, then the pipeline), the 24-hour customer-service window and
 * message templates.
 */
export class CloudChannel {
  constructor(
    private readonly ctx: AppContext,
    private readonly pipeline: InboundPipeline,
    private readonly jobs: JobQueue,
    private readonly sessions: SessionManager,
  ) {}

  /** Declares the webhook job (call before the queue starts). */
  register(): void {
    this.jobs.define<CloudWebhookJob>(CLOUD_WEBHOOK_JOB, (data) => this.process(data), {
      // One customer's events apply in order; different customers' in parallel.
      key: (data) => `cloud-${data.whatsappId}-${data.party ?? ''}`,
    });
  }

  /** The driver factory of provider 'cloud'. */
  driver = (context: DriverContext): CloudDriver =>
    new CloudDriver({
      ...context,
      baseUrl: this.ctx.config.CLOUD_API_URL,
      version: this.ctx.config.CLOUD_API_VERSION,
      load: async () => {
        const row = await this.row(context.connectionId);
        return row && this.settingsOf(row);
      },
    });

  private async row(whatsappId: number) {
    const [row] = await this.ctx.db
      .select()
      .from(cloudConnections)
      .where(eq(cloudConnections.whatsappId, whatsappId));
    return row;
  }

  private settingsOf(row: typeof cloudConnections.$inferSelect): CloudSettings {
    return {
      phoneNumberId: row.phoneNumberId,
      wabaId: row.wabaId,
      accessToken: decryptValue(row.accessToken, this.ctx.secrets.sessionKey),
    };
  }

  private toConfig(row: typeof cloudConnections.$inferSelect): CloudConfig {
    return {
      whatsappId: row.whatsappId,
      phoneNumberId: row.phoneNumberId,
      wabaId: row.wabaId,
      accessTokenHint: row.tokenHint ? `…${row.tokenHint}` : null,
      appSecretSet: !!row.appSecret,
      verifyToken: row.verifyToken,
      webhookPath: `/cloud/webhook/${row.whatsappId}`,
    };
  }

  /** A cloud connection of the company. @throws ERR_NO_WAPP_FOUND, ERR_WRONG_PROVIDER. */
  private async requireCloud(companyId: number, whatsappId: number): Promise<void> {
    const [row] = await this.ctx.db
      .select({ provider: whatsapps.provider })
      .from(whatsapps)
      .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, whatsappId)));
    if (!row) throw new AppError('ERR_NO_WAPP_FOUND');
    if (row.provider !== 'cloud') throw new AppError('ERR_WRONG_PROVIDER');
  }

  /**
   * GET /whatsapp/:id/cloud: the connection's settings without its secrets (null before the first
   * save). @throws ERR_NO_WAPP_FOUND, ERR_WRONG_PROVIDER.
   */
  async config(companyId: number, whatsappId: number): Promise<CloudConfig | null> {
    await this.requireCloud(companyId, whatsappId);
    const row = await this.row(whatsappId);
    return row ? this.toConfig(row) : null;
  }

  /**
   * PUT /whatsapp/:id/cloud: saves the settings (the first save needs every field; later ones keep
   * what the body omits), generating the verify token once, then restarts the session, which
   * connects when the Graph API accepts the token. @throws ERR_NO_WAPP_FOUND, ERR_WRONG_PROVIDER,
   * ERR_VALIDATION (a field missing on the first save), ERR_ALREADY_EXISTS (phone number id used
   * by another connection).
   */
  async saveConfig(
    companyId: number,
    whatsappId: number,
    input: Partial<CloudConfigBody>,
  ): Promise<CloudConfig> {
    await this.requireCloud(companyId, whatsappId);
    const key = this.ctx.secrets.sessionKey;
    const current = await this.row(whatsappId);
    const set: Partial<typeof cloudConnections.$inferInsert> = {};
    if (input.phoneNumberId !== undefined) set.phoneNumberId = input.phoneNumberId;
    if (input.wabaId !== undefined) set.wabaId = input.wabaId;
    if (input.accessToken !== undefined) {
      set.accessToken = encryptValue(input.accessToken, key);
      set.tokenHint = input.accessToken.slice(-4);
    }
    if (input.appSecret !== undefined) set.appSecret = encryptValue(input.appSecret, key);
    try {
      if (current) {
        await this.ctx.db
          .update(cloudConnections)
          .set({ ...set, updatedAt: sql`now()` })
          .where(eq(cloudConnections.whatsappId, whatsappId));
      } else {
        for (const field of ['phoneNumberId', 'wabaId', 'accessToken', 'appSecret'] as const) {
          if (input[field] === undefined)
            throw new AppError('ERR_VALIDATION', { extra: { field, message: 'required' } });
        }
        await this.ctx.db.insert(cloudConnections).values({
          whatsappId,
          companyId,
          phoneNumberId: set.phoneNumberId!,
          wabaId: set.wabaId!,
          accessToken: set.accessToken!,
          appSecret: set.appSecret!,
          tokenHint: set.tokenHint!,
          verifyToken: crypto.randomBytes(18).toString('base64url'),
        });
      }
    } catch (error) {
      if (isUniqueViolation(error))
        throw new AppError('ERR_ALREADY_EXISTS', { extra: { field: 'phoneNumberId' } });
      throw error;
    }
    await this.sessions.stop(companyId, whatsappId, { silent: true });
    await this.sessions.start(companyId, whatsappId);
    return this.toConfig((await this.row(whatsappId))!);
  }

  /**
   * GET /cloud/webhook/:id: Meta's verification handshake. @returns the challenge to echo.
   * @throws ERR_NO_PERMISSION when the mode or the verify token is wrong or the connection unknown.
   */
  async verify(
    whatsappId: number,
    query: { mode?: string; token?: string; challenge?: string },
  ): Promise<string> {
    const row = await this.row(whatsappId);
    if (!row || query.mode !== 'subscribe' || !query.token || !safeEqual(query.token, row.verifyToken))
      throw new AppError('ERR_NO_PERMISSION');
    return query.challenge ?? '';
  }

  /**
   * POST /cloud/webhook/:id: checks `X-Hub-Signature-256` (HMAC-SHA256 of the raw body with the app
   * secret), the body's shape and that every change is for this connection's phone number id, then
   * stores the events durably (a job, per connection in order) before answering.
   * @throws ERR_NO_PERMISSION (signature missing or wrong, unknown connection), ERR_VALIDATION
   *   (malformed body, another phone number id). Nothing is stored then.
   */
  async receive(whatsappId: number, raw: Buffer, signature: string | undefined): Promise<void> {
    const row = await this.row(whatsappId);
    if (!row) throw new AppError('ERR_NO_PERMISSION');
    const secret = decryptValue(row.appSecret, this.ctx.secrets.sessionKey);
    const expected = `sha256=${crypto.createHmac('sha256', secret).update(raw).digest('hex')}`;
    if (!signature || !safeEqual(signature, expected)) throw new AppError('ERR_NO_PERMISSION');
    let body: unknown;
    const text = raw.toString('utf8');
    if (jsonTooDeep(text)) throw tooDeepError();
    try {
      body = JSON.parse(text);
    } catch {
      throw new AppError('ERR_VALIDATION', { extra: { field: 'body', message: 'invalid JSON' } });
    }
    let changes: ReturnType<typeof messageChanges>;
    try {
      changes = messageChanges(body);
    } catch (error) {
      if (error instanceof ZodError)
        throw new AppError('ERR_VALIDATION', {
          extra: { field: error.issues[0]?.path.join('.') || 'body', message: 'invalid' },
        });
      throw error;
    }
    if (changes.some((c) => c.metadata.phone_number_id !== row.phoneNumberId))
      throw new AppError('ERR_VALIDATION', {
        extra: { field: 'metadata.phone_number_id', message: 'unknown' },
      });
    if (changes.length === 0) return;
    const first = changes[0]!;
    const party = first.messages?.[0]?.from ?? first.statuses?.[0]?.recipient_id ?? '';
    await this.jobs.send<CloudWebhookJob>(CLOUD_WEBHOOK_JOB, {
      whatsappId,
      companyId: row.companyId,
      body,
      party: party.replace(/\D/g, '').slice(0, 20),
    });
  }

  /**
   * The webhook job: each message normalised into the pipeline (media downloaded through the Graph
   * API with the token), each status applied as an ack (forward only) or, for `failed`, as the
   * message's error with the catalogue code (the message may then be retried).
   */
  private async process(job: CloudWebhookJob): Promise<void> {
    const row = await this.row(job.whatsappId);
    if (!row || row.companyId !== job.companyId) return;
    const settings = this.settingsOf(row);
    const client = new GraphClient({
      baseUrl: this.ctx.config.CLOUD_API_URL,
      version: this.ctx.config.CLOUD_API_VERSION,
      accessToken: settings.accessToken,
    });
    const ref = { id: job.whatsappId, companyId: job.companyId };
    for (const value of messageChanges(job.body)) {
      if (value.metadata.phone_number_id !== row.phoneNumberId) continue;
      const names = new Map(
        (value.contacts ?? []).flatMap((c) => (c.profile?.name ? [[c.wa_id, c.profile.name] as const] : [])),
      );
      for (const message of value.messages ?? []) {
        await this.pipeline.ingest(
          ref,
          normalizeInbound(message, names, (id) => client.downloadMedia(id)),
        );
      }
      for (const status of value.statuses ?? []) {
        const ack = STATUS_ACKS[status.status];
        if (ack) await this.pipeline.ack(ref, status.id, ack);
        else if (status.status === 'failed') {
          const first = status.errors?.[0];
          const mapped = sendErrorOf(new GraphError(400, first?.code ?? 0, first?.title ?? 'failed'));
          await this.fail(job.companyId, job.whatsappId, status.id, mapped.code);
        }
      }
    }
  }

  /**
   * A message Meta accepted and later reported failed: ack -1 with the error code, and its provider
   * id cleared so the chat's retry sends it again.
   */
  private async fail(companyId: number, whatsappId: number, providerId: string, code: string): Promise<void> {
    const rows = await this.ctx.db
      .update(messages)
      .set({ ack: -1, error: code, wid: null, sendingAt: null, sendingBy: null, updatedAt: sql`now()` })
      .where(
        and(eq(messages.whatsappId, whatsappId), eq(messages.wid, providerId), eq(messages.fromMe, true)),
      )
      .returning({ id: messages.id });
    await emitMessageUpdates(
      this.ctx,
      companyId,
      rows.map((r) => r.id),
    );
  }

  /** A ticket of the company with its contact's number and its connection's provider. */
  private async ticketOf(companyId: number, ticketId: number) {
    const [row] = await this.ctx.db
      .select({
        ticket: tickets,
        number: contacts.number,
        provider: whatsapps.provider,
      })
      .from(tickets)
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .leftJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId))
      .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId)));
    return orNotFound(row, 'ERR_NO_TICKET_FOUND');
  }

  /** Whether free text may be sent to a ticket's contact on its connection (24 hours since they wrote). */
  private async windowOf(ticket: { companyId: number; contactId: number; whatsappId: number | null }) {
    if (!ticket.whatsappId) return { open: false, closesAt: null };
    const [row] = await this.ctx.db
      .select({ last: max(messages.createdAt) })
      .from(messages)
      .where(
        and(
          eq(messages.companyId, ticket.companyId),
          eq(messages.whatsappId, ticket.whatsappId),
          eq(messages.contactId, ticket.contactId),
          eq(messages.fromMe, false),
        ),
      );
    const closes = row?.last ? new Date(row.last).getTime() + WINDOW_MS : 0;
    return closes > Date.now()
      ? { open: true, closesAt: new Date(closes).toISOString() }
      : { open: false, closesAt: null };
  }

  /** GET /cloud/tickets/:ticketId/window. @throws ERR_NO_TICKET_FOUND. */
  async window(companyId: number, ticketId: number): Promise<CloudWindow> {
    const { ticket, provider } = await this.ticketOf(companyId, ticketId);
    if (provider !== 'cloud') return { cloud: false, open: true, closesAt: null };
    return { cloud: true, ...(await this.windowOf(ticket)) };
  }

  /**
   * The outbound sender's check before free text or media: on a cloud connection outside the
   * 24-hour window only templates may go out. @throws ERR_WAPP_OUTSIDE_WINDOW.
   */
  sendCheck = async (
    _companyId: number,
    ticket: { companyId: number; contactId: number; whatsappId: number | null },
  ): Promise<void> => {
    if (!ticket.whatsappId) return;
    const [row] = await this.ctx.db
      .select({ provider: whatsapps.provider })
      .from(whatsapps)
      .where(eq(whatsapps.id, ticket.whatsappId));
    if (row?.provider !== 'cloud') return;
    if (!(await this.windowOf(ticket)).open) throw new AppError('ERR_WAPP_OUTSIDE_WINDOW');
  };

  /** The running, connected cloud driver of a connection. @throws ERR_WRONG_PROVIDER, ERR_WAPP_NOT_INITIALIZED. */
  private driverOf(provider: string | null, whatsappId: number | null): CloudDriver {
    if (provider !== 'cloud' || !whatsappId) throw new AppError('ERR_WRONG_PROVIDER');
    const driver = this.sessions.ready(whatsappId);
    if (!(driver instanceof CloudDriver)) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    return driver;
  }

  /**
   * GET /cloud/tickets/:ticketId/templates: the approved templates of the ticket's business
   * account, with their body text and parameter count. @throws ERR_NO_TICKET_FOUND,
   * ERR_WRONG_PROVIDER, ERR_WAPP_NOT_INITIALIZED, ERR_SENDING_WAPP_MSG (Graph API refused).
   */
  async templates(companyId: number, ticketId: number): Promise<CloudTemplate[]> {
    const { ticket, provider } = await this.ticketOf(companyId, ticketId);
    const driver = this.driverOf(provider, ticket.whatsappId);
    const list = await driver.listTemplates().catch((error) => {
      throw new AppError(sendErrorOf(error).code);
    });
    return list
      .filter((t) => t.status === 'APPROVED')
      .map((t) => {
        const body = t.components?.find((c) => c.type === 'BODY')?.text ?? '';
        const placeholders = new Set([...body.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]));
        return {
          name: t.name,
          language: t.language,
          category: t.category,
          status: t.status,
          body,
          parameters: placeholders.size,
        };
      });
  }

  /**
   * POST /cloud/tickets/:ticketId/template: sends an approved template with its body parameters
   * (allowed outside the 24-hour window) and stores it in the chat with the rendered text.
   * @throws ERR_NO_TICKET_FOUND, ERR_WRONG_PROVIDER, ERR_WAPP_NOT_INITIALIZED, ERR_VALIDATION
   *   (unknown template, wrong parameter count), the send's catalogue code.
   */
  async sendTemplate(
    companyId: number,
    userId: number,
    ticketId: number,
    input: { name: string; language: string; parameters: string[] },
  ): Promise<Message> {
    const { ticket, number, provider } = await this.ticketOf(companyId, ticketId);
    const driver = this.driverOf(provider, ticket.whatsappId);
    const template = (await this.templates(companyId, ticketId)).find(
      (t) => t.name === input.name && t.language === input.language,
    );
    if (!template) throw new AppError('ERR_VALIDATION', { extra: { field: 'name', message: 'unknown' } });
    if (template.parameters !== input.parameters.length)
      throw new AppError('ERR_VALIDATION', { extra: { field: 'parameters', message: 'count' } });
    const components: TemplateComponent[] = input.parameters.length
      ? [{ type: 'body', parameters: input.parameters.map((text) => ({ type: 'text', text })) }]
      : [];
    const sent = await driver
      .sendTemplate(number, { name: input.name, language: input.language, components })
      .catch((error: unknown) => {
        throw new AppError(error instanceof ChannelSendError ? error.code : 'ERR_SENDING_WAPP_MSG');
      });
    const body = template.body.replace(
      /\{\{\s*(\d+)\s*\}\}/g,
      (all, n: string) => input.parameters[Number(n) - 1] ?? all,
    );
    const ref = { id: ticket.whatsappId!, companyId };
    const stored = await this.pipeline.ingest(ref, {
      providerId: sent.providerId,
      chatId: number,
      isGroup: false,
      fromMe: true,
      senderNumber: number,
      body,
      mediaType: 'chat',
      timestamp: sent.timestamp,
    });
    const [row] = await this.ctx.db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.whatsappId, ref.id), eq(messages.wid, sent.providerId)));
    if (!row) throw new AppError('ERR_CREATING_MESSAGE');
    await this.ctx.db.update(messages).set({ userId }).where(eq(messages.id, row.id));
    void stored;
    return (await findMessage(this.ctx.db, companyId, row.id))!;
  }
}

/** Constant-time comparison of two strings. */
function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}
