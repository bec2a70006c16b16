import {
  type CreateUserBody,
  isValidCpfCnpj,
  PAGE_SIZE,
  type PublicUser,
  type UpdateUserBody,
  type UserLoad,
  type UsersPage,
  V,
  ZCreateUserBody,
} from '@zapdesk/shared';
import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { companies, plans, queues, tickets, userQueues, users, whatsapps } from '../../db/schema/index.js';
import { AppError, orNotFound } from '../../lib/app-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { type AuthContext, isAdmin } from '../../lib/guards.js';
import { hashPassword } from '../../lib/password.js';
import { containsTerm, type SearchPageQuery } from '../../lib/search-page.js';
import { userView, viewerOf } from '../../lib/secret-views.js';
import { companyVisibilityRooms, visibilityRooms } from '../../realtime/visibility-rooms.js';
import { revokeSessions } from '../auth/sessions.js';
import { findTickets } from '../tickets/ticket-repository.js';
import { findPublicUser, queuesJson, selectPublicUsers, toPublicUser } from './user-repository.js';

export { hashPassword } from '../../lib/password.js';

/**
 * GET /users (core section 7): a page of the company's users matching `searchParam` on name or
 * e-mail, ordered by name, PAGE_SIZE per page, with the total `count`.
 */
export async function listUsers(
  ctx: AppContext,
  auth: AuthContext,
  query: SearchPageQuery,
): Promise<UsersPage> {
  const companyId = auth.companyId;
  const viewer = viewerOf(auth);
  const where = and(eq(users.companyId, companyId), containsTerm(query.searchParam, users.name, users.email));
  const offset = (query.pageNumber - 1) * PAGE_SIZE;
  const [rows, [total]] = await Promise.all([
    selectPublicUsers(ctx.db, where).orderBy(asc(users.name), asc(users.id)).limit(PAGE_SIZE).offset(offset),
    ctx.db.select({ value: count() }).from(users).where(where),
  ]);
  const totalCount = total?.value ?? 0;
  return {
    users: rows.map((row) => userView(viewer, toPublicUser(row), auth.userId)),
    count: totalCount,
    hasMore: offset + rows.length < totalCount,
  };
}

/** GET /users/list: id and name of every user of the company, ordered by name. */
export async function listUserNames(
  ctx: AppContext,
  companyId: number,
): Promise<{ id: number; name: string }[]> {
  return ctx.db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(eq(users.companyId, companyId))
    .orderBy(asc(users.name));
}

/**
 * GET /users/load (admins; docs/api.md "Agents' load"): every user of the company, by name, with the
 * open tickets they hold (one grouped count joined in the same query), capacity, availability,
 * queues, and whether they have a live socket on any node (one socket lookup for all).
 */
export async function listUserLoads(ctx: AppContext, companyId: number): Promise<UserLoad[]> {
  const load = ctx.db
    .select({ userId: tickets.userId, open: count().as('open') })
    .from(tickets)
    .where(and(eq(tickets.companyId, companyId), eq(tickets.status, 'open')))
    .groupBy(tickets.userId)
    .as('load');
  const rows = await ctx.db
    .select({
      id: users.id,
      name: users.name,
      profile: users.profile,
      openTickets: sql<number>`coalesce(${load.open}, 0)::int`,
      maxOpenTickets: users.maxOpenTickets,
      availability: users.availability,
      queues: queuesJson,
    })
    .from(users)
    .leftJoin(load, eq(load.userId, users.id))
    .where(eq(users.companyId, companyId))
    .orderBy(asc(users.name), asc(users.id));
  const live = await ctx.realtime.connectedUsers(
    companyId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...r, online: live.has(r.id) }));
}

/**
 * GET /users/:id, with the billing fields for the user itself and admins (`userView`; document 3
 * reads the plans page's billing dialog from it).
 * @throws ERR_NO_USER_FOUND (404) when it is not a user of the caller's company.
 */
