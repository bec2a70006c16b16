import {
  PAGE_SIZE,
  withoutBidiControls,
  ZAgentPresenceBody,
  ZCoercedId,
  ZIdParam,
  ZMessage,
  ZMessagesPage,
  ZSendMessageBody,
} from '@zapdesk/shared';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { MediaStore } from '../../channels/media-store.js';
import type { OutboundSender } from '../../channels/outbound-sender.js';
import type { UploadedFile } from '../../channels/outbound-upload.js';
import type { SessionManager } from '../../channels/session-manager.js';
import type { AppContext, ZodApp } from '../../context.js';
import { pageTotal } from '../../db/page-total.js';
import { messages } from '../../db/schema/index.js';
import { userRoute } from '../../lib/guards.js';
import { sendStoredMedia } from '../common/media-reply.js';
import { routeTable } from '../common/route-table.js';
import { notesForPage } from '../ticket-notes/notes-service.js';
import { getVisibleTicket, readTicket } from '../tickets/tickets-service.js';
import { selectMessages, toMessage } from './message-repository.js';

/** Within this many ms, the same presence on the same ticket is sent once (a typing agent repeats it). */
export const PRESENCE_REPEAT_MS = 4000;

/** Which presences went out lately, per ticket: a repeat within PRESENCE_REPEAT_MS is dropped. */
export class PresenceThrottle {
  readonly #last = new Map<number, { presence: string; at: number }>();

  /** Whether `presence` on `ticketId` is to be sent now (and records it when it is). */
  take(ticketId: number, presence: string, now = Date.now()): boolean {
    const last = this.#last.get(ticketId);
    if (last && last.presence === presence && now - last.at < PRESENCE_REPEAT_MS) return false;
    if (this.#last.size > 10_000) {
      for (const [id, entry] of this.#last) if (now - entry.at >= PRESENCE_REPEAT_MS) this.#last.delete(id);
    }
    this.#last.set(ticketId, { presence, at: now });
    return true;
  }
}

const ZTicketParam = z.object({ ticketId: z.coerce.number().int().positive() });
/** `:ticketId` of the read route: a positive int4, as the column. */
const ZReadParam = z.object({ ticketId: ZCoercedId });
const ZPage = z.object({ pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1) });

