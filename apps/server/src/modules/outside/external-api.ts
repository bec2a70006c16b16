import crypto from 'node:crypto';
import {
  type ExternalSendResult,
  withoutBidiControls,
  ZExternalSendBody,
  ZExternalSendResult,
} from '@zapdesk/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { OutboundSender } from '../../channels/outbound-sender.js';
import { MEDIA_LIMITS, type UploadedFile } from '../../channels/outbound-upload.js';
import type { AppContext, ZodApp } from '../../context.js';
import { companies, contacts, plans, tickets, whatsapps } from '../../db/schema/index.js';
import { AppError } from '../../lib/app-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { publicRoute } from '../../lib/guards.js';
import { canonicalNumber, digitsOnly, numberVariants } from '../../lib/phone-number.js';
import { bearerToken } from '../auth/guard.js';
import { getContact } from '../contacts/contacts-service.js';
import { findTicket } from '../tickets/ticket-repository.js';
import { API_TOKEN_FAILURES_MAX, ApiTokenLimiter } from './token-limiter.js';

/** Requests one connection token may make per minute (answered 429 ERR_TOO_MANY_REQUESTS beyond). */
export const EXTERNAL_API_RATE_PER_MINUTE = 60;
/** Files one multipart request may carry. */
const MAX_FILES = 10;

/** The connection a valid API token names. */
export interface ApiCaller {
  companyId: number;
  whatsappId: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    apiCaller?: ApiCaller;
  }
}

/** The rate-limit bucket of a request: a hash of its bearer token, or its address without one. */
function tokenKey(request: FastifyRequest): string {
  const token = bearerToken(request);
  return token ? `api:${crypto.createHash('sha256').update(token).digest('hex')}` : `api-ip:${request.ip}`;
}

/**
 * Resolves the bearer token to the one connection whose `token` it is (document 2 section 3).
 * @throws 401 ERR_INVALID_CREDENTIALS (missing or unknown token; the unique index keeps two
 *   connections from sharing one, a shared one would still be refused), 403 ERR_PLAN_FEATURE_DISABLED (plan without useExternalApi), 402 ERR_SUBSCRIPTION_EXPIRED.
 */
export async function resolveApiToken(ctx: AppContext, token: string | undefined): Promise<ApiCaller> {
  if (!token || token.length > 200) throw new AppError('ERR_INVALID_CREDENTIALS', { status: 401 });
  const rows = await ctx.db
    .select({
      whatsappId: whatsapps.id,
      companyId: whatsapps.companyId,
      useExternalApi: plans.useExternalApi,
      dueDate: companies.dueDate,
    })
    .from(whatsapps)
    .innerJoin(companies, eq(companies.id, whatsapps.companyId))
    .leftJoin(plans, eq(plans.id, companies.planId))
    .where(eq(whatsapps.token, token))
    .limit(2);
  if (rows.length !== 1) {
    if (rows.length > 1) ctx.log.warn('external API token shared by several connections; refused');
    throw new AppError('ERR_INVALID_CREDENTIALS', { status: 401 });
  }
  const row = rows[0]!;
  if (!row.useExternalApi) throw new AppError('ERR_PLAN_FEATURE_DISABLED');
  if (row.dueDate && row.dueDate.getTime() <= Date.now()) throw new AppError('ERR_SUBSCRIPTION_EXPIRED');
  return { companyId: row.companyId, whatsappId: row.whatsappId };
}

/**
 * The contact of `number` in the company (any of its forms, ninth digit), created with the number
 * as its name when missing (emitting `contact` create). @returns its id.
 */
async function contactFor(ctx: AppContext, companyId: number, number: string): Promise<number> {
  const variants = numberVariants(number);
  const find = async () => {
    const [row] = await ctx.db
      .select({ id: contacts.id })
      .from(contacts)
      .where(and(eq(contacts.companyId, companyId), inArray(contacts.number, variants)));
    return row?.id;
  };
  const existing = await find();
  if (existing) return existing;
  const canonical = canonicalNumber(number);
  const [inserted] = await ctx.db
    .insert(contacts)
    .values({ companyId, name: canonical, number: canonical })
    .onConflictDoNothing()
    .returning({ id: contacts.id });
  if (!inserted) return (await find())!;
  const contact = await getContact(ctx, companyId, inserted.id);
  ctx.realtime.toCompany(companyId, 'contact', { action: 'create', contact });
  return inserted.id;
}

/**
 * The contact's live ticket on the connection, or a new pending one (no queue, no user: it waits
 * for the agents like any ticket the customer starts; emits `ticket` update). @returns its id.
 */
async function ticketFor(ctx: AppContext, caller: ApiCaller, contactId: number): Promise<number> {
  const find = async () => {
    const [row] = await ctx.db
      .select({ id: tickets.id })
      .from(tickets)
      .where(
        and(
          eq(tickets.companyId, caller.companyId),
          eq(tickets.contactId, contactId),
          eq(tickets.whatsappId, caller.whatsappId),
          sql`${tickets.status} <> 'closed'`,
        ),
      );
    return row?.id;
  };
  const existing = await find();
  if (existing) return existing;
  let id: number;
  try {
    const [row] = await ctx.db
      .insert(tickets)
      .values({ companyId: caller.companyId, contactId, whatsappId: caller.whatsappId, status: 'pending' })
      .returning({ id: tickets.id });
    id = row!.id;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return (await find())!;
  }
  const ticket = await findTicket(ctx.db, caller.companyId, id);
  if (ticket) ctx.realtime.toTicket(ticket, 'ticket', { action: 'update', ticket });
  return id;
}

