import { type TicketNote, ZCoercedId, ZCreateTicketNoteBody, ZIdParam, ZTicketNote } from '@zapdesk/shared';
import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext, ZodApp } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { ticketNotes, tickets, users } from '../../db/schema/index.js';
import { AppError } from '../../lib/app-error.js';
import { isAdmin, userRoute } from '../../lib/guards.js';
import { getVisibleTicket } from '../tickets/tickets-service.js';

async function selectNotes(db: Tx, where: ReturnType<typeof and>): Promise<TicketNote[]> {
  const rows = await db
    .select({ note: ticketNotes, userName: users.name })
    .from(ticketNotes)
    .leftJoin(users, eq(users.id, ticketNotes.userId))
    .where(where)
    .orderBy(asc(ticketNotes.createdAt), asc(ticketNotes.id));
  return rows.map(({ note, userName }) => ({
    id: note.id,
    note: note.note,
    ticketId: note.ticketId,
    contactId: note.contactId,
    userId: note.userId,
    user: note.userId !== null && userName !== null ? { id: note.userId, name: userName } : null,
    createdAt: note.createdAt.toISOString(),
    updatedAt: note.updatedAt.toISOString(),
  }));
}

/** Ticket notes API (core section 7): list, add, delete (author or admin). */
export function ticketNoteRoutes(app: ZodApp, ctx: AppContext): void {
  const tags = ['ticket-notes'];
  app.get(
    '/ticket-notes/list',
    {
      config: userRoute,
      schema: {
        tags,
        querystring: z.object({
          ticketId: ZCoercedId,
          contactId: ZCoercedId.optional(),
        }),
        response: { 200: z.array(ZTicketNote) },
      },
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
  app.post(
    '/ticket-notes',
    { config: userRoute, schema: { tags, body: ZCreateTicketNoteBody, response: { 201: ZTicketNote } } },
    async (request, reply) => {
      const ticket = await getVisibleTicket(ctx, request.auth, { id: request.body.ticketId });
      if (ticket.contactId !== request.body.contactId) {
        throw new AppError('ERR_VALIDATION', { extra: { field: 'contactId', message: 'invalid' } });
      }
      const [row] = await ctx.db
        .insert(ticketNotes)
        .values({
          companyId: request.auth.companyId,
          ticketId: ticket.id,
          contactId: ticket.contactId,
          userId: request.auth.userId,
          note: request.body.note,
        })
        .returning({ id: ticketNotes.id });
      const [note] = await selectNotes(ctx.db, and(eq(ticketNotes.id, row!.id)));
      return reply.status(201).send(note!);
    },
  );
  app.delete(
    '/ticket-notes/:id',
    { config: userRoute, schema: { tags, params: ZIdParam } },
    async (request, reply) => {
      const [note] = await ctx.db
        .select({ userId: ticketNotes.userId, ticketId: ticketNotes.ticketId })
        .from(ticketNotes)
        .innerJoin(tickets, eq(tickets.id, ticketNotes.ticketId))
        .where(and(eq(ticketNotes.companyId, request.auth.companyId), eq(ticketNotes.id, request.params.id)));
      if (!note) throw new AppError('ERR_NOT_FOUND');
      if (note.userId !== request.auth.userId && !isAdmin(request.auth))
        throw new AppError('ERR_NO_PERMISSION');
      await ctx.db
        .delete(ticketNotes)
        .where(and(eq(ticketNotes.companyId, request.auth.companyId), eq(ticketNotes.id, request.params.id)));
      return reply.status(204).send();
    },
  );
}
