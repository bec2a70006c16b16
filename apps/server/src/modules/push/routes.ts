import {
  ZPushPreferences,
  ZPushPreferencesBody,
  ZPushPublicKey,
  ZPushSubscriptionBody,
  ZPushUnsubscribeBody,
  ZPushViewingBody,
} from '@zapdesk/shared';
import type { AppContext, ZodApp } from '../../context.js';
import { userRoute } from '../../lib/guards.js';
import type { VapidKeys } from '../../lib/vapid.js';
import { routeTable } from '../common/route-table.js';
import {
  deleteSubscription,
  getPreferences,
  saveSubscription,
  setViewing,
  updatePreferences,
} from './push-service.js';

/**
 * Web Push for agents (docs/operations.md "Web Push"): the public key browsers subscribe with, the
 * caller's subscriptions (store, remove its own), its choice of events, and the ticket on screen.
 */
export function pushRoutes(app: ZodApp, ctx: AppContext, vapid: VapidKeys): void {
  const tags = ['push'];
  const route = routeTable(app, tags, userRoute);
  route.get('/push/public-key', { reply: ZPushPublicKey }, () => ({ publicKey: vapid.publicKey }));
  route.post('/push/subscriptions', { body: ZPushSubscriptionBody }, async (request, reply) => {
    await saveSubscription(ctx, request.auth, request.body, request.headers['user-agent'] ?? '');
    return reply.status(201).send();
  });
  route.delete('/push/subscriptions', { body: ZPushUnsubscribeBody }, async (request, reply) => {
    await deleteSubscription(ctx, request.auth, request.body.endpoint);
    return reply.status(204).send();
  });
  route.get('/push/preferences', { reply: ZPushPreferences }, (request) => getPreferences(ctx, request.auth));
  route.put('/push/preferences', { body: ZPushPreferencesBody, reply: ZPushPreferences }, (request) =>
    updatePreferences(ctx, request.auth, request.body),
  );
  route.put('/push/viewing', { body: ZPushViewingBody }, async (request, reply) => {
    await setViewing(ctx, request.auth, request.body.ticketId);
    return reply.status(204).send();
  });
}
