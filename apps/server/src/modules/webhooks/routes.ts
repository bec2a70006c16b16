import crypto from 'node:crypto';
import {
  parsePatch,
  type Webhook,
  type WebhookDelivery,
  type WebhookEvent,
  ZCoercedId,
  ZIdParam,
  ZWebhook,
  ZWebhookBody,
  ZWebhookDeliveriesPage,
  ZWebhookDeliveriesQuery,
  ZWebhookDelivery,
  ZWebhookWithSecret,
} from '@zapdesk/shared';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext, ZodApp } from '../../context.js';
import { webhookDeliveries, webhooks } from '../../db/schema/index.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import { AppError, orNotFound } from '../../lib/app-error.js';
import type { AuthContext } from '../../lib/guards.js';
import { adminRoute } from '../../lib/guards.js';
import { assertUrlAllowed } from '../../lib/outbound-url.js';
import { encryptSecret } from '../../lib/secrets.js';
import { routeTable } from '../common/route-table.js';
import { WEBHOOK_DELIVERY_JOB } from './dispatcher.js';

/** Admins of a company whose plan has the external API (document 2 section 6). */
const guard = { ...adminRoute, plan: 'useExternalApi' } as const;
const DELIVERIES_PAGE = 20;

type WebhookRow = typeof webhooks.$inferSelect;

function toWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEvent[],
    active: row.active,
    description: row.description,
    secretHint: `••••${row.secretHint}`,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toDelivery(row: typeof webhookDeliveries.$inferSelect): WebhookDelivery {
  return {
    id: row.id,
    webhookId: row.webhookId,
    eventId: row.eventId,
    event: row.event as WebhookEvent,
    status: row.status,
    tries: row.tries,
    lastError: row.lastError,
    responseCode: row.responseCode,
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A fresh signing secret: `whsec_` and 32 random bytes in base64url. */
function newSecret(): { secret: string; secretSealedHint: string } {
  const secret = `whsec_${crypto.randomBytes(32).toString('base64url')}`;
  return { secret, secretSealedHint: secret.slice(-4) };
}

async function findOwned(ctx: AppContext, auth: AuthContext, id: number): Promise<WebhookRow> {
  const [row] = await ctx.db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.companyId, auth.companyId), eq(webhooks.id, id)));
  return orNotFound(row);
}

/** A company holds at most this many webhooks. */
export const WEBHOOKS_PER_COMPANY = 20;

/**
 * Outgoing webhooks API, admins only, plan flag useExternalApi:
 * GET/POST /webhooks, GET/PUT/DELETE /webhooks/:id, POST /webhooks/:id/secret (a new secret, shown
 * once), GET /webhooks/:id/deliveries (the delivery log, newest first, 20 a page).
 * Another company's webhook answers 404 ERR_NOT_FOUND.
 */
