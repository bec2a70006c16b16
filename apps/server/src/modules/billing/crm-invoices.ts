/**
 * CRM invoices (Perfex): creating one for a plan and period with its local copy, changing the plan
 * or period of the open one in place, and cancelling. Prices always come from the plan.
 */
import crypto from 'node:crypto';
import { CANCELLED_SUFFIX, FREE_TRIAL_PLAN_NAME, PENDING_INVOICE_LIMIT, planPrice } from '@zapdesk/shared';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { invoices, plans } from '../../db/schema/index.js';
import { AppError } from '../../lib/app-error.js';
import {
  COUNTRY_IDS,
  companyContext,
  crmBase,
  findOwnCustomer,
  perfex,
  refusal,
  refused,
} from './crm-perfex.js';

type InvoiceRow = typeof invoices.$inferSelect;
type Plan = typeof plans.$inferSelect;
type Period = 'MENSAL' | 'ANUAL';

const BILLING_FIELDS = [
  'billing_street',
  'billing_city',
  'billing_state',
  'billing_zip',
  'billing_country',
] as const;
type Billing = Record<(typeof BILLING_FIELDS)[number], string>;

/** POST /crm-create-invoice body: the plan and period (priced by the server) and the billing address. */
export const ZCreateInvoiceBody = z.object({
  planId: z.number().int().positive().max(2_147_483_647),
  period: z.enum(['MENSAL', 'ANUAL']).optional().default('MENSAL'),
  clientid: z.union([z.string().max(20), z.number().int().min(0).max(2_147_483_647)]).optional(),
  billing_street: z.string().trim().max(200).optional(),
  billing_city: z.string().trim().max(100).optional(),
  billing_state: z.string().trim().max(50).optional(),
  billing_zip: z.string().trim().max(10).optional(),
  billing_country: z.string().trim().max(10).optional(),
});
export type CreateInvoiceBody = z.input<typeof ZCreateInvoiceBody>;

/** The detail of a plan invoice: plan name, plan id and period (document 3 section 3). */
const detailOf = (plan: Plan, period: Period) => `${plan.name} #${plan.id} ${period}`;

/** Every billing field filled, or ERR_VALIDATION naming the first missing one. */
function requireBilling(body: Partial<Record<keyof Billing, string | null | undefined>>): Billing {
  const billing = {} as Billing;
  for (const field of BILLING_FIELDS) {
    const value = body[field];
    if (!value) throw new AppError('ERR_VALIDATION', { extra: { field, message: 'required' } });
    billing[field] = value;
  }
  // Only the billing fields: nothing else of the body (a client id, a price) reaches the CRM form.
  return billing;
}

/** A plan that may be invoiced (not the free trial). @throws ERR_NO_PLAN_FOUND. */
async function invoicedPlan(ctx: AppContext, planId: number): Promise<Plan> {
  const [plan] = await ctx.db.select().from(plans).where(eq(plans.id, planId));
  if (!plan || plan.name === FREE_TRIAL_PLAN_NAME) throw new AppError('ERR_NO_PLAN_FOUND');
  return plan;
}

/** The Perfex invoice form of a plan and period (document 3 section 7, create-invoice). */
function invoiceForm(input: {
  customerId: string;
  number: string;
  plan: Plan;
  period: Period;
  billing: Billing;
  companyName: string;
}): URLSearchParams {
  const value = planPrice(input.plan.value, input.period).toFixed(2);
  const today = new Date().toISOString().slice(0, 10);
  const form = new URLSearchParams({
    clientid: input.customerId,
    number: input.number,
    formatted_number: `BOT-${input.number}`,
    prefix: 'BOT-',
    date: today,
    duedate: today,
    currency: '3',
    'newitems[0][description]': `${input.plan.name} ${input.period}`,
    'newitems[0][qty]': '1',
    'newitems[0][rate]': value,
    recurring: input.period === 'ANUAL' ? '12' : '1',
    subtotal: value,
    total: value,
    ...input.billing,
    billing_country: COUNTRY_IDS[input.billing.billing_country] ?? input.billing.billing_country,
    clientnote: input.companyName,
    tags: 'zapdesk',
  });
  for (const [i, mode] of ['connect_inter', 'connect_inter_pix', 'mercadopago', 'stripe'].entries()) {
    form.set(`allowed_payment_modes[${i}]`, mode);
  }
  return form;
}