export async function getUser(ctx: AppContext, auth: AuthContext, userId: number): Promise<PublicUser> {
  const user = await findPublicUser(ctx.db, auth.companyId, userId);
  if (!user) throw new AppError('ERR_NO_USER_FOUND');
  return userView(viewerOf(auth), user, auth.userId);
}

/** Tells the company's sockets about a user: admins get it whole, members without billing data. */
function emitUser(ctx: AppContext, companyId: number, action: 'create' | 'update', user: PublicUser): void {
  ctx.realtime.toCompanyPerViewer(companyId, 'user', (viewer) => ({ action, user: userView(viewer, user) }));
}

/** Checks that every queue id belongs to the company. @throws ERR_VALIDATION naming queueIds. */
async function assertQueuesOfCompany(db: Tx, companyId: number, queueIds: number[]): Promise<void> {
  if (queueIds.length === 0) return;
  const unique = [...new Set(queueIds)];
  const [found] = await db
    .select({ value: count() })
    .from(queues)
    .where(and(eq(queues.companyId, companyId), inArray(queues.id, unique)));
  if ((found?.value ?? 0) !== unique.length) {
    throw new AppError('ERR_VALIDATION', { extra: { field: 'queueIds', message: 'invalid' } });
  }
}

/**
 * Checks that a user's default connection id (null or undefined: none / unchanged) is one of the
 * company's connections. @throws ERR_VALIDATION naming whatsappId.
 */
async function assertConnectionOfCompany(
  db: Tx,
  companyId: number,
  whatsappId: number | null | undefined,
): Promise<void> {
  if (whatsappId === null || whatsappId === undefined) return;
  const [found] = await db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, whatsappId)));
  if (!found) throw new AppError('ERR_VALIDATION', { extra: { field: 'whatsappId', message: 'invalid' } });
}

async function setUserQueues(db: Tx, companyId: number, userId: number, queueIds: number[]): Promise<void> {
  await db.delete(userQueues).where(and(eq(userQueues.companyId, companyId), eq(userQueues.userId, userId)));
  const unique = [...new Set(queueIds)];
  if (unique.length)
    await db.insert(userQueues).values(unique.map((queueId) => ({ companyId, userId, queueId })));
}

/** Locks the company row so concurrent user creations count users one at a time. */
async function lockCompany(db: Tx, companyId: number) {
  const [row] = await db
    .select({ id: companies.id, maxUsers: plans.users })
    .from(companies)
    .leftJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, companyId))
    .for('update', { of: companies });
  return orNotFound(row, 'ERR_NO_COMPANY_FOUND');
}

/**
 * POST /users (admin). Creates a user in the caller's company within the plan's user limit.
 * @throws ERR_USER_LIMIT_REACHED, ERR_EMAIL_ALREADY_EXISTS, ERR_VALIDATION (queueIds, whatsappId).
 */
export async function createUser(
  ctx: AppContext,
  auth: AuthContext,
  input: CreateUserBody,
): Promise<PublicUser> {
  const body = ZCreateUserBody.parse(input);
  const passwordHash = await hashPassword(body.password);
  const created = await ctx.db
    .transaction(async (tx) => {
      const company = await lockCompany(tx, auth.companyId);
      const [existing] = await tx
        .select({ value: count() })
        .from(users)
        .where(eq(users.companyId, auth.companyId));
      if (company.maxUsers !== null && (existing?.value ?? 0) >= company.maxUsers) {
        throw new AppError('ERR_USER_LIMIT_REACHED', { extra: { limit: company.maxUsers } });
      }
      await assertQueuesOfCompany(tx, auth.companyId, body.queueIds);
      await assertConnectionOfCompany(tx, auth.companyId, body.whatsappId);
      const [row] = await tx
        .insert(users)
        .values({
          companyId: auth.companyId,
          name: body.name,
          email: body.email.toLowerCase(),
          passwordHash,
          profile: body.profile,
          allTicket: body.allTicket,
          whatsappId: body.whatsappId ?? null,
          maxOpenTickets: body.maxOpenTickets ?? 0,
        })
        .returning({ id: users.id });
      await setUserQueues(tx, auth.companyId, row!.id, body.queueIds);
      return findPublicUser(tx, auth.companyId, row!.id);
    })
    .catch(rethrowEmailConflict);
  emitUser(ctx, auth.companyId, 'create', created!);
  return created!;
}

