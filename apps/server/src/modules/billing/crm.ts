import crypto from 'node:crypto';
import {
  CANCELLED_SUFFIX,
  FREE_TRIAL_PLAN_NAME,
  onlyDigits,
  PENDING_INVOICE_LIMIT,
  planPrice,
} from '@zapdesk/shared';
import { and, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext, ZodApp } from '../../context.js';
import { billingProfiles, companies, invoices, plans } from '../../db/schema/index.js';
import { AppError } from '../../lib/app-error.js';
import { adminRoute } from '../../lib/guards.js';

/** A call to the Perfex CRM REST API: `authtoken` header, form-encoded body, 10 s timeout. */
async function perfex<T>(
  ctx: AppContext,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  form?: URLSearchParams,
): Promise<{ status: number; body: T }> {
  const base = ctx.config.CRM_URL;
  const token = ctx.config.CRM_TOKEN;
  // Without a configured CRM the calls do not exist for the client (404), never a server error.
  if (!base || !token) throw new AppError('ERR_NOT_FOUND');
  let response: Response;
  try {
    response = await fetch(`${base.replace(/\/+$/, '')}/api${path}`, {
      method,
      headers: {
        authtoken: token,
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form?.toString(),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    ctx.log.warn({ err: error }, 'crm unreachable');
    throw new AppError('ERR_PAYMENT_PROVIDER', { extra: { message: 'CRM unreachable' } });
  }
  const body = (await response.json().catch(() => ({}))) as T;
  if (response.status >= 500) {
    throw new AppError('ERR_PAYMENT_PROVIDER', { extra: { message: `CRM answered ${response.status}` } });
  }
  return { status: response.status, body };
}

/**
 * The reference Zapdesk writes in the `website` field of the CRM customer it creates for a company:
 * built from the company id and creation instant, never from anything a client sends, so a customer
 * found with it is that company's own (names are not unique; signup is public).
 */
function customerReference(company: { id: number; createdAt: Date }): string {
  return `zapdesk:company:${company.id}:${company.createdAt.getTime().toString(36)}`;
}

/**
 * The CRM customer id of the customer Zapdesk created for the company: Perfex's search by the
 * company's name, keeping only the customer whose `website` holds the company's reference.
 * A customer that merely shares the name is never returned. Null when none.
 */
async function findOwnCustomer(
  ctx: AppContext,
  company: { id: number; name: string; createdAt: Date },
): Promise<string | null> {
  const { status, body } = await perfex<{ userid?: string | number; website?: string }[] | object>(
    ctx,
    'GET',
    `/customers/search/${encodeURIComponent(company.name)}`,
  );
  if (status !== 200 || !Array.isArray(body)) return null;
  const reference = customerReference(company);
  const match = body.find((c) => c.website === reference);
  return match?.userid !== undefined ? String(match.userid) : null;
}

const ZCustomerBody = z.object({
  name: z.string().trim().min(1).max(120),
  email: z.string().trim().max(254).optional().default(''),
  phone: z.string().trim().max(20).optional().default(''),
  vat: z.string().trim().max(20).optional().default(''),
  address: z.string().trim().max(200).optional().default(''),
  city: z.string().trim().max(100).optional().default(''),
  state: z.string().trim().max(50).optional().default(''),
  zip: z.string().trim().max(10).optional().default(''),
  country: z.string().trim().max(10).optional().default('BR'),
});

/** Perfex country ids of the spec's two options (BR, usa). */
const COUNTRY_IDS: Record<string, string> = { BR: '32', usa: '236' };

function customerForm(
  company: { id: number; name: string; createdAt: Date },
  body: z.infer<typeof ZCustomerBody>,
): URLSearchParams {
  return new URLSearchParams({
    company: company.name,
    website: customerReference(company),
    vat: onlyDigits(body.vat),
    phonenumber: body.phone,
    address: body.address,
    city: body.city,
    state: body.state,
    zip: body.zip,
    country: COUNTRY_IDS[body.country] ?? '0',
    billing_street: body.address,
    billing_city: body.city,
    billing_state: body.state,
    billing_zip: body.zip,
    billing_country: COUNTRY_IDS[body.country] ?? '0',
  });
}

/** The caller company's id, name, creation instant and the CRM customer id kept for it. */
async function companyContext(ctx: AppContext, companyId: number) {
  const [row] = await ctx.db
    .select({
      id: companies.id,
      name: companies.name,
      createdAt: companies.createdAt,
      customerId: billingProfiles.providerCustomerId,
    })
    .from(companies)
    .leftJoin(billingProfiles, eq(billingProfiles.companyId, companies.id))
    .where(eq(companies.id, companyId));
  if (!row) throw new AppError('ERR_NO_COMPANY_FOUND');
  return row;
}

/**
 * Binds the CRM customer id to the company (its billing profile; created from the customer body
 * when the company has none yet, so the binding is never lost).
 */
async function keepCustomerId(
  ctx: AppContext,
  companyId: number,
  id: string,
  body: z.infer<typeof ZCustomerBody>,
) {
  await ctx.db
    .insert(billingProfiles)
    .values({
      companyId,
      name: body.name,
      email: body.email,
      phone: body.phone,
      cnpjCpf: onlyDigits(body.vat),
      address: body.address,
      city: body.city,
      state: body.state,
      zipcode: body.zip,
      country: body.country,
      providerCustomerId: id,
    })
    .onConflictDoUpdate({
      target: billingProfiles.companyId,
      set: { providerCustomerId: id, updatedAt: sql`now()` },
    });
}

const ZCreateInvoiceBody = z.object({
  planId: z.number().int().positive().max(2_147_483_647),
  period: z.enum(['MENSAL', 'ANUAL']).optional().default('MENSAL'),
  clientid: z.union([z.string().max(20), z.number().int().min(0).max(2_147_483_647)]).optional(),
  billing_street: z.string().trim().max(200).optional(),
  billing_city: z.string().trim().max(100).optional(),
  billing_state: z.string().trim().max(50).optional(),
  billing_zip: z.string().trim().max(10).optional(),
  billing_country: z.string().trim().max(10).optional(),
});

/**
 * Creates a CRM invoice of the company for a plan and period (price from the plan), keeps its local
 * copy and answers the payment link. @throws ERR_VALIDATION (missing customer or billing field),
 * ERR_NO_PLAN_FOUND, ERR_PENDING_INVOICE, ERR_PAYMENT_PROVIDER.
 */
async function createCrmInvoice(
  ctx: AppContext,
  companyId: number,
  body: z.infer<typeof ZCreateInvoiceBody>,
  options: { ignorePending?: boolean } = {},
): Promise<{ message: string; link: string | null; invoiceId: number }> {
  const company = await companyContext(ctx, companyId);
  const customerId = company.customerId ?? (await findOwnCustomer(ctx, company));
  if (!customerId) {
    throw new AppError('ERR_VALIDATION', { extra: { field: 'clientid', message: 'required' } });
  }
  for (const field of [
    'billing_street',
    'billing_city',
    'billing_state',
    'billing_zip',
    'billing_country',
  ] as const) {
    if (!body[field]) throw new AppError('ERR_VALIDATION', { extra: { field, message: 'required' } });
  }
  const [plan] = await ctx.db.select().from(plans).where(eq(plans.id, body.planId));
  if (!plan || plan.name === FREE_TRIAL_PLAN_NAME) throw new AppError('ERR_NO_PLAN_FOUND');
  const open = await ctx.db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.companyId, companyId), eq(invoices.status, 'open')));
  if (!options.ignorePending && open.length >= PENDING_INVOICE_LIMIT)
    throw new AppError('ERR_PENDING_INVOICE');
  const value = planPrice(plan.value, body.period);
  const number = String(crypto.randomInt(1_000_000_000, 10_000_000_000));
  const today = new Date().toISOString().slice(0, 10);
  const form = new URLSearchParams({
    clientid: customerId,
    number,
    formatted_number: `BOT-${number}`,
    prefix: 'BOT-',
    date: today,
    duedate: today,
    currency: '3',
    'newitems[0][description]': `${plan.name} ${body.period}`,
    'newitems[0][qty]': '1',
    'newitems[0][rate]': value.toFixed(2),
    recurring: body.period === 'ANUAL' ? '12' : '1',
    subtotal: value.toFixed(2),
    total: value.toFixed(2),
    billing_street: body.billing_street!,
    billing_city: body.billing_city!,
    billing_state: body.billing_state!,
    billing_zip: body.billing_zip!,
    billing_country: COUNTRY_IDS[body.billing_country!] ?? body.billing_country!,
    clientnote: company.name,
    tags: 'zapdesk',
  });
  for (const [i, mode] of ['connect_inter', 'connect_inter_pix', 'mercadopago', 'stripe'].entries()) {
    form.set(`allowed_payment_modes[${i}]`, mode);
  }
  const created = await perfex<{ status?: boolean; message?: string }>(ctx, 'POST', '/invoices', form);
  if (created.status >= 400 || created.body.status === false) {
    throw new AppError('ERR_PAYMENT_PROVIDER', {
      extra: { message: String(created.body.message ?? 'CRM refused') },
    });
  }
  const found = await perfex<{ id?: string | number; hash?: string; number?: string }[] | object>(
    ctx,
    'GET',
    `/invoices/search/${encodeURIComponent(number)}`,
  );
  const crmInvoice = Array.isArray(found.body)
    ? found.body.find((i) => String(i.number) === number)
    : undefined;
  const base = ctx.config.CRM_URL!.replace(/\/+$/, '');
  const link = crmInvoice?.hash ? `${base}/invoice/${crmInvoice.id}/${crmInvoice.hash}` : null;
  const [row] = await ctx.db
    .insert(invoices)
    .values({
      companyId,
      planId: plan.id,
      detail: `${plan.name} #${plan.id} ${body.period}`,
      value,
      dueDate: new Date(),
      period: body.period,
      provider: 'crm',
      providerChargeId: crmInvoice?.id !== undefined ? String(crmInvoice.id) : `BOT-${number}`,
      paymentLink: link,
    })
    .returning({ id: invoices.id });
  return { message: String(created.body.message ?? 'ok'), link, invoiceId: row!.id };
}