/** The payment page of a CRM invoice: `<CRM_URL>/invoice/<id>/<hash>` (null without a hash). */
const paymentLink = (ctx: AppContext, id: string | number | undefined, hash: string | undefined) =>
  id !== undefined && hash ? `${crmBase(ctx)}/invoice/${id}/${hash}` : null;

/**
 * Creates the invoice at the CRM and reads its id and payment link back (Perfex answers no id on
 * create). @throws ERR_CRM_CREATE_INVOICE (refused, with the CRM's text), ERR_CRM_INVOICE_API.
 */
async function postCrmInvoice(
  ctx: AppContext,
  input: Omit<Parameters<typeof invoiceForm>[0], 'number'>,
): Promise<{ chargeId: string; link: string | null; message: string }> {
  const number = String(crypto.randomInt(1_000_000_000, 10_000_000_000));
  const created = await perfex<{ status?: boolean; message?: string }>(
    ctx,
    'ERR_CRM_INVOICE_API',
    'POST',
    '/invoices',
    invoiceForm({ ...input, number }),
  );
  if (refused(created)) throw refusal('ERR_CRM_CREATE_INVOICE', created.body);
  const found = await perfex<{ id?: string | number; hash?: string; number?: string }[] | object>(
    ctx,
    'ERR_CRM_INVOICE_API',
    'GET',
    `/invoices/search/${encodeURIComponent(number)}`,
  );
  const crmInvoice = Array.isArray(found.body)
    ? found.body.find((i) => String(i.number) === number)
    : undefined;
  return {
    chargeId: crmInvoice?.id !== undefined ? String(crmInvoice.id) : `BOT-${number}`,
    link: paymentLink(ctx, crmInvoice?.id, crmInvoice?.hash),
    message: String(created.body.message ?? 'ok'),
  };
}

/** The company's CRM customer id (kept or found by Zapdesk's reference). @throws ERR_VALIDATION. */
async function customerOf(ctx: AppContext, companyId: number) {
  const company = await companyContext(ctx, companyId);
  const customerId = company.customerId ?? (await findOwnCustomer(ctx, company));
  if (!customerId) {
    throw new AppError('ERR_VALIDATION', { extra: { field: 'clientid', message: 'required' } });
  }
  return { company, customerId };
}

/**
 * Creates a CRM invoice of the company for a plan and period (price from the plan), keeps its local
 * copy and answers the payment link. @throws ERR_VALIDATION (missing customer or billing field),
 * ERR_NO_PLAN_FOUND, ERR_PENDING_INVOICE, ERR_CRM_CREATE_INVOICE, ERR_CRM_INVOICE_API,
 * ERR_CRM_INVOICE_NOT_SAVED (created at the CRM, local copy failed; carries `link`).
 */
export async function createCrmInvoice(
  ctx: AppContext,
  companyId: number,
  input: CreateInvoiceBody,
): Promise<{ message: string; link: string | null; invoiceId: number }> {
  const body = ZCreateInvoiceBody.parse(input);
  const { company, customerId } = await customerOf(ctx, companyId);
  const billing = requireBilling(body);
  const plan = await invoicedPlan(ctx, body.planId);
  const open = await ctx.db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.companyId, companyId), eq(invoices.status, 'open')));
  if (open.length >= PENDING_INVOICE_LIMIT) throw new AppError('ERR_PENDING_INVOICE');
  const charge = await postCrmInvoice(ctx, {
    customerId,
    plan,
    period: body.period,
    billing,
    companyName: company.name,
  });
  try {
    const [row] = await ctx.db
      .insert(invoices)
      .values({
        companyId,
        planId: plan.id,
        detail: detailOf(plan, body.period),
        value: planPrice(plan.value, body.period),
        dueDate: new Date(),
        period: body.period,
        provider: 'crm',
        providerChargeId: charge.chargeId,
        paymentLink: charge.link,
      })
      .returning({ id: invoices.id });
    return { message: charge.message, link: charge.link, invoiceId: row!.id };
  } catch (error) {
    ctx.log.error({ err: error, companyId, chargeId: charge.chargeId }, 'crm invoice not saved locally');
    throw new AppError('ERR_CRM_INVOICE_NOT_SAVED', { extra: { link: charge.link } });
  }
}

