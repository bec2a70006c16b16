import crypto from 'node:crypto';
import type { Whatsapp, WhatsappBody } from '@zapdesk/shared';
import { parsePatch, ZWhatsappBody } from '@zapdesk/shared';
import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { companies, plans, queues, tickets, whatsappQueues, whatsapps } from '../../db/schema/index.js';
import { findWhatsapp, selectWhatsapps } from '../../db/whatsapp-repository.js';
import { AppError, orNotFound } from '../../lib/app-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import type { AuthContext } from '../../lib/guards.js';
import { whatsappView } from '../../lib/secret-views.js';
import { assertFlowOfCompany } from '../flows/flows-service.js';
import { assertPromptOfCompany } from '../prompts/prompts-service.js';
import { assertIntegrationOfCompany } from '../queue-integrations/queue-integrations-service.js';
import { findTickets } from '../tickets/ticket-repository.js';

/** Connections need the session manager to start and stop sessions. */
export interface SessionControl {
  start(companyId: number, connectionId: number): Promise<void>;
  stop(companyId: number, connectionId: number, options?: { logout?: boolean }): Promise<void>;
}

/**
 * Emits `company-{id}-whatsapp` update with `whatsapp`, its token only to the company's admins
 * (`whatsappView`, the serializer of the REST answers).
 */
export function emitWhatsapp(ctx: AppContext, companyId: number, whatsapp: Whatsapp): void {
  ctx.realtime.toCompanyPerViewer(companyId, 'whatsapp', (viewer) => ({
    action: 'update',
    whatsapp: whatsappView(viewer, whatsapp),
  }));
}

async function assertCompanyQueues(tx: Tx, companyId: number, ids: number[], field: string): Promise<void> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  const [row] = await tx
    .select({ value: count() })
    .from(queues)
    .where(and(eq(queues.companyId, companyId), inArray(queues.id, unique)));
  if ((row?.value ?? 0) !== unique.length)
    throw new AppError('ERR_VALIDATION', { extra: { field, message: 'invalid' } });
}

async function setQueues(tx: Tx, companyId: number, whatsappId: number, ids: number[]): Promise<void> {
  await tx
    .delete(whatsappQueues)
    .where(and(eq(whatsappQueues.companyId, companyId), eq(whatsappQueues.whatsappId, whatsappId)));
  const unique = [...new Set(ids)];
  if (unique.length)
    await tx.insert(whatsappQueues).values(unique.map((queueId) => ({ companyId, whatsappId, queueId })));
}

async function clearDefault(tx: Tx, companyId: number, exceptId: number): Promise<void> {
  await tx
    .update(whatsapps)
    .set({ isDefault: false, updatedAt: sql`now()` })
    .where(
      and(eq(whatsapps.companyId, companyId), eq(whatsapps.isDefault, true), ne(whatsapps.id, exceptId)),
    );
}

function rethrowName(error: unknown): never {
  if (isUniqueViolation(error)) throw new AppError('ERR_NAME_ALREADY_EXISTS', { extra: { field: 'name' } });
  throw error;
}

/**
 * A new external-API token: 32 bytes from `crypto.randomBytes` (256 bits) in base64url, 43
 * characters. Tokens are the server's: a `token` a client sends on save is ignored.
 */
export function newApiToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

function columnsOf(body: ReturnType<typeof ZWhatsappBody.parse>) {
  const { queueIds: _q, token: _ignored, ...rest } = body;
  return { ...rest, token: newApiToken(), transferQueueId: rest.transferQueueId ?? null };
}

/**
 * POST /whatsapp (admin, document 2): creates a connection within the plan's connection limit; the
 * company's first connection becomes the default; a new default unsets the old one. The session
 * starts at once. @throws ERR_CONNECTION_LIMIT_REACHED, ERR_NAME_ALREADY_EXISTS, ERR_VALIDATION.
 */
