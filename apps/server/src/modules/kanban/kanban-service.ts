import { KANBAN_PAGE_SIZE, type KanbanPage, type Ticket, type ZKanbanQuery } from '@zapdesk/shared';
import { and, desc, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { contacts, tags, tickets, ticketTags } from '../../db/schema/index.js';
import { loadViewer, visibleWhere } from '../../db/ticket-visibility.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthContext } from '../../lib/guards.js';
import { emitTicketUpdate, getVisibleTicket } from '../tickets/tickets-service.js';

/** GET /ticket/kanban query after parsing. */
export type KanbanQueryParsed = z.output<typeof ZKanbanQuery>;

/**
 * GET /ticket/kanban (document 2 sections 2, 6 and 7): the live (open and pending) tickets the
 * caller sees in the inbox — `showAll` counts for admins only, otherwise its own tickets, its queues'
 * and those without a queue — narrowed to `queueIds` (and tickets without a queue) when given;
 * newest update first, KANBAN_PAGE_SIZE a page. Each page is one query: tickets joined with the
 * contact and their tags aggregated per row (one extra row tells `hasMore`).
 */
export async function listKanbanTickets(
  ctx: AppContext,
  auth: AuthContext,
  query: KanbanQueryParsed,
): Promise<KanbanPage> {
  const viewer = await loadViewer(ctx.db, auth);
  const offset = (query.pageNumber - 1) * KANBAN_PAGE_SIZE;
  const rows = await ctx.db
    .select({
      id: tickets.id,
      uuid: tickets.uuid,
      status: tickets.status,
      queueId: tickets.queueId,
      userId: tickets.userId,
      lastMessage: tickets.lastMessage,
      updatedAt: tickets.updatedAt,
      contact: { id: contacts.id, name: contacts.name, number: contacts.number },
      tags: sql<{ id: number; name: string; color: string }[]>`coalesce((
        select json_agg(json_build_object('id', tg.id, 'name', tg.name, 'color', tg.color) order by tg.name)
        from ticket_tags tt join tags tg on tg.id = tt.tag_id
        where tt.ticket_id = ${tickets.id}), '[]'::json)`,
    })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(
      and(
        eq(tickets.companyId, auth.companyId),
        ne(tickets.status, 'closed'),
        visibleWhere(viewer, query.showAll),
        query.queueIds?.length
          ? or(inArray(tickets.queueId, query.queueIds), isNull(tickets.queueId))
          : undefined,
      ),
    )
    .orderBy(desc(tickets.updatedAt), desc(tickets.id))
    .limit(KANBAN_PAGE_SIZE + 1)
    .offset(offset);
  return {
    tickets: rows
      .slice(0, KANBAN_PAGE_SIZE)
      .map((row) => ({ ...row, updatedAt: row.updatedAt.toISOString() })),
    hasMore: rows.length > KANBAN_PAGE_SIZE,
  };
}

/** Deletes the ticket's tags flagged kanban (its lane), inside `tx`; keeps `except` when given. */
async function removeKanbanTags(tx: Tx, companyId: number, ticketId: number, except?: number): Promise<void> {
  const lanes = tx
    .select({ id: tags.id })
    .from(tags)
    .where(and(eq(tags.companyId, companyId), eq(tags.kanban, 1), except ? ne(tags.id, except) : undefined));
  await tx
    .delete(ticketTags)
    .where(
      and(
        eq(ticketTags.companyId, companyId),
        eq(ticketTags.ticketId, ticketId),
        inArray(ticketTags.tagId, lanes),
      ),
    );
}

/**
 * PUT /ticket-tags/:ticketId/:tagId (document 2 section 7): adds the tag to the ticket (kept once).
 * With `replace`, the ticket's other kanban tags go in the same transaction: a card moved from one
 * lane to another in one request. Answers the ticket and emits `ticket` update.
 * @throws ERR_NO_TICKET_FOUND (unknown or another company's ticket), ERR_NO_PERMISSION (a ticket the
 * caller may not open), ERR_NOT_FOUND (unknown or another company's tag).
 */
export async function addTicketTag(
  ctx: AppContext,
  auth: AuthContext,
  ticketId: number,
  tagId: number,
  replace: boolean,
): Promise<Ticket> {
  const { companyId } = auth;
  await getVisibleTicket(ctx, auth, { id: ticketId });
  const [tag] = await ctx.db
    .select({ id: tags.id })
    .from(tags)
    .where(and(eq(tags.companyId, companyId), eq(tags.id, tagId)));
  if (!tag) throw new AppError('ERR_NOT_FOUND');
  await ctx.db.transaction(async (tx) => {
    if (replace) await removeKanbanTags(tx, companyId, ticketId, tagId);
    await tx.insert(ticketTags).values({ companyId, ticketId, tagId }).onConflictDoNothing();
  });
  return emitTicketUpdate(ctx, companyId, ticketId);
}

/**
 * DELETE /ticket-tags/:ticketId (document 2 section 7): removes the ticket's kanban tags (other
 * tags stay), so the card goes back to the 'open' lane. Answers the ticket and emits `ticket` update.
 * @throws ERR_NO_TICKET_FOUND, ERR_NO_PERMISSION.
 */
export async function removeTicketKanbanTags(
  ctx: AppContext,
  auth: AuthContext,
  ticketId: number,
): Promise<Ticket> {
  await getVisibleTicket(ctx, auth, { id: ticketId });
  await ctx.db.transaction((tx) => removeKanbanTags(tx, auth.companyId, ticketId));
  return emitTicketUpdate(ctx, auth.companyId, ticketId);
}