/**
 * Changes the plan or period of the company's open CRM invoice in place (document 3 section 7,
 * update-invoice): the same CRM invoice gets the new item, price and recurrence (its old items
 * removed) and keeps its number and payment link; the local copy keeps its id and gets the new
 * plan, detail, value and period. An invoice the CRM no longer has is created again there.
 * @throws ERR_NO_PLAN_FOUND, ERR_VALIDATION (billing field), ERR_CRM_UPDATE_INVOICE (refused, with
 *   the CRM's text), ERR_CRM_CREATE_INVOICE, ERR_CRM_INVOICE_API, ERR_INVOICE_NOT_OPEN (paid or
 *   cancelled meanwhile).
 */
export async function changeCrmInvoicePlan(
  ctx: AppContext,
  open: InvoiceRow,
  input: { planId: number; period: Period; billing: Partial<Record<keyof Billing, string | null>> },
): Promise<{ message: string; link: string | null; invoiceId: number }> {
  const plan = await invoicedPlan(ctx, input.planId);
  const billing = requireBilling(input.billing);
  const { company, customerId } = await customerOf(ctx, open.companyId);
  const form = { customerId, plan, period: input.period, billing, companyName: company.name };
  let charge: { chargeId: string; link: string | null; message: string } | null = null;
  if (open.providerChargeId && /^\d+$/.test(open.providerChargeId)) {
    const path = `/invoices/${open.providerChargeId}`;
    const current = await perfex<{
      number?: string | number;
      hash?: string;
      items?: { id?: string | number }[];
    }>(ctx, 'ERR_CRM_INVOICE_API', 'GET', path);
    if (current.status === 200 && current.body?.number !== undefined) {
      const update = invoiceForm({ ...form, number: String(current.body.number) });
      // The number keeps its CRM formatting; only the item, price and recurrence change.
      update.delete('formatted_number');
      for (const [i, item] of (current.body.items ?? []).entries()) {
        if (item.id !== undefined) update.set(`removed_items[${i}]`, String(item.id));
      }
      const updated = await perfex<{ status?: boolean; message?: string }>(
        ctx,
        'ERR_CRM_INVOICE_API',
        'PUT',
        path,
        update,
      );
      if (refused(updated)) throw refusal('ERR_CRM_UPDATE_INVOICE', updated.body);
      charge = {
        chargeId: open.providerChargeId,
        link: paymentLink(ctx, open.providerChargeId, current.body.hash) ?? open.paymentLink,
        message: String(updated.body.message ?? 'ok'),
      };
    }
  }
  charge ??= await postCrmInvoice(ctx, form);
  const [row] = await ctx.db
    .update(invoices)
    .set({
      planId: plan.id,
      detail: detailOf(plan, input.period),
      value: planPrice(plan.value, input.period),
      period: input.period,
      providerChargeId: charge.chargeId,
      paymentLink: charge.link,
      updatedAt: sql`now()`,
    })
    .where(and(eq(invoices.id, open.id), eq(invoices.status, 'open')))
    .returning({ id: invoices.id });
  if (!row) throw new AppError('ERR_INVOICE_NOT_OPEN');
  return { message: charge.message, link: charge.link, invoiceId: row.id };
}

/** Deletes the invoice at the CRM and marks the local copy cancelled (detail + ' CANCELADO'). */
export async function cancelCrmInvoice(ctx: AppContext, row: InvoiceRow): Promise<void> {
  if (row.providerChargeId && /^\d+$/.test(row.providerChargeId)) {
    await perfex(ctx, 'ERR_CRM_INVOICE_API', 'DELETE', `/invoices/${row.providerChargeId}`);
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