/** Messages API (core section 7 Tickets and messages) and authenticated media (`/public/:name`). */
export function messageRoutes(
  app: ZodApp,
  ctx: AppContext,
  sender: OutboundSender,
  media: MediaStore,
  sessions: SessionManager,
): void {
  const tags = ['messages'];
  const route = routeTable(app, tags, userRoute);
  route.get(
    '/messages/:ticketId',
    { params: ZTicketParam, querystring: ZPage, reply: ZMessagesPage },
    async (request) => {
      const ticket = await getVisibleTicket(ctx, request.auth, { id: request.params.ticketId });
      // Opening the ticket (its newest page) reads it: receipts to the phone, unread count zeroed.
      if (request.query.pageNumber === 1) {
        await readTicket(ctx, sessions, ticket);
        ticket.unreadMessages = 0;
        // Where the provider needs it, ask for the customer's typing and recording (docs/inbox.md "Presence").
        if (ticket.whatsappId && !ticket.isGroup) {
          await sessions
            .get(ticket.whatsappId)
            ?.subscribePresence?.(ticket.contact.number)
            .catch((error: unknown) =>
              ctx.log.warn({ err: error, ticketId: ticket.id }, 'presence subscribe failed'),
            );
        }
      }
      // The contact's whole history on this company, across its tickets (newest page first).
      const where = and(
        eq(messages.companyId, request.auth.companyId),
        eq(messages.contactId, ticket.contactId),
      );
      const offset = (request.query.pageNumber - 1) * PAGE_SIZE;
      // One round trip: the count rides on the page as an uncorrelated sub-select.
      const rows = await selectMessages(ctx.db, where, {
        total: sql<number>`(select count(*)::int from ${messages} where ${where})`,
      })
        .orderBy(desc(messages.createdAt), desc(messages.id))
        .limit(PAGE_SIZE)
        .offset(offset);
      const totalCount = await pageTotal(
        rows,
        offset,
        async () => (await ctx.db.select({ value: count() }).from(messages).where(where))[0]?.value ?? 0,
      );
      const hasMore = offset + rows.length < totalCount;
      // The ticket's notes shown inline: from the page's oldest message on (all on the last page).
      const oldest = rows[rows.length - 1];
      const notes = await notesForPage(
        ctx.db,
        request.auth.companyId,
        ticket.id,
        hasMore && oldest ? oldest.message.createdAt : undefined,
      );
      return {
        messages: rows.map(toMessage).reverse(),
        hasMore,
        count: totalCount,
        ticket,
        notes,
      };
    },
  );
  route.post(
    '/messages/:ticketId',
    { params: ZTicketParam, body: ZSendMessageBody.nullish(), response: { 201: z.array(ZMessage) } },
    async (request, reply) => {
      await getVisibleTicket(ctx, request.auth, { id: request.params.ticketId });
      let input: { body: string; quotedMsgId?: number; files?: UploadedFile[]; signMessage?: boolean };
      if (request.isMultipart()) {
        const files: UploadedFile[] = [];
        const fields: Record<string, string> = {};
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            files.push({
              data: await part.toBuffer(),
              // Bidi controls would show the name reordered ("gnp.exe" as "exe.png").
              fileName: withoutBidiControls(part.filename),
              mimetype: part.mimetype,
            });
          } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        }
        const quoted = Number(fields.quotedMsgId ?? fields.quotedMsg);
        input = {
          body: fields.body ?? '',
          files,
          signMessage: fields.signMessage === 'true',
          quotedMsgId: Number.isInteger(quoted) && quoted > 0 ? quoted : undefined,
        };
        // The spec's client sends the file name as body; it is not a caption then.
        if (files.length === 1 && withoutBidiControls(input.body) === files[0]!.fileName) input.body = '';
      } else {
        const body = ZSendMessageBody.parse(request.body ?? {});
        const quoted = typeof body.quotedMsg === 'number' ? body.quotedMsg : body.quotedMsg?.id;
        input = { body: body.body, quotedMsgId: quoted, signMessage: body.signMessage };
      }
      return reply.status(201).send(await sender.send(request.auth, request.params.ticketId, input));
    },
  );
  // The open ticket read again when a message arrives while it is on screen (the web app calls it
  // instead of reloading the newest page). 204; 403/404 as opening the ticket.
  route.post('/messages/:ticketId/read', { params: ZReadParam }, async (request, reply) => {
    await readTicket(
      ctx,
      sessions,
      await getVisibleTicket(ctx, request.auth, { id: request.params.ticketId }),
    );
    return reply.status(204).send();
  });
  // The agent's typing or recording shown to the customer, where the connection's provider can
  // (WhatsApp Web; the Cloud API has no presence). Repeats within PRESENCE_REPEAT_MS are dropped.
  const presenceThrottle = new PresenceThrottle();
  route.post(
    '/messages/:ticketId/presence',
    { params: ZReadParam, body: ZAgentPresenceBody },
    async (request, reply) => {
      const ticket = await getVisibleTicket(ctx, request.auth, { id: request.params.ticketId });
      const driver = ticket.whatsappId ? sessions.get(ticket.whatsappId) : undefined;
      if (driver?.sendPresence && presenceThrottle.take(ticket.id, request.body.presence)) {
        await driver
          .sendPresence(ticket.contact.number, request.body.presence)
          .catch((error: unknown) =>
            ctx.log.warn({ err: error, ticketId: ticket.id }, 'presence send failed'),
          );
      }
      return reply.status(204).send();
    },
  );
  route.post('/messages/:id/retry', { params: ZIdParam, reply: ZMessage }, (request) =>
    sender.retry(request.auth, request.params.id),
  );
  route.delete('/messages/:id', { params: ZIdParam, reply: ZMessage }, (request) =>
    sender.remove(request.auth, request.params.id),
  );
  route.get('/public/:name', { params: z.object({ name: z.string().max(64) }) }, (request, reply) =>
    sendStoredMedia(request, reply, media, request.auth.companyId, request.params.name),
  );
}
