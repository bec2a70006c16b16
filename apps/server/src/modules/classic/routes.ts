import {
  type ClassicBranding,
  type Ticket,
  ZClassicBranding,
  ZClassicNotificationsPage,
  ZClassicNotificationsQuery,
  ZClassicPushConfig,
  ZClassicUnreadCount,
  ZIdParam,
  ZTicketsQuery,
} from '@zapdesk/shared';
import { z } from 'zod';
import type { SessionManager } from '../../channels/session-manager.js';
import type { AppContext, ZodApp } from '../../context.js';
import type { AuthContext } from '../../lib/guards.js';
import { publicRoute, userRoute } from '../../lib/guards.js';
import { routeTable } from '../common/route-table.js';
import { setViewing } from '../push/push-service.js';
import { getVisibleTicket, listTickets, readTicket } from '../tickets/tickets-service.js';

/** The branding the classic client shows: Zapdesk's name, and its own logos (no URLs given). */
const BRANDING: ClassicBranding = {
  systemName: 'Zapdesk',
  loginLogoUrl: '',
  loginLogoDarkUrl: '',
  menuLogoUrl: '',
  menuLogoDarkUrl: '',
  faviconUrl: '',
  publicWhatsAppNumber: '',
  publicWhatsAppMessage: '',
  assetRevision: '0',
};

/**
 * The tickets of the caller's notification bell (core section 2 "Top bar"): the tickets they see
 * with unread messages, one page of the ticket list.
 */
function bellPage(ctx: AppContext, auth: AuthContext, pageNumber: number) {
  return listTickets(ctx, auth, ZTicketsQuery.parse({ withUnreadMessages: 'true', pageNumber }));
}

/** A bell ticket as a notification of the classic client's notification centre. */
function toNotification(ticket: Ticket) {
  return {
    id: ticket.id,
    type: 'ticket_unread' as const,
    title: ticket.contact.name,
    body: ticket.lastMessage,
    read: false,
    readAt: null,
    createdAt: ticket.updatedAt,
    data: { ticketId: ticket.id, ticketUuid: ticket.uuid },
  };
}

/**
 * Calls that only the classic client's fork makes (docs/compatibility.md, "Calls of the classic
 * client's fork"), each answered from Zapdesk's own data behind the usual guards: its push
 * configuration (none), branding (the product name) and branding script (empty), the notification
 * bell as its notification centre, the ticket view mark and contact labels (none).
 */
export function classicRoutes(app: ZodApp, ctx: AppContext, sessions: SessionManager): void {
  const tags = ['classic client'];
  const route = routeTable(app, tags, userRoute);
  route.get(
    '/system-settings/public/push-config',
    { guard: publicRoute, security: [], reply: ZClassicPushConfig },
    () => ({ onesignalEnabled: false, onesignalAppId: '', onesignalEnvironment: 'production' as const }),
  );
  route.get(
    '/system-settings/branding',
    { guard: publicRoute, security: [], reply: ZClassicBranding },
    () => BRANDING,
  );
  // Loaded by a <script> in the client's page: JavaScript, never a JSON error the browser blocks.
  route.get(
    '/system-settings/branding-bootstrap.js',
    { guard: publicRoute, security: [] },
    (_request, reply) =>
      reply
        .type('application/javascript; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        .send('/* Zapdesk: no custom branding; the client keeps its defaults. */\n'),
  );
  route.get('/notifications/unread-count', { reply: ZClassicUnreadCount }, async (request) => ({
    count: (await bellPage(ctx, request.auth, 1)).count,
  }));
  route.get(
    '/notifications',
    { querystring: ZClassicNotificationsQuery, reply: ZClassicNotificationsPage },
    async (request) => {
      const page = await bellPage(ctx, request.auth, request.query.page);
      return { notifications: page.tickets.map(toNotification), count: page.count, hasMore: page.hasMore };
    },
  );
  // Reading a bell entry reads its ticket, as opening it does: receipts to the phone, unread zeroed.
  route.put('/notifications/:id/read', { params: ZIdParam }, async (request, reply) => {
    const ticket = await getVisibleTicket(ctx, request.auth, { id: request.params.id });
    await readTicket(ctx, sessions, ticket);
    return reply.status(204).send();
  });
  // The client marks the ticket it shows; Zapdesk reads a ticket when its messages are opened, so
  // this checks that the caller may open it and records it as the ticket on screen, which Web Push
  // spares (PUT /push/viewing does the same for Zapdesk's own web app).
  route.post('/tickets/:id/active-view', { params: ZIdParam }, async (request, reply) => {
    await setViewing(ctx, request.auth, request.params.id);
    return reply.status(204).send();
  });
  // Zapdesk has no contact labels (tags are on tickets): an empty list, so the filter stays empty.
  route.get(
    '/contact-labels',
    { reply: z.array(z.object({ id: z.number(), name: z.string(), color: z.string() })) },
    () => [],
  );
}
