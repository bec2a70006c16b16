import {
  parsePatch,
  ZAdminInvoice,
  ZAdminInvoiceQuery,
  ZBillingInfo,
  ZBillingProfile,
  ZCoercedId,
  ZInvoice,
  ZInvoiceCopyBody,
  ZPageQuery,
  ZPaymentResult,
  ZPixSettings,
  ZSubscribeBody,
  ZSubscribeResponse,
} from '@zapdesk/shared';
import { z } from 'zod';
import type { AppContext, ZodApp } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { adminRoute, publicRoute, superRoute, userRoute } from '../../lib/guards.js';
import { routeTable } from '../common/route-table.js';
import { verifyAsaasWebhook } from './asaas-driver.js';
import {
  cancelInvoice,
  getBillingProfile,
  getInvoice,
  handleAsaasEvent,
  listAllInvoices,
  listInvoices,
  markInvoicePaid,
  saveInvoiceCopy,
  subscribe,
  updateBillingProfile,
} from './billing-service.js';
import { crmRoutes } from './crm.js';
import { getPixSettings, updatePixSettings } from './pix-settings.js';

const ZIdParams = z.object({ id: ZCoercedId });

/** Webhook body of Asaas: the event name and the payment it is about (other fields ignored). */
const ZAsaasEvent = z.looseObject({
  event: z.string().max(100),
  payment: z.looseObject({ id: z.string().max(100).optional() }).optional(),
});

/**
 * Invoices, subscription (checkout) and billing settings (document 3 sections 4 and
 * 7). Company routes read the company from the token only.
 */
export function billingRoutes(app: ZodApp, ctx: AppContext): void {
  const tags = ['billing'];
  const route = routeTable(app, tags, adminRoute);
  route.get('/billing/info', { guard: userRoute, reply: ZBillingInfo }, async () => ({
    provider: ctx.config.BILLING_PROVIDER,
    pixReady: (await getPixSettings(ctx)).pixKey !== '',
  }));
  route.get('/billing/profile', { reply: ZBillingProfile.nullable() }, (request) =>
    getBillingProfile(ctx, request.auth.companyId),
  );
  route.put('/billing/profile', { body: ZBillingProfile.partial(), reply: ZBillingProfile }, (request) =>
    updateBillingProfile(ctx, request.auth.companyId, request.body),
  );
  route.get('/billing/pix-settings', { guard: superRoute, reply: ZPixSettings }, () => getPixSettings(ctx));
  route.put(
    '/billing/pix-settings',
    { guard: superRoute, body: ZPixSettings.partial(), reply: ZPixSettings },
    (request) => updatePixSettings(ctx, parsePatch(ZPixSettings, request.body)),
  );
  route.get('/invoices/all', { querystring: ZPageQuery, reply: z.array(ZInvoice) }, (request) =>
    listInvoices(ctx, request.auth.companyId, request.query),
  );
  route.post('/invoices', { body: ZInvoiceCopyBody, reply: ZInvoice }, (request) =>
    saveInvoiceCopy(ctx, request.auth.companyId, request.body),
  );
  route.get(
    '/invoices/admin',
    { guard: superRoute, querystring: ZAdminInvoiceQuery, reply: z.array(ZAdminInvoice) },
    (request) => listAllInvoices(ctx, request.query),
  );
  route.get('/invoices/:id', { params: ZIdParams, reply: ZInvoice }, (request) =>
    getInvoice(ctx, request.auth.companyId, request.params.id),
  );
  route.post('/invoices/:id/cancel', { params: ZIdParams, reply: ZInvoice }, (request) =>
    cancelInvoice(ctx, request.auth.companyId, request.params.id),
  );
  route.post(
    '/invoices/:id/pay',
    { guard: superRoute, params: ZIdParams, reply: ZPaymentResult },
    (request) => markInvoicePaid(ctx, request.params.id),
  );
  route.post('/subscription', { body: ZSubscribeBody, reply: ZSubscribeResponse }, (request) =>
    subscribe(ctx, request.auth, request.body),
  );
  route.post(
    '/billing/webhooks/asaas',
    {
      guard: publicRoute,
      security: [],
      body: ZAsaasEvent,
      reply: z.object({ received: z.literal(true), applied: z.boolean() }),
    },
    async (request) => {
      if (!verifyAsaasWebhook(ctx, request.headers['asaas-access-token'])) {
        throw new AppError('ERR_INVALID_SIGNATURE');
      }
      return handleAsaasEvent(ctx, request.body);
    },
  );
  crmRoutes(app, ctx);
}