export async function createWhatsapp(
  ctx: AppContext,
  sessions: SessionControl,
  auth: AuthContext,
  input: WhatsappBody,
) {
  const body = ZWhatsappBody.parse(input);
  assertGreeting(body);
  const id = await ctx.db
    .transaction(async (tx) => {
      const [company] = await tx
        .select({ limit: plans.connections })
        .from(companies)
        .leftJoin(plans, eq(plans.id, companies.planId))
        .where(eq(companies.id, auth.companyId))
        .for('update', { of: companies });
      const [existing] = await tx
        .select({ value: count() })
        .from(whatsapps)
        .where(eq(whatsapps.companyId, auth.companyId));
      const total = existing?.value ?? 0;
      if (company?.limit != null && total >= company.limit) {
        throw new AppError('ERR_CONNECTION_LIMIT_REACHED', { extra: { limit: company.limit } });
      }
      await assertCompanyQueues(tx, auth.companyId, body.queueIds, 'queueIds');
      if (body.transferQueueId)
        await assertCompanyQueues(tx, auth.companyId, [body.transferQueueId], 'transferQueueId');
      await assertPromptOfCompany(tx, auth.companyId, body.promptId);
      await assertIntegrationOfCompany(tx, auth.companyId, body.integrationId);
      await assertFlowOfCompany(tx, auth.companyId, body.flowIdWelcome);
      const isDefault = body.isDefault || total === 0;
      if (isDefault) await clearDefault(tx, auth.companyId, -1);
      const [row] = await tx
        .insert(whatsapps)
        .values({ ...columnsOf(body), isDefault, companyId: auth.companyId, status: 'OPENING' })
        .returning({ id: whatsapps.id });
      await setQueues(tx, auth.companyId, row!.id, body.queueIds);
      return row!.id;
    })
    .catch(rethrowName);
  const created = (await findWhatsapp(ctx.db, auth.companyId, id))!;
  emitWhatsapp(ctx, auth.companyId, created);
  await sessions
    .start(auth.companyId, id)
    .catch((error) => ctx.log.warn({ err: error }, 'session start failed'));
  // The answer carries the state the start reached (a QR code already), never the row read before it:
  // clients write it over what the session events told them.
  return (await findWhatsapp(ctx.db, auth.companyId, id)) ?? created;
}

/**
 * PUT /whatsapp/:id (admin): changes the fields the body names and keeps the others (queues too).
 * Unsetting the only default is refused (ERR_NO_OTHER_WHATSAPP: make
 * another connection the default instead). @throws ERR_NO_WAPP_FOUND, ERR_NAME_ALREADY_EXISTS.
 */
export async function updateWhatsapp(
  ctx: AppContext,
  sessions: SessionControl,
  auth: AuthContext,
  id: number,
  input: Partial<WhatsappBody>,
): Promise<Whatsapp> {
  const body = parsePatch(ZWhatsappBody, input);
  const providerChanged = await ctx.db
    .transaction(async (tx) => {
      const [current] = await tx
        .select({
          isDefault: whatsapps.isDefault,
          provider: whatsapps.provider,
          greetingMessage: whatsapps.greetingMessage,
        })
        .from(whatsapps)
        .where(and(eq(whatsapps.companyId, auth.companyId), eq(whatsapps.id, id)))
        .for('update');
      if (!current) throw new AppError('ERR_NO_WAPP_FOUND');
      if (current.isDefault && body.isDefault === false) throw new AppError('ERR_NO_OTHER_WHATSAPP');
      if (body.queueIds) await assertCompanyQueues(tx, auth.companyId, body.queueIds, 'queueIds');
      if (body.transferQueueId)
        await assertCompanyQueues(tx, auth.companyId, [body.transferQueueId], 'transferQueueId');
      await assertPromptOfCompany(tx, auth.companyId, body.promptId);
      await assertIntegrationOfCompany(tx, auth.companyId, body.integrationId);
      await assertFlowOfCompany(tx, auth.companyId, body.flowIdWelcome);
      const queueIds =
        body.queueIds ??
        (
          await tx
            .select({ queueId: whatsappQueues.queueId })
            .from(whatsappQueues)
            .where(and(eq(whatsappQueues.companyId, auth.companyId), eq(whatsappQueues.whatsappId, id)))
        ).map((row) => row.queueId);
      assertGreeting({ queueIds, greetingMessage: body.greetingMessage ?? current.greetingMessage ?? '' });
      if (body.isDefault) await clearDefault(tx, auth.companyId, id);
      // The token is the server's: replaced only by POST /whatsapp/:id/token.
      const { queueIds: _named, token: _ignored, ...columns } = body;
      await tx
        .update(whatsapps)
        .set({ ...columns, updatedAt: sql`now()` })
        .where(and(eq(whatsapps.companyId, auth.companyId), eq(whatsapps.id, id)));
      if (body.queueIds) await setQueues(tx, auth.companyId, id, body.queueIds);
      return body.provider !== undefined && current.provider !== body.provider;
    })
    .catch(rethrowName);
  if (providerChanged) {
    await sessions.stop(auth.companyId, id, { logout: true });
    await sessions
      .start(auth.companyId, id)
      .catch((error) => ctx.log.warn({ err: error }, 'session start failed'));
  }
  // A new default changes the others too: one query for all, one event each.
  const changed = body.isDefault
    ? await selectWhatsapps(ctx.db, auth.companyId)
    : [await findWhatsapp(ctx.db, auth.companyId, id)];
  for (const whatsapp of changed) if (whatsapp) emitWhatsapp(ctx, auth.companyId, whatsapp);
  const updated = changed.find((w) => w?.id === id)!;
  return updated;
}

