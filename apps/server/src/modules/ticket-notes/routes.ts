import {
  ZCoercedId,
  ZCreateTicketNoteBody,
  ZIdParam,
  ZMentionableUsers,
  ZNoteMention,
  ZTicketNote,
} from '@zapdesk/shared';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext, ZodApp } from '../../context.js';
import { ticketNoteMentions, ticketNotes, tickets } from '../../db/schema/index.js';
import { AppError } from '../../lib/app-error.js';
import { isAdmin, userRoute } from '../../lib/guards.js';
import { routeTable } from '../common/route-table.js';
import { getVisibleTicket } from '../tickets/tickets-service.js';
import {
  checkMentions,
  mentionableUsers,
  recordMentions,
  selectNotes,
  unreadMentions,
} from './notes-service.js';

/**
 * Ticket notes API (core section 7; docs/inbox.md "Notes and mentions"): list, add (with mentions),
 * delete (author or admin), the users a note may mention, and the caller's unread mentions.
 */
export function ticketNoteRoutes(app: ZodApp, ctx: AppContext): void {
  const tags = ['ticket-notes'];
  const route = routeTable(app, tags, userRoute);
  route.get(
    '/ticket-notes/list',
    {
      querystring: z.object({
        ticketId: ZCoercedId,
        contactId: ZCoercedId.optional(),
      }),
      reply: z.array(ZTicketNote),
    },
    async (request) => {
      await getVisibleTicket(ctx, request.auth, { id: request.query.ticketId });
      return selectNotes(
        ctx.db,
        and(
          eq(ticketNotes.companyId, request.auth.companyId),
          eq(ticketNotes.ticketId, request.query.ticketId),
          request.query.contactId ? eq(ticketNotes.contactId, request.query.contactId) : undefined,
        ),
      );
    },
  );
  route.get(
    '/ticket-notes/mentionable',
    { querystring: z.object({ ticketId: ZCoercedId }), reply: ZMentionableUsers },
    async (request) => {
      const ticket = await getVisibleTicket(ctx, request.auth, { id: request.query.ticketId });
      return mentionableUsers(ctx.db, request.auth.companyId, ticket);
    },
  );
  route.get('/ticket-notes/mentions', { reply: z.array(ZNoteMention) }, async (request) =>
    unreadMentions(ctx.db, request.auth.companyId, request.auth.userId),
  );
  route.post('/ticket-notes/mentions/:id/read', { params: ZIdParam }, async (request, reply) => {
    const [row] = await ctx.db
      .update(ticketNoteMentions)
      .set({ readAt: sql`coalesce(${ticketNoteMentions.readAt}, now())` })
      .where(
        and(
          eq(ticketNoteMentions.companyId, request.auth.companyId),
          eq(ticketNoteMentions.userId, request.auth.userId),
          eq(ticketNoteMentions.noteId, request.params.id),
        ),
      )
      .returning({ noteId: ticketNoteMentions.noteId });
    if (!row) throw new AppError('ERR_NOT_FOUND');
    return reply.status(204).send();
  });
  route.post(
    '/ticket-notes',
    { body: ZCreateTicketNoteBody, response: { 201: ZTicketNote } },
    async (request, reply) => {
      const { companyId, userId } = request.auth;
      const ticket = await getVisibleTicket(ctx, request.auth, { id: request.body.ticketId });
      if (ticket.contactId !== request.body.contactId) {
        throw new AppError('ERR_VALIDATION', { extra: { field: 'contactId', message: 'invalid' } });
      }
      const mentioned = await checkMentions(ctx.db, companyId, userId, ticket, request.body.mentionedUserIds);
      const [row] = await ctx.db
        .insert(ticketNotes)
        .values({
          companyId,
          ticketId: ticket.id,
          contactId: ticket.contactId,
          userId,
          note: request.body.note,
        })
        .returning({ id: ticketNotes.id });
      await recordMentions(ctx, companyId, { id: row!.id, ticketId: ticket.id }, mentioned);
      const [note] = await selectNotes(ctx.db, eq(ticketNotes.id, row!.id));
      ctx.realtime.toTicket(ticket, 'ticketNote', { action: 'create', note: note! });
      return reply.status(201).send(note!);
    },
  );
  route.delete('/ticket-notes/:id', { params: ZIdParam }, async (request, reply) => {
    const [note] = await ctx.db
      .select({
        userId: ticketNotes.userId,
        ticketId: ticketNotes.ticketId,
        queueId: tickets.queueId,
        holderId: tickets.userId,
        status: tickets.status,
      })
      .from(ticketNotes)
      .innerJoin(tickets, eq(tickets.id, ticketNotes.ticketId))
      .where(and(eq(ticketNotes.companyId, request.auth.companyId), eq(ticketNotes.id, request.params.id)));
    if (!note) throw new AppError('ERR_NOT_FOUND');
    if (note.userId !== request.auth.userId && !isAdmin(request.auth))
      throw new AppError('ERR_NO_PERMISSION');
    await ctx.db
      .delete(ticketNotes)
      .where(and(eq(ticketNotes.companyId, request.auth.companyId), eq(ticketNotes.id, request.params.id)));
    ctx.realtime.toTicket(
      {
        companyId: request.auth.companyId,
        queueId: note.queueId,
        userId: note.holderId,
        status: note.status,
      },
      'ticketNote',
      { action: 'delete', noteId: request.params.id, ticketId: note.ticketId },
    );
    return reply.status(204).send();
  });
}