export function webhookRoutes(app: ZodApp, ctx: AppContext, jobs: JobQueue): void {
  const tags = ['webhooks'];
  const route = routeTable(app, tags, guard);
  route.get('/webhooks', { reply: z.array(ZWebhook) }, async (request) => {
    const rows = await ctx.db
      .select()
      .from(webhooks)
      .where(eq(webhooks.companyId, request.auth.companyId))
      .orderBy(webhooks.id);
    return rows.map(toWebhook);
  });
  route.post(
    '/webhooks',
    { body: ZWebhookBody, response: { 201: ZWebhookWithSecret } },
    async (request, reply) => {
      const { companyId } = request.auth;
      const [total] = await ctx.db
        .select({ value: count() })
        .from(webhooks)
        .where(eq(webhooks.companyId, companyId));
      if ((total?.value ?? 0) >= WEBHOOKS_PER_COMPANY) {
        throw new AppError('ERR_VALIDATION', { extra: { field: 'url', message: 'invalid' } });
      }
      const body = request.body;
      await assertUrlAllowed(ctx, body.url, 'url');
      const { secret, secretSealedHint } = newSecret();
      const [row] = await ctx.db
        .insert(webhooks)
        .values({
          companyId,
          url: body.url,
          events: [...new Set(body.events)],
          active: body.active,
          description: body.description,
          secretSealed: encryptSecret(secret, ctx.secrets.sessionKey),
          secretHint: secretSealedHint,
        })
        .returning();
      return reply.status(201).send({ ...toWebhook(row!), secret });
    },
  );
  route.get('/webhooks/:id', { params: ZIdParam, reply: ZWebhook }, async (request) =>
    toWebhook(await findOwned(ctx, request.auth, request.params.id)),
  );
  route.put(
    '/webhooks/:id',
    { params: ZIdParam, body: ZWebhookBody.partial(), reply: ZWebhook },
    async (request) => {
      await findOwned(ctx, request.auth, request.params.id);
      const patch = parsePatch(ZWebhookBody, request.body);
      if (patch.url !== undefined) await assertUrlAllowed(ctx, patch.url, 'url');
      const [row] = await ctx.db
        .update(webhooks)
        .set({
          url: patch.url,
          events: patch.events ? [...new Set(patch.events)] : undefined,
          active: patch.active,
          description: patch.description,
          updatedAt: sql`now()`,
        })
        .where(and(eq(webhooks.companyId, request.auth.companyId), eq(webhooks.id, request.params.id)))
        .returning();
      if (!row) throw new AppError('ERR_NOT_FOUND');
      return toWebhook(row);
    },
  );
  route.delete('/webhooks/:id', { params: ZIdParam }, async (request, reply) => {
    const removed = await ctx.db
      .delete(webhooks)
      .where(and(eq(webhooks.companyId, request.auth.companyId), eq(webhooks.id, request.params.id)))
      .returning({ id: webhooks.id });
    if (!removed.length) throw new AppError('ERR_NOT_FOUND');
    return reply.status(204).send();
  });
  route.post('/webhooks/:id/secret', { params: ZIdParam, reply: ZWebhookWithSecret }, async (request) => {
    await findOwned(ctx, request.auth, request.params.id);
    const { secret, secretSealedHint } = newSecret();
    const [row] = await ctx.db
      .update(webhooks)
      .set({
        secretSealed: encryptSecret(secret, ctx.secrets.sessionKey),
        secretHint: secretSealedHint,
        updatedAt: sql`now()`,
      })
      .where(and(eq(webhooks.companyId, request.auth.companyId), eq(webhooks.id, request.params.id)))
      .returning();
    return { ...toWebhook(row!), secret };
  });
  route.get(
    '/webhooks/:id/deliveries',
    { params: ZIdParam, querystring: ZWebhookDeliveriesQuery, reply: ZWebhookDeliveriesPage },
    async (request) => {
      const hook = await findOwned(ctx, request.auth, request.params.id);
      const { pageNumber, status } = request.query;
      const where = and(
        eq(webhookDeliveries.companyId, request.auth.companyId),
        eq(webhookDeliveries.webhookId, hook.id),
        status ? eq(webhookDeliveries.status, status) : undefined,
      );
      const offset = (pageNumber - 1) * DELIVERIES_PAGE;
      const [rows, [total]] = await Promise.all([
        ctx.db
          .select()
          .from(webhookDeliveries)
          .where(where)
          .orderBy(desc(webhookDeliveries.id))
          .limit(DELIVERIES_PAGE)
          .offset(offset),
        ctx.db.select({ value: count() }).from(webhookDeliveries).where(where),
      ]);
      const totalCount = total?.value ?? 0;
      return { records: rows.map(toDelivery), hasMore: offset + rows.length < totalCount, count: totalCount };
    },
  );
  route.post(
    '/webhooks/:id/deliveries/:deliveryId/retry',
    { params: z.object({ id: ZCoercedId, deliveryId: ZCoercedId }), reply: ZWebhookDelivery },
    async (request) => {
      const hook = await findOwned(ctx, request.auth, request.params.id);
      const row = await ctx.db.transaction(async (tx) => {
        const [current] = await tx
          .select({ status: webhookDeliveries.status })
          .from(webhookDeliveries)
          .where(
            and(
              eq(webhookDeliveries.companyId, request.auth.companyId),
              eq(webhookDeliveries.webhookId, hook.id),
              eq(webhookDeliveries.id, request.params.deliveryId),
            ),
          )
          .for('update');
        if (!current) throw new AppError('ERR_NOT_FOUND');
        if (current.status !== 'failed')
          throw new AppError('ERR_VALIDATION', { extra: { field: 'status', message: 'invalid' } });
        const [updated] = await tx
          .update(webhookDeliveries)
          .set({ status: 'pending', tries: 0, nextAttemptAt: sql`now()`, updatedAt: sql`now()` })
          .where(eq(webhookDeliveries.id, request.params.deliveryId))
          .returning();
        await jobs.send(WEBHOOK_DELIVERY_JOB, { deliveryId: updated!.id }, { tx });
        return updated!;
      });
      jobs.wake(WEBHOOK_DELIVERY_JOB);
      return toDelivery(row);
    },
  );
}
