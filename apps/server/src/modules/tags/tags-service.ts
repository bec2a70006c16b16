import { parsePatch, type Tag, type TagBody, type TagsPage, ZTagBody } from '@zapdesk/shared';
import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { tags, tickets, ticketTags } from '../../db/schema/index.js';
import { AppError, orNotFound } from '../../lib/app-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { type AuthContext, isAdmin } from '../../lib/guards.js';
import { containsTerm, readPage, type SearchPageQuery } from '../../lib/search-page.js';
import { findTickets } from '../tickets/ticket-repository.js';

/** Tags per page of GET /tags. */
export const TAGS_PAGE_SIZE = 20;

const tagColumns = { id: tags.id, name: tags.name, color: tags.color, kanban: tags.kanban };

/**
 * GET /tags (document 2 section 7): the company's tags by name, filtered by `searchParam`, 20 a
 * page, each with `ticketsCount` from one aggregate query (one extra row tells `hasMore`).
 */
export async function listTags(
  ctx: AppContext,
  companyId: number,
  query: SearchPageQuery,
): Promise<TagsPage> {
  const { page, hasMore } = await readPage(query.pageNumber, TAGS_PAGE_SIZE, ({ limit, offset }) =>
    ctx.db
      .select({ ...tagColumns, ticketsCount: count(ticketTags.ticketId) })
      .from(tags)
      .leftJoin(ticketTags, and(eq(ticketTags.companyId, companyId), eq(ticketTags.tagId, tags.id)))
      .where(and(eq(tags.companyId, companyId), containsTerm(query.searchParam, tags.name)))
      .groupBy(tags.id)
      .orderBy(asc(tags.name), asc(tags.id))
      .limit(limit)
      .offset(offset),
  );
  return { tags: page, hasMore };
}

/** GET /tags/kanban: the company's kanban lanes by name, as `{ lista }`. */
export async function listKanbanTags(ctx: AppContext, companyId: number): Promise<{ lista: Tag[] }> {
  const lista = await ctx.db
    .select(tagColumns)
    .from(tags)
    .where(and(eq(tags.companyId, companyId), eq(tags.kanban, 1)))
    .orderBy(asc(tags.name));
  return { lista };
}

/** GET /tags/:id. @throws ERR_NOT_FOUND (also for another company's tag). */
export async function getTag(ctx: AppContext, companyId: number, id: number): Promise<Tag> {
  const [row] = await ctx.db
    .select(tagColumns)
    .from(tags)
    .where(and(eq(tags.companyId, companyId), eq(tags.id, id)));
  return orNotFound(row);
}

function rethrowName(error: unknown): never {
  if (isUniqueViolation(error)) throw new AppError('ERR_NAME_ALREADY_EXISTS', { extra: { field: 'name' } });
  throw error;
}

/**
 * POST /tags: creates a tag (name unique per company). Only admins set `kanban` (document 2
 * section 5); for other profiles it stays 0. Emits `company-{id}-tag` create. @throws ERR_NAME_ALREADY_EXISTS, ERR_VALIDATION.
 */
export async function createTag(ctx: AppContext, auth: AuthContext, input: TagBody): Promise<Tag> {
  const body = ZTagBody.parse(input);
  const [row] = await ctx.db
    .insert(tags)
    .values({
      companyId: auth.companyId,
      name: body.name,
      ...(body.color ? { color: body.color } : {}),
      kanban: isAdmin(auth) ? (body.kanban ?? 0) : 0,
    })
    .returning(tagColumns)
    .catch(rethrowName);
  ctx.realtime.toCompany(auth.companyId, 'tag', { action: 'create', tag: row! });
  return row!;
}

/**
 * PUT /tags/:id: renames or recolours a tag; `kanban` changes only for admins (ignored otherwise).
 * Emits `company-{id}-tag` update, and `ticket` update for each live ticket carrying it.
 * @throws ERR_NOT_FOUND, ERR_NAME_ALREADY_EXISTS, ERR_VALIDATION.
 */
export async function updateTag(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  input: Partial<TagBody>,
): Promise<Tag> {
  const body = parsePatch(ZTagBody, input);
  const [row] = await ctx.db
    .update(tags)
    .set({
      name: body.name,
      ...(body.color ? { color: body.color } : {}),
      ...(isAdmin(auth) && body.kanban !== undefined ? { kanban: body.kanban } : {}),
      updatedAt: sql`now()`,
    })
    .where(and(eq(tags.companyId, auth.companyId), eq(tags.id, id)))
    .returning(tagColumns)
    .catch(rethrowName);
  if (!row) throw new AppError('ERR_NOT_FOUND');
  ctx.realtime.toCompany(auth.companyId, 'tag', { action: 'update', tag: row });
  await emitTickets(ctx, auth.companyId, await liveTicketsOfTag(ctx, auth.companyId, id));
  return row;
}

/** The live (not closed) tickets carrying a tag. */
async function liveTicketsOfTag(ctx: AppContext, companyId: number, tagId: number): Promise<number[]> {
  const rows = await ctx.db
    .select({ id: tickets.id })
    .from(ticketTags)
    .innerJoin(tickets, eq(tickets.id, ticketTags.ticketId))
    .where(
      and(eq(ticketTags.companyId, companyId), eq(ticketTags.tagId, tagId), ne(tickets.status, 'closed')),
    );
  return rows.map((r) => r.id);
}

/** Emits `ticket` update for these tickets (their tags changed), to those who see each one. */
async function emitTickets(ctx: AppContext, companyId: number, ids: number[]): Promise<void> {
  for (const ticket of await findTickets(ctx.db, companyId, ids)) {
    ctx.realtime.toTicket(ticket, 'ticket', { action: 'update', ticket });
  }
}

/**
 * DELETE /tags/:id: removes the tag from the company and from its tickets. Emits
 * `company-{id}-tag` delete with `tagId`, and `ticket` update for each live ticket that carried it.
 * @throws ERR_NOT_FOUND.
 */
export async function deleteTag(ctx: AppContext, companyId: number, id: number): Promise<void> {
  const tagged = await liveTicketsOfTag(ctx, companyId, id);
  const deleted = await ctx.db
    .delete(tags)
    .where(and(eq(tags.companyId, companyId), eq(tags.id, id)))
    .returning({ id: tags.id });
  if (!deleted.length) throw new AppError('ERR_NOT_FOUND');
  ctx.realtime.toCompany(companyId, 'tag', { action: 'delete', tagId: id });
  await emitTickets(ctx, companyId, tagged);
}