function rethrowEmailConflict(error: unknown): never {
  if (isUniqueViolation(error)) throw new AppError('ERR_EMAIL_ALREADY_EXISTS');
  throw error;
}

/** Number of admins of the company other than `exceptUserId`. */
async function otherAdmins(db: Tx, companyId: number, exceptUserId: number): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.profile, 'admin'), ne(users.id, exceptUserId)));
  return row?.value ?? 0;
}

/**
 * Locks the company (serialising user changes) and checks the user exists in it; when the change
 * removes an admin (`removesAdmin`), checks another admin remains.
 * @throws ERR_NO_USER_FOUND, ERR_LAST_ADMIN.
 */
async function lockUserChange(
  tx: Tx,
  companyId: number,
  userId: number,
  removesAdmin: boolean,
): Promise<{ profile: 'admin' | 'user' }> {
  await lockCompany(tx, companyId);
  const [current] = await tx
    .select({ profile: users.profile })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.id, userId)));
  if (!current) throw new AppError('ERR_NO_USER_FOUND');
  if (removesAdmin && current.profile === 'admin' && (await otherAdmins(tx, companyId, userId)) === 0) {
    throw new AppError('ERR_LAST_ADMIN');
  }
  return current;
}

/**
 * PUT /users/:id. Admins edit anyone of their company; a user edits only itself and only its
 * name, e-mail, password, availability and billing data (phone, cnpjCpf, address, city, state,
 * zipcode, country: document 3's billing profile). Only admins change profile, queues, connection,
 * allTicket and maxOpenTickets; the
 * last admin cannot be demoted. A role change ends every session of the user; a password change
 * ends them too (except the caller's current one when users change their own password).
 * @throws ERR_NO_USER_FOUND, ERR_NO_PERMISSION, ERR_LAST_ADMIN, ERR_EMAIL_ALREADY_EXISTS, ERR_VALIDATION
 *   (a CPF/CNPJ whose check digits fail).
 */
