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
  app.get(
    '/push/public-key',
    { config: userRoute, schema: { tags, response: { 200: ZPushPublicKey } } },
    () => ({ publicKey: vapid.publicKey }),
  );
  app.post(
    '/push/subscriptions',
    { config: userRoute, schema: { tags, body: ZPushSubscriptionBody } },
    async (request, reply) => {
      await saveSubscription(ctx, request.auth, request.body, request.headers['user-agent'] ?? '');
      return reply.status(201).send();
    },
  );
  app.delete(
    '/push/subscriptions',
    { config: userRoute, schema: { tags, body: ZPushUnsubscribeBody } },
    async (request, reply) => {
      await deleteSubscription(ctx, request.auth, request.body.endpoint);
      return reply.status(204).send();
    },
  );
  app.get(
    '/push/preferences',
    { config: userRoute, schema: { tags, response: { 200: ZPushPreferences } } },
    (request) => getPreferences(ctx, request.auth),
  );
  app.put(
    '/push/preferences',
    { config: userRoute, schema: { tags, body: ZPushPreferencesBody, response: { 200: ZPushPreferences } } },
    (request) => updatePreferences(ctx, request.auth, request.body),
  );
  app.put(
    '/push/viewing',
    { config: userRoute, schema: { tags, body: ZPushViewingBody } },
    async (request, reply) => {
      await setViewing(ctx, request.auth, request.body.ticketId);
      return reply.status(204).send();
    },
  );
}
