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
  app.get(
    '/system-settings/public/push-config',
    { config: publicRoute, schema: { tags, security: [], response: { 200: ZClassicPushConfig } } },
    () => ({ onesignalEnabled: false, onesignalAppId: '', onesignalEnvironment: 'production' as const }),
  );
  app.get(
    '/system-settings/branding',
    { config: publicRoute, schema: { tags, security: [], response: { 200: ZClassicBranding } } },
    () => BRANDING,
  );
  // Loaded by a <script> in the client's page: JavaScript, never a JSON error the browser blocks.
  app.get(
    '/system-settings/branding-bootstrap.js',
    { config: publicRoute, schema: { tags, security: [] } },
    (_request, reply) =>
      reply
        .type('application/javascript; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        .send('/* Zapdesk: no custom branding; the client keeps its defaults. */\n'),
  );
  app.get(
    '/notifications/unread-count',
    { config: userRoute, schema: { tags, response: { 200: ZClassicUnreadCount } } },
    async (request) => ({ count: (await bellPage(ctx, request.auth, 1)).count }),
  );
  app.get(
    '/notifications',
    {
      config: userRoute,
      schema: { tags, querystring: ZClassicNotificationsQuery, response: { 200: ZClassicNotificationsPage } },
    },
    async (request) => {
      const page = await bellPage(ctx, request.auth, request.query.page);
      return { notifications: page.tickets.map(toNotification), count: page.count, hasMore: page.hasMore };
    },
  );
  // Reading a bell entry reads its ticket, as opening it does: receipts to the phone, unread zeroed.
  app.put(
    '/notifications/:id/read',
    { config: userRoute, schema: { tags, params: ZIdParam } },
    async (request, reply) => {
      const ticket = await getVisibleTicket(ctx, request.auth, { id: request.params.id });
      await readTicket(ctx, sessions, ticket);
      return reply.status(204).send();
    },
  );
  // The client marks the ticket it shows; Zapdesk reads a ticket when its messages are opened, so
  // this checks that the caller may open it and records it as the ticket on screen, which Web Push
  // spares (PUT /push/viewing does the same for Zapdesk's own web app).
  app.post(
    '/tickets/:id/active-view',
    { config: userRoute, schema: { tags, params: ZIdParam } },
    async (request, reply) => {
      await setViewing(ctx, request.auth, request.params.id);
      return reply.status(204).send();
    },
  );
  // Zapdesk has no contact labels (tags are on tickets): an empty list, so the filter stays empty.
  app.get(
    '/contact-labels',
    {
      config: userRoute,
      schema: {
        tags,
        response: { 200: z.array(z.object({ id: z.number(), name: z.string(), color: z.string() })) },
      },
    },
    () => [],
  );
}