export async function updateUser(
  ctx: AppContext,
  auth: AuthContext,
  userId: number,
  body: UpdateUserBody,
): Promise<PublicUser> {
  const admin = isAdmin(auth);
  if (!admin && userId !== auth.userId) throw new AppError('ERR_NO_PERMISSION');
  const privileged = ['profile', 'queueIds', 'whatsappId', 'allTicket', 'maxOpenTickets'] as const;
  if (!admin && privileged.some((key) => body[key] !== undefined)) throw new AppError('ERR_NO_PERMISSION');
  // The CPF/CNPJ of the billing data: check digits as in the billing dialog (document 3 section 5).
  if (body.cnpjCpf && !isValidCpfCnpj(body.cnpjCpf))
    throw new AppError('ERR_VALIDATION', { extra: { field: 'cnpjCpf', message: V.invalid } });
  const passwordHash = body.password ? await hashPassword(body.password) : undefined;
  let ends: { reason: 'password-changed' | 'role-changed'; exceptSessionId?: string } | undefined;
  const updated = await ctx.db
    .transaction(async (tx) => {
      const current = await lockUserChange(tx, auth.companyId, userId, body.profile === 'user');
      // A role change ends every session of the user; a password change ends them all except the
      // caller's own when users change their own password.
      if (body.profile !== undefined && body.profile !== current.profile) ends = { reason: 'role-changed' };
      else if (passwordHash) {
        ends = {
          reason: 'password-changed',
          exceptSessionId: userId === auth.userId ? auth.sessionId : undefined,
        };
      }
      if (ends) await revokeSessions(tx, { companyId: auth.companyId, userId, ...ends });
      if (body.queueIds) await assertQueuesOfCompany(tx, auth.companyId, body.queueIds);
      await assertConnectionOfCompany(tx, auth.companyId, body.whatsappId);
      await tx
        .update(users)
        .set({
          name: body.name,
          email: body.email?.toLowerCase(),
          passwordHash,
          profile: body.profile,
          allTicket: body.allTicket,
          whatsappId: body.whatsappId,
          maxOpenTickets: body.maxOpenTickets,
          availability: body.availability,
          phone: body.phone,
          cnpjCpf: body.cnpjCpf,
          address: body.address,
          city: body.city,
          state: body.state,
          zipcode: body.zipcode,
          country: body.country,
          updatedAt: sql`now()`,
        })
        .where(and(eq(users.companyId, auth.companyId), eq(users.id, userId)));
      if (body.queueIds) await setUserQueues(tx, auth.companyId, userId, body.queueIds);
      return findPublicUser(tx, auth.companyId, userId);
    })
    .catch(rethrowEmailConflict);
  if (ends) ctx.realtime.endSessions({ companyId: auth.companyId, userId, ...ends }, ends.reason);
  if (ends?.reason !== 'role-changed' && (body.queueIds || body.allTicket !== undefined)) {
    // The user's live sockets follow its new queues: no more events of tickets it can no longer open.
    const rooms = await visibilityRooms(ctx.db, auth.companyId, userId);
    const previous = await companyVisibilityRooms(ctx.db, auth.companyId);
    if (rooms) ctx.realtime.moveUserRooms(auth.companyId, userId, previous, rooms);
  }
  emitUser(ctx, auth.companyId, 'update', updated!);
  return userView(viewerOf(auth), updated!, auth.userId);
}

/**
 * DELETE /users/:id (admin). The user's open tickets go back to waiting (pending, nobody's) and its
 * other live tickets lose their holder; each moves rooms with a `ticket` event, so the colleagues
 * who may now take them see them at once. @throws ERR_NO_USER_FOUND, ERR_LAST_ADMIN.
 */
export async function deleteUser(ctx: AppContext, auth: AuthContext, userId: number): Promise<void> {
  const companyId = auth.companyId;
  const held = await ctx.db.transaction(async (tx) => {
    await lockUserChange(tx, companyId, userId, true);
    const live = await tx
      .select({ id: tickets.id, queueId: tickets.queueId, status: tickets.status })
      .from(tickets)
      .where(and(eq(tickets.companyId, companyId), eq(tickets.userId, userId), ne(tickets.status, 'closed')))
      .for('update');
    const open = live.filter((t) => t.status === 'open').map((t) => t.id);
    if (open.length) {
      await tx
        .update(tickets)
        .set({ status: 'pending', userId: null, updatedAt: sql`now()` })
        .where(inArray(tickets.id, open));
    }
    await tx.delete(users).where(and(eq(users.companyId, companyId), eq(users.id, userId)));
    return live;
  });
  // The user's refresh tokens went with it (cascade); its sockets are told and disconnected.
  ctx.realtime.endSessions({ companyId, userId }, 'deleted');
  ctx.realtime.toCompany(companyId, 'user', { action: 'delete', userId });
  const before = new Map(held.map((t) => [t.id, t]));
  for (const ticket of await findTickets(ctx.db, companyId, [...before.keys()])) {
    const old = before.get(ticket.id)!;
    ctx.realtime.ticketMoved({ companyId, queueId: old.queueId, userId, status: old.status }, ticket, {
      action: 'update',
      ticket,
    });
  }
}

/** POST /users/set-language/:lang: stores the caller's language. */
export async function setLanguage(ctx: AppContext, auth: AuthContext, lang: string): Promise<void> {
  await ctx.db
    .update(users)
    .set({ language: lang, updatedAt: sql`now()` })
    .where(and(eq(users.companyId, auth.companyId), eq(users.id, auth.userId)));
}