/** Reads `number`, `body` and the `medias` files of a multipart request, within the media limits. */
async function readMultipart(
  request: FastifyRequest,
): Promise<{ fields: Record<string, string>; files: UploadedFile[] }> {
  const files: UploadedFile[] = [];
  const fields: Record<string, string> = {};
  for await (const part of request.parts({ limits: { fileSize: MEDIA_LIMITS.document, files: MAX_FILES } })) {
    if (part.type === 'file') {
      const data = await part.toBuffer();
      if (part.file.truncated) {
        throw new AppError('ERR_PAYLOAD_TOO_LARGE', {
          extra: { field: 'medias', limit: MEDIA_LIMITS.document },
        });
      }
      files.push({
        data,
        fileName: withoutBidiControls(part.filename).slice(0, 255) || 'file',
        mimetype: part.mimetype,
      });
    } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
  }
  return { fields, files };
}

/**
 * External messages API (document 2 section 7 "External messages API"):
 * `POST /messages/send` with a connection's token as bearer. JSON `{ number, body }` sends a text;
 * multipart `number` + `medias` (one or more files, `body` optional as the first one's caption) sends
 * media. The contact and its live ticket on that connection are found or created; answers the stored
 * message id (`id`, the first; `ids`, all). Rate limited per token; failed tokens are limited per
 * address (`ApiTokenLimiter`).
 */
export function externalApiRoutes(app: ZodApp, ctx: AppContext, sender: OutboundSender): void {
  const failures = new ApiTokenLimiter(ctx.redis);
  app.post(
    '/messages/send',
    {
      config: {
        ...publicRoute,
        rateLimit: { max: EXTERNAL_API_RATE_PER_MINUTE, timeWindow: 60_000, keyGenerator: tokenKey },
      },
      // The token is checked before anything is read: a wrong or missing one sends nothing, and
      // counts against the caller's address (refused with 429 past the limit, before the lookup).
      onRequest: async (request) => {
        await failures.check(request.ip);
        try {
          request.apiCaller = await resolveApiToken(ctx, bearerToken(request));
        } catch (error) {
          if (error instanceof AppError && error.code === 'ERR_INVALID_CREDENTIALS')
            await failures.failed(request.ip);
          throw error;
        }
      },
      schema: {
        tags: ['external-api'],
        summary: 'Send a WhatsApp message from another system',
        description:
          "Authenticate with a connection's token (the connection's `token` field) as `Authorization: Bearer <token>`. " +
          'Send JSON `{ "number": "5511999998888", "body": "text" }`, or multipart/form-data with `number`, ' +
          'one or more `medias` files and an optional `body` caption. The contact and its ticket on that connection ' +
          `are found or created. At most ${EXTERNAL_API_RATE_PER_MINUTE} requests a minute per token; after ` +
          `${API_TOKEN_FAILURES_MAX} wrong or missing tokens in an hour an address is refused (429) for an hour. ` +
          'Errors: 401 ERR_INVALID_CREDENTIALS, 403 ERR_PLAN_FEATURE_DISABLED, 400 ERR_VALIDATION, ' +
          '400 ERR_SENDING_WAPP_MSG, 413 ERR_PAYLOAD_TOO_LARGE, 415 ERR_UNSUPPORTED_MEDIA_TYPE, 429 ERR_TOO_MANY_REQUESTS.',
        security: [{ bearer: [] }],
        body: ZExternalSendBody.nullish(),
        response: { 200: ZExternalSendResult },
      },
    },
    async (request): Promise<ExternalSendResult> => {
      const caller = request.apiCaller!;
      let number: string;
      let body: string;
      let files: UploadedFile[] = [];
      if (request.isMultipart()) {
        const read = await readMultipart(request);
        files = read.files;
        if (files.length === 0) {
          throw new AppError('ERR_VALIDATION', { extra: { field: 'medias', message: 'required' } });
        }
        const parsed = ZExternalSendBody.extend({
          body: z.string().trim().max(4096, 'tooLong').optional().default(''),
        }).parse({ number: read.fields.number, body: read.fields.body });
        number = parsed.number;
        body = parsed.body;
      } else {
        const parsed = ZExternalSendBody.parse(request.body ?? {});
        number = parsed.number;
        body = parsed.body;
      }
      const contactId = await contactFor(ctx, caller.companyId, digitsOnly(number));
      const ticketId = await ticketFor(ctx, caller, contactId);
      const sent = await sender.sendAsCompany(caller.companyId, ticketId, { body, files });
      return { id: sent[0]!.id, ids: sent.map((m) => m.id), ticketId, contactId };
    },
  );
}