/**
 * DELETE /whatsapp/:id (admin): ends the session (logout), deletes the connection and, when it was
 * the default, makes the oldest remaining connection the default. Its live tickets, left without a
 * connection, are sent as `ticket` update. @throws ERR_NO_WAPP_FOUND.
 */
export async function deleteWhatsapp(
  ctx: AppContext,
  sessions: SessionControl,
  auth: AuthContext,
  id: number,
): Promise<void> {
  const [current] = await ctx.db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, auth.companyId), eq(whatsapps.id, id)));
  if (!current) throw new AppError('ERR_NO_WAPP_FOUND');
  await sessions.stop(auth.companyId, id, { logout: true });
  const { promoted, live } = await ctx.db.transaction(async (tx) => {
    // Its live tickets keep no connection (the foreign key sets it null): they are sent again below.
    const live = await tx
      .select({ id: tickets.id })
      .from(tickets)
      .where(
        and(eq(tickets.companyId, auth.companyId), eq(tickets.whatsappId, id), ne(tickets.status, 'closed')),
      );
    const [removed] = await tx
      .delete(whatsapps)
      .where(and(eq(whatsapps.companyId, auth.companyId), eq(whatsapps.id, id)))
      .returning({ isDefault: whatsapps.isDefault });
    if (!removed?.isDefault) return { promoted: undefined, live };
    const [next] = await tx
      .select({ id: whatsapps.id })
      .from(whatsapps)
      .where(eq(whatsapps.companyId, auth.companyId))
      .orderBy(asc(whatsapps.createdAt), asc(whatsapps.id))
      .limit(1);
    if (next) await tx.update(whatsapps).set({ isDefault: true }).where(eq(whatsapps.id, next.id));
    return { promoted: next?.id, live };
  });
  ctx.realtime.toCompany(auth.companyId, 'whatsapp', { action: 'delete', whatsappId: id });
  const ids = live.map((t) => t.id);
  for (const ticket of await findTickets(ctx.db, auth.companyId, ids)) {
    ctx.realtime.toTicket(ticket, 'ticket', { action: 'update', ticket });
  }
  if (promoted) {
    const next = await findWhatsapp(ctx.db, auth.companyId, promoted);
    if (next) emitWhatsapp(ctx, auth.companyId, next);
  }
}

/**
 * POST /whatsapp/:id/token (admin): replaces the connection's external-API token with a new one
 * (`newApiToken`); the old one stops working at once. Emits `whatsapp` update (the token to admins
 * only). @returns the connection with its new token. @throws ERR_NO_WAPP_FOUND.
 */
export async function regenerateToken(ctx: AppContext, auth: AuthContext, id: number): Promise<Whatsapp> {
  const [row] = await ctx.db
    .update(whatsapps)
    .set({ token: newApiToken(), updatedAt: sql`now()` })
    .where(and(eq(whatsapps.companyId, auth.companyId), eq(whatsapps.id, id)))
    .returning({ id: whatsapps.id });
  if (!row) throw new AppError('ERR_NO_WAPP_FOUND');
  const whatsapp = await requireWhatsapp(ctx, auth.companyId, id);
  emitWhatsapp(ctx, auth.companyId, whatsapp);
  return whatsapp;
}

/** Checks a connection belongs to the company. @throws ERR_NO_WAPP_FOUND. */
export async function requireWhatsapp(ctx: AppContext, companyId: number, id: number): Promise<Whatsapp> {
  const found = await findWhatsapp(ctx.db, companyId, id);
  return orNotFound(found, 'ERR_NO_WAPP_FOUND');
}

/**
 * A connection serving several queues greets the customer with the menu of those queues, so it needs
 * a greeting (document 2 section 5). @throws ERR_WAPP_GREETING_REQUIRED.
 */
function assertGreeting(body: Pick<WhatsappBody, 'queueIds' | 'greetingMessage'>): void {
  if ((body.queueIds?.length ?? 0) > 1 && !body.greetingMessage?.trim()) {
    throw new AppError('ERR_WAPP_GREETING_REQUIRED', { extra: { field: 'greetingMessage' } });
  }
}
