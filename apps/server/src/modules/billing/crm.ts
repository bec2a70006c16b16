import { CANCELLED_SUFFIX } from '@zapdesk/shared';
import { and, desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext, ZodApp } from '../../context.js';
import { billingProfiles, invoices } from '../../db/schema/index.js';
import { AppError } from '../../lib/app-error.js';
import { adminRoute } from '../../lib/guards.js';
import {
  cancelCrmInvoice,
  changeCrmInvoicePlan,
  createCrmInvoice,
  ZCreateInvoiceBody,
} from './crm-invoices.js';
import {
  companyContext,
  customerForm,
  findOwnCustomer,
  keepCustomerId,
  perfex,
  refusal,
  refused,
  ZCustomerBody,
} from './crm-perfex.js';

export { cancelCrmInvoice };

/**
 * The plan and period a PUT /crm-update-invoice asks for: `planId`/`period` when given, else read
 * from the spec's `detail` ('<plan> #<id> MENSAL|ANUAL'); null when it names no plan.
 */
function askedPlan(data: { planId?: number; period?: 'MENSAL' | 'ANUAL'; detail?: string }) {
  const fromDetail = data.detail?.match(/#(\d{1,9})\b/)?.[1];
  const planId = data.planId ?? (fromDetail ? Number(fromDetail) : undefined);
  if (planId === undefined) return null;
  const period = data.period ?? (data.detail?.includes('ANUAL') ? 'ANUAL' : 'MENSAL');
  return { planId, period } as const;
}

const ZInvoiceNameQuery = z.object({ name: z.string().trim().min(1).max(200) });

/**
 * The spec's external-CRM calls (document 3 section 7, `{crm-prefix}` = '/crm'), served by Zapdesk
 * and forwarded to the configured Perfex CRM with the server's token (never sent to the browser).
 * Customers and invoices are always the caller company's: names and ids in requests that would
 * point elsewhere are ignored. The CRM customer is bound to the company by the id kept on its
 * billing profile, or found by the reference only Zapdesk writes for that company — never by name.
 * Prices come from the plan (12 × monthly × 0.8 annual). Each failure answers its own catalogue
 * code (ERR_CRM_*), carrying the CRM's text as bounded plain text where it gives one.
 */
export function crmRoutes(app: ZodApp, ctx: AppContext): void {
  const tags = ['crm'];
  app.get(
    '/crm-verify-customer',
    {
      config: adminRoute,
      schema: {
        tags,
        querystring: z.object({ name: z.string().max(200).optional() }),
        response: { 200: z.object({ exists: z.boolean(), id: z.string().nullable() }) },
      },
    },
    async (request) => {
      const company = await companyContext(ctx, request.auth.companyId);
      const id = company.customerId ?? (await findOwnCustomer(ctx, company));
      if (!id) throw new AppError('ERR_NOT_FOUND');
      return { exists: true, id };
    },
  );
  app.post(
    '/crm-create-customer',
    {
      config: adminRoute,
      schema: {
        tags,
        body: ZCustomerBody,
        response: { 200: z.object({ clientid: z.string(), warning: z.string().optional() }) },
      },
    },
    async (request) => {
      const company = await companyContext(ctx, request.auth.companyId);
      const created = await perfex<{ status?: boolean; message?: string }>(
        ctx,
        'ERR_CRM_VERIFY',
        'POST',
        '/customers',
        customerForm(company, request.body),
      );
      if (refused(created)) throw refusal('ERR_CRM_VERIFY', created.body);
      const id = await findOwnCustomer(ctx, company, 'ERR_CRM_CUSTOMER_ID');
      if (!id) throw new AppError('ERR_CRM_CUSTOMER_ID');
      await keepCustomerId(ctx, request.auth.companyId, id, request.body);
      return { clientid: id };
    },
  );
  app.put(
    '/crm-update-customer',
    {
      config: adminRoute,
      schema: {
        tags,
        body: ZCustomerBody.extend({ id: z.union([z.string().max(20), z.number().int().min(0)]).optional() }),
        response: { 200: z.object({ message: z.string(), warning: z.string().optional() }) },
      },
    },
    async (request) => {
      const company = await companyContext(ctx, request.auth.companyId);
      const id = company.customerId ?? (await findOwnCustomer(ctx, company));
      if (!id) throw new AppError('ERR_NOT_FOUND');
      const updated = await perfex<{ status?: boolean; message?: string }>(
        ctx,
        'ERR_CRM_VERIFY',
        'PUT',
        `/customers/${encodeURIComponent(id)}`,
        customerForm(company, request.body),
      );
      if (refused(updated)) throw refusal('ERR_CRM_VERIFY', updated.body);
      return { message: String(updated.body.message ?? 'ok') };
    },
  );
  app.post(
    '/crm-create-invoice',
    {
      config: adminRoute,
      schema: {
        tags,
        body: ZCreateInvoiceBody,
        response: {
          200: z.object({ message: z.string(), link: z.string().nullable(), invoiceId: z.number() }),
        },
      },
    },
    (request) => createCrmInvoice(ctx, request.auth.companyId, request.body),
  );
  app.put(
    '/crm-update-invoice',
    {
      config: adminRoute,
      schema: {
        tags,
        body: z.object({
          invoiceData: z.object({
            detail: z.string().trim().max(200).optional(),
            status: z.string().max(20).optional(),
            planId: z.number().int().positive().max(2_147_483_647).optional(),
            period: z.enum(['MENSAL', 'ANUAL']).optional(),
          }),
          companyInfo: z.looseObject({ billing_street: z.string().trim().max(200).optional() }).optional(),
        }),
        response: { 200: z.object({ message: z.string(), link: z.string().nullable() }) },
      },
    },
    async (request) => {
      const companyId = request.auth.companyId;
      const data = request.body.invoiceData;
      const [open] = await ctx.db
        .select()
        .from(invoices)
        .where(
          and(eq(invoices.companyId, companyId), eq(invoices.provider, 'crm'), eq(invoices.status, 'open')),
        )
        .orderBy(desc(invoices.id))
        .limit(1);
      if (!open) throw new AppError('ERR_NO_INVOICE_FOUND');
      if (data.detail?.endsWith(CANCELLED_SUFFIX)) {
        await cancelCrmInvoice(ctx, open);
        return { message: 'Sua assinatura foi cancelada com sucesso.', link: null };
      }
      const asked = askedPlan(data);
      if (!asked || (asked.planId === open.planId && asked.period === open.period)) {
        return { message: 'ok', link: open.paymentLink };
      }
      const [profile] = await ctx.db
        .select()
        .from(billingProfiles)
        .where(eq(billingProfiles.companyId, companyId));
      const changed = await changeCrmInvoicePlan(ctx, open, {
        ...asked,
        billing: {
          billing_street: request.body.companyInfo?.billing_street || profile?.address,
          billing_city: profile?.city,
          billing_state: profile?.state,
          billing_zip: profile?.zipcode,
          billing_country: profile?.country,
        },
      });
      return { message: changed.message, link: changed.link };
    },
  );
  app.get(
    '/crm-verify-invoice',
    {
      config: adminRoute,
      schema: {
        tags,
        querystring: ZInvoiceNameQuery,
        response: { 200: z.object({ exists: z.boolean(), link: z.string().nullable() }) },
      },
    },
    async (request) => {
      const [row] = await ctx.db
        .select({ link: invoices.paymentLink })
        .from(invoices)
        .where(
          and(
            eq(invoices.companyId, request.auth.companyId),
            eq(invoices.provider, 'crm'),
            eq(invoices.detail, request.query.name),
          ),
        );
      return { exists: row !== undefined, link: row?.link ?? null };
    },
  );
  app.delete(
    '/crm-delete-invoice',
    {
      config: adminRoute,
      schema: {
        tags,
        body: z.object({ name: z.string().trim().min(1).max(200), companyId: z.unknown().optional() }),
        response: { 200: z.object({ message: z.string() }) },
      },
    },
    async (request) => {
      const [row] = await ctx.db
        .select()
        .from(invoices)
        .where(
          and(
            eq(invoices.companyId, request.auth.companyId),
            eq(invoices.provider, 'crm'),
            eq(invoices.detail, request.body.name),
            eq(invoices.status, 'open'),
          ),
        );
      if (!row) throw new AppError('ERR_NO_INVOICE_FOUND');
      await cancelCrmInvoice(ctx, row);
      return { message: 'Fatura cancelada.' };
    },
  );
}
