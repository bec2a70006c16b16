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
  app.get(
    '/billing/info',
    { config: userRoute, schema: { tags, response: { 200: ZBillingInfo } } },
    async () => ({
      provider: ctx.config.BILLING_PROVIDER,
      pixReady: (await getPixSettings(ctx)).pixKey !== '',
    }),
  );
  app.get(
    '/billing/profile',
    { config: adminRoute, schema: { tags, response: { 200: ZBillingProfile.nullable() } } },
    (request) => getBillingProfile(ctx, request.auth.companyId),
  );
  app.put(
    '/billing/profile',
    {
      config: adminRoute,
      schema: { tags, body: ZBillingProfile.partial(), response: { 200: ZBillingProfile } },
    },
    (request) => updateBillingProfile(ctx, request.auth.companyId, request.body),
  );
  app.get(
    '/billing/pix-settings',
    { config: superRoute, schema: { tags, response: { 200: ZPixSettings } } },
    () => getPixSettings(ctx),
  );
  app.put(
    '/billing/pix-settings',
    { config: superRoute, schema: { tags, body: ZPixSettings.partial(), response: { 200: ZPixSettings } } },
    (request) => updatePixSettings(ctx, parsePatch(ZPixSettings, request.body)),
  );
  app.get(
    '/invoices/all',
    { config: adminRoute, schema: { tags, querystring: ZPageQuery, response: { 200: z.array(ZInvoice) } } },
    (request) => listInvoices(ctx, request.auth.companyId, request.query),
  );
  app.post(
    '/invoices',
    { config: adminRoute, schema: { tags, body: ZInvoiceCopyBody, response: { 200: ZInvoice } } },
    (request) => saveInvoiceCopy(ctx, request.auth.companyId, request.body),
  );
  app.get(
    '/invoices/admin',
    {
      config: superRoute,
      schema: { tags, querystring: ZAdminInvoiceQuery, response: { 200: z.array(ZAdminInvoice) } },
    },
    (request) => listAllInvoices(ctx, request.query),
  );
  app.get(
    '/invoices/:id',
    { config: adminRoute, schema: { tags, params: ZIdParams, response: { 200: ZInvoice } } },
    (request) => getInvoice(ctx, request.auth.companyId, request.params.id),
  );
  app.post(
    '/invoices/:id/cancel',
    { config: adminRoute, schema: { tags, params: ZIdParams, response: { 200: ZInvoice } } },
    (request) => cancelInvoice(ctx, request.auth.companyId, request.params.id),
  );
  app.post(
    '/invoices/:id/pay',
    { config: superRoute, schema: { tags, params: ZIdParams, response: { 200: ZPaymentResult } } },
    (request) => markInvoicePaid(ctx, request.params.id),
  );
  app.post(
    '/subscription',
    { config: adminRoute, schema: { tags, body: ZSubscribeBody, response: { 200: ZSubscribeResponse } } },
    (request) => subscribe(ctx, request.auth, request.body),
  );
  app.post(
    '/billing/webhooks/asaas',
    {
      config: publicRoute,
      schema: {
        tags,
        security: [],
        body: ZAsaasEvent,
        response: { 200: z.object({ received: z.literal(true), applied: z.boolean() }) },
      },
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