/** Deletes the invoice at the CRM and marks the local copy cancelled (detail + ' CANCELADO'). */
export async function cancelCrmInvoice(ctx: AppContext, row: typeof invoices.$inferSelect): Promise<void> {
  if (row.providerChargeId && /^\d+$/.test(row.providerChargeId)) {
    await perfex(ctx, 'DELETE', `/invoices/${row.providerChargeId}`);
  }
  await ctx.db
    .update(invoices)
    .set({
      status: 'cancelled',
      detail: sql`${invoices.detail} || ${` ${CANCELLED_SUFFIX}`}`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(invoices.id, row.id), eq(invoices.status, 'open')));
}

const ZInvoiceNameQuery = z.object({ name: z.string().trim().min(1).max(200) });

/**
 * The spec's external-CRM calls (document 3 section 7, `{crm-prefix}` = '/crm'), served by Zapdesk
 * and forwarded to the configured Perfex CRM with the server's token (never sent to the browser).
 * Customers and invoices are always the caller company's: names and ids in requests that would
 * point elsewhere are ignored. The CRM customer is bound to the company by the id kept on its
 * billing profile, or found by the reference only Zapdesk writes for that company — never by name. Prices come from the plan (12 × monthly × 0.8 annual).
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
        'POST',
        '/customers',
        customerForm(company, request.body),
      );
      if (created.status >= 400 || created.body.status === false) {
        throw new AppError('ERR_PAYMENT_PROVIDER', {
          extra: { message: String(created.body.message ?? 'CRM refused') },
        });
      }
      const id = await findOwnCustomer(ctx, company);
      if (!id) {
        throw new AppError('ERR_PAYMENT_PROVIDER', {
          extra: { message: 'Falha ao obter ID do cliente no CRM após criação.' },
        });
      }
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
        'PUT',
        `/customers/${encodeURIComponent(id)}`,
        customerForm(company, request.body),
      );
      if (updated.status >= 400 || updated.body.status === false) {
        throw new AppError('ERR_PAYMENT_PROVIDER', {
          extra: { message: String(updated.body.message ?? 'CRM refused') },
        });
      }
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
      if (data.planId === undefined) return { message: 'ok', link: open.paymentLink };
      const [profile] = await ctx.db
        .select()
        .from(billingProfiles)
        .where(eq(billingProfiles.companyId, companyId));
      const created = await createCrmInvoice(
        ctx,
        companyId,
        {
          planId: data.planId,
          period: data.period ?? 'MENSAL',
          billing_street: request.body.companyInfo?.billing_street || profile?.address,
          billing_city: profile?.city,
          billing_state: profile?.state,
          billing_zip: profile?.zipcode,
          billing_country: profile?.country,
        },
        { ignorePending: true },
      );
      await cancelCrmInvoice(ctx, open);
      return { message: created.message, link: created.link };
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
