import {
  type AdminInvoice,
  type BillingProfile,
  CANCELLED_SUFFIX,
  FREE_TRIAL_PLAN_NAME,
  INVOICES_PAGE_SIZE,
  type Invoice,
  type InvoiceCopyBody,
  type InvoiceStatus,
  type PaymentEvent,
  type PaymentResult,
  PENDING_INVOICE_LIMIT,
  parsePatch,
  planPrice,
  type SubscribeBody,
  type SubscribeResponse,
  ZBillingProfile,
  ZInvoiceCopyBody,
  ZSubscribeBody,
} from '@zapdesk/shared';
import { isValid, parseISO } from 'date-fns';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { billingProfiles, companies, invoicePayments, invoices, plans } from '../../db/schema/index.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthContext } from '../../lib/guards.js';
import { containsTerm, type SearchPageQuery } from '../../lib/search-page.js';
import { asaasDriver } from './asaas-driver.js';
import { cancelCrmInvoice } from './crm.js';
import { type BillingDriver, manualDriver } from './providers.js';

type InvoiceRow = typeof invoices.$inferSelect;

/** Row -> API shape (dates as ISO strings). */
export function toInvoice(row: InvoiceRow): Invoice {
  return {
    id: row.id,
    companyId: row.companyId,
    planId: row.planId,
    detail: row.detail,
    value: row.value,
    dueDate: row.dueDate.toISOString(),
    status: row.status,
    period: row.period,
    provider: row.provider,
    pixCode: row.pixCode,
    paymentLink: row.paymentLink,
    paidAt: row.paidAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The driver charging new invoices: BILLING_PROVIDER 'asaas', else manual (the CRM has its own flow). */
export function billingDriver(ctx: AppContext): BillingDriver {
  return ctx.config.BILLING_PROVIDER === 'asaas' ? asaasDriver : manualDriver;
}

/**
 * GET /invoices/all (document 3 section 7): the caller company's invoices, newest first, 20 a
 * page, filtered by `searchParam` on the detail.
 */
export async function listInvoices(
  ctx: AppContext,
  companyId: number,
  query: SearchPageQuery,
): Promise<Invoice[]> {
  const rows = await ctx.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.companyId, companyId), containsTerm(query.searchParam, invoices.detail)))
    .orderBy(desc(invoices.id))
    .limit(INVOICES_PAGE_SIZE)
    .offset((query.pageNumber - 1) * INVOICES_PAGE_SIZE);
  return rows.map(toInvoice);
}

/** One invoice of the company. @throws ERR_NO_INVOICE_FOUND (also for another company's id). */
export async function getInvoice(ctx: AppContext, companyId: number, id: number): Promise<Invoice> {
  const [row] = await ctx.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, id), eq(invoices.companyId, companyId)));
  if (!row) throw new AppError('ERR_NO_INVOICE_FOUND');
  return toInvoice(row);
}

/**
 * GET /invoices/admin (super user): every company's invoices of a status (open by default),
 * newest first, with the company name.
 */
export async function listAllInvoices(
  ctx: AppContext,
  query: { status: InvoiceStatus; pageNumber: number },
): Promise<AdminInvoice[]> {
  const rows = await ctx.db
    .select({ invoice: invoices, companyName: companies.name })
    .from(invoices)
    .innerJoin(companies, eq(companies.id, invoices.companyId))
    .where(eq(invoices.status, query.status))
    .orderBy(desc(invoices.id))
    .limit(INVOICES_PAGE_SIZE)
    .offset((query.pageNumber - 1) * INVOICES_PAGE_SIZE);
  return rows.map((r) => ({ ...toInvoice(r.invoice), companyName: r.companyName }));
}

/** The company's billing profile, or null when never saved. */
export async function getBillingProfile(ctx: AppContext, companyId: number): Promise<BillingProfile | null> {
  const [row] = await ctx.db.select().from(billingProfiles).where(eq(billingProfiles.companyId, companyId));
  if (!row) return null;
  return {
    name: row.name,
    email: row.email,
    phone: row.phone,
    cnpjCpf: row.cnpjCpf,
    address: row.address,
    city: row.city,
    state: row.state,
    zipcode: row.zipcode,
    country: row.country as BillingProfile['country'],
  };
}

/**
 * PUT /billing/profile: saves the fields given; the first save needs them all (document 3
 * section 5: every field required, CPF/CNPJ check digits). @throws ERR_VALIDATION.
 */
export async function updateBillingProfile(
  ctx: AppContext,
  companyId: number,
  input: unknown,
): Promise<BillingProfile> {
  const current = await getBillingProfile(ctx, companyId);
  const next = current
    ? ZBillingProfile.parse({ ...current, ...parsePatch(ZBillingProfile, input) })
    : ZBillingProfile.parse(input);
  await ctx.db
    .insert(billingProfiles)
    .values({ companyId, ...next })
    .onConflictDoUpdate({ target: billingProfiles.companyId, set: { ...next, updatedAt: sql`now()` } });
  return next;
}

/** The detail of a plan invoice: plan name, plan id and period (document 3 section 3). */
const invoiceDetail = (plan: { id: number; name: string }, period: string) =>
  `${plan.name} #${plan.id} ${period}`;

/**
 * POST /subscription (document 3 sections 4 and 7, checkout): charges an open invoice of the
 * company (`invoiceId`) or a new invoice of a plan and period priced by the server (annual 12 ×
 * monthly × 0.8). An open invoice of the same plan and period is reused. Answers the Pix data.
 * When the payment provider fails, an invoice this call created is deleted again (an existing one
 * is kept as it was) and the provider's error is thrown.
 * @throws ERR_NO_PLAN_FOUND (unknown or free-trial plan), ERR_NO_INVOICE_FOUND,
 *   ERR_INVOICE_NOT_OPEN, ERR_PENDING_INVOICE (two or more open invoices), ERR_PIX_KEY_NOT_SET,
 *   ERR_PAYMENT_PROVIDER.
 */
export async function subscribe(
  ctx: AppContext,
  auth: AuthContext,
  input: SubscribeBody,
): Promise<SubscribeResponse> {
  const body = ZSubscribeBody.parse(input);
  const companyId = auth.companyId;
  let row: InvoiceRow | undefined;
  // An invoice this call created is removed again when its charge fails (no open invoice left behind).
  let created = false;
  if (body.invoiceId !== undefined) {
    [row] = await ctx.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.id, body.invoiceId), eq(invoices.companyId, companyId)));
    if (!row) throw new AppError('ERR_NO_INVOICE_FOUND');
    if (row.status !== 'open') throw new AppError('ERR_INVOICE_NOT_OPEN');
  } else {
    const [plan] = await ctx.db.select().from(plans).where(eq(plans.id, body.planId!));
    if (!plan || plan.name === FREE_TRIAL_PLAN_NAME) throw new AppError('ERR_NO_PLAN_FOUND');
    const detail = invoiceDetail(plan, body.period);
    const open = await ctx.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.companyId, companyId), eq(invoices.status, 'open')));
    row = open.find((i) => i.detail === detail && i.planId === plan.id);
    if (!row && open.length >= PENDING_INVOICE_LIMIT) {
      throw new AppError('ERR_PENDING_INVOICE', {
        extra: { message: 'Você não pode prosseguir. Verifique suas faturas.' },
      });
    }
    if (!row) {
      const [company] = await ctx.db
        .select({ dueDate: companies.dueDate })
        .from(companies)
        .where(eq(companies.id, companyId));
      const now = new Date();
      const dueDate = company?.dueDate && company.dueDate > now ? company.dueDate : now;
      [row] = await ctx.db
        .insert(invoices)
        .values({
          companyId,
          planId: plan.id,
          detail,
          value: planPrice(plan.value, body.period),
          dueDate,
          period: body.period,
          provider: billingDriver(ctx).name,
        })
        .returning();
      created = true;
    }
  }
  const invoice = row!;
  if (!invoice.pixCode && !invoice.paymentLink) {
    const driver = billingDriver(ctx);
    const profile = await ctx.db
      .select()
      .from(billingProfiles)
      .where(eq(billingProfiles.companyId, companyId));
    let charge: Awaited<ReturnType<typeof driver.charge>>;
    try {
      charge = await driver.charge(ctx, {
        invoiceId: invoice.id,
        companyId,
        detail: invoice.detail,
        value: invoice.value,
        dueDate: invoice.dueDate,
        customer: profile[0] ?? null,
      });
    } catch (error) {
      if (created) {
        await ctx.db
          .delete(invoices)
          .where(
            and(
              eq(invoices.id, invoice.id),
              eq(invoices.status, 'open'),
              sql`${invoices.providerChargeId} is null`,
            ),
          );
      }
      throw error;
    }
    const [updated] = await ctx.db
      .update(invoices)
      .set({
        provider: driver.name,
        providerChargeId: charge.providerChargeId,
        pixCode: charge.pixCode,
        paymentLink: charge.paymentLink,
        updatedAt: sql`now()`,
      })
      .where(eq(invoices.id, invoice.id))
      .returning();
    if (charge.providerCustomerId && profile[0]) {
      await ctx.db
        .update(billingProfiles)
        .set({ providerCustomerId: charge.providerCustomerId })
        .where(eq(billingProfiles.companyId, companyId));
    }
    Object.assign(invoice, updated);
  }
  return {
    invoice: toInvoice(invoice),
    qrcode: { qrcode: invoice.pixCode },
    valor: { original: invoice.value.toFixed(2) },
    paymentLink: invoice.paymentLink,
  };
}

/** A due date sent by a client: an ISO date or date-time between 2000 and 2100, else now. */
function clientDueDate(value: string | undefined): Date {
  const date = value ? parseISO(value) : null;
  if (!date || !isValid(date)) return new Date();
  const year = date.getUTCFullYear();
  return year >= 2000 && year <= 2100 ? date : new Date();
}

/**
 * POST /invoices (document 3 section 7): keeps the local copy of a plan invoice of the caller
 * company, priced by the server (annual 12 × monthly × 0.8). An open invoice of the same plan and
 * period is the copy already (POST /crm-create-invoice keeps one): it is answered again, so the
 * spec's client, which saves after creating, never adds a second open invoice.
 * @throws ERR_NO_PLAN_FOUND (unknown or free-trial plan), ERR_PENDING_INVOICE.
 */
export async function saveInvoiceCopy(
  ctx: AppContext,
  companyId: number,
  input: InvoiceCopyBody,
): Promise<Invoice> {
  const body = ZInvoiceCopyBody.parse(input);
  const id = body.planId ?? body.plan.id;
  const [plan] = await ctx.db
    .select()
    .from(plans)
    .where(id !== undefined ? eq(plans.id, id) : eq(plans.name, body.plan.name))
    .orderBy(plans.id)
    .limit(1);
  if (!plan || plan.name === FREE_TRIAL_PLAN_NAME) throw new AppError('ERR_NO_PLAN_FOUND');
  const annual = planPrice(plan.value, 'ANUAL');
  const period =
    body.period ??
    (body.plan.value !== undefined && Math.abs(body.plan.value - annual) < 0.005 ? 'ANUAL' : 'MENSAL');
  const detail = invoiceDetail(plan, period);
  const open = await ctx.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.companyId, companyId), eq(invoices.status, 'open')))
    .orderBy(desc(invoices.id));
  const same = open.find((i) => i.planId === plan.id && i.detail === detail);
  if (same) return toInvoice(same);
  if (open.length >= PENDING_INVOICE_LIMIT) throw new AppError('ERR_PENDING_INVOICE');
  const [row] = await ctx.db
    .insert(invoices)
    .values({
      companyId,
      planId: plan.id,
      detail,
      value: planPrice(plan.value, period),
      dueDate: clientDueDate(body.dueDate),
      period,
      provider: ctx.config.BILLING_PROVIDER === 'crm' ? 'crm' : billingDriver(ctx).name,
    })
    .returning();
  return toInvoice(row!);
}

/**
 * Cancels an open invoice of the company (document 3 section 4: the detail gets the suffix
 * CANCELADO). @throws ERR_NO_INVOICE_FOUND, ERR_INVOICE_NOT_OPEN.
 */
export async function cancelInvoice(ctx: AppContext, companyId: number, id: number): Promise<Invoice> {
  const [current] = await ctx.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, id), eq(invoices.companyId, companyId)));
  if (!current) throw new AppError('ERR_NO_INVOICE_FOUND');
  if (current.status !== 'open') throw new AppError('ERR_INVOICE_NOT_OPEN');
  // A CRM invoice is also deleted at the CRM.
  if (current.provider === 'crm') await cancelCrmInvoice(ctx, current);
  const [row] = await ctx.db
    .update(invoices)
    .set({
      status: 'cancelled',
      detail: sql`${invoices.detail} || ${` ${CANCELLED_SUFFIX}`}`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(invoices.id, id), eq(invoices.status, 'open')))
    .returning();
  if (row) return toInvoice(row);
  return getInvoice(ctx, companyId, id);
}

/** Months a paid invoice adds to the company's dueDate. */
const PERIOD_MONTHS = { MENSAL: 1, ANUAL: 12 } as const;

/**
 * THE place where a payment moves a company's dueDate, for every provider:
 * records the provider's payment id (unique per provider), marks the invoice paid and moves the
 * company's dueDate forward by the invoice period (1 or 12 months from the later of its dueDate
 * and now; a null dueDate stays null) and sets the company's plan and recurrence, in one
 * transaction with the invoice row locked. A replayed or concurrent call with the same payment
 * id, or a payment of an invoice that is no longer open, changes nothing (`applied: false`).
 * After commit the company's users get `company-{id}-payment` { action: 'CONCLUIDA' }.
 * @throws ERR_NO_INVOICE_FOUND for an unknown invoice.
 */
export async function confirmInvoicePayment(
  ctx: AppContext,
  input: { invoiceId: number; provider: string; providerPaymentId: string },
): Promise<PaymentResult> {
  const result = await ctx.db.transaction(async (tx) => {
    const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, input.invoiceId)).for('update');
    if (!invoice) throw new AppError('ERR_NO_INVOICE_FOUND');
    const recorded = await tx
      .insert(invoicePayments)
      .values({
        invoiceId: invoice.id,
        companyId: invoice.companyId,
        provider: input.provider,
        providerPaymentId: input.providerPaymentId,
      })
      .onConflictDoNothing()
      .returning({ id: invoicePayments.id });
    const [company] = await tx
      .select({ dueDate: companies.dueDate })
      .from(companies)
      .where(eq(companies.id, invoice.companyId))
      .for('update');
    if (recorded.length === 0 || invoice.status !== 'open') {
      return { invoice, applied: false, dueDate: company?.dueDate ?? null };
    }
    const months = PERIOD_MONTHS[invoice.period];
    const [moved] = await tx
      .update(companies)
      .set({
        dueDate: sql`case when ${companies.dueDate} is null then null
          else greatest(${companies.dueDate}, now()) + make_interval(months => ${months}::int) end`,
        planId: invoice.planId ?? sql`${companies.planId}`,
        recurrence: invoice.period,
        updatedAt: sql`now()`,
      })
      .where(eq(companies.id, invoice.companyId))
      .returning({ dueDate: companies.dueDate });
    const [paid] = await tx
      .update(invoices)
      .set({ status: 'paid', paidAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(invoices.id, invoice.id))
      .returning();
    await tx
      .update(invoicePayments)
      .set({ dueDateBefore: company?.dueDate ?? null, dueDateAfter: moved?.dueDate ?? null })
      .where(eq(invoicePayments.id, recorded[0]!.id));
    return { invoice: paid!, applied: true, dueDate: moved?.dueDate ?? null };
  });
  const companyDueDate = result.dueDate?.toISOString() ?? null;
  if (result.applied) {
    const event: PaymentEvent = {
      action: 'CONCLUIDA',
      invoiceId: result.invoice.id,
      company: { id: result.invoice.companyId, dueDate: companyDueDate },
    };
    ctx.realtime.toCompany(result.invoice.companyId, 'payment', { ...event });
  }
  return { invoice: toInvoice(result.invoice), applied: result.applied, companyDueDate };
}

/**
 * POST /invoices/:id/pay (super user, manual provider): confirms the payment of an invoice; the
 * payment id is 'manual:<invoiceId>', so a second confirmation changes nothing.
 */
export function markInvoicePaid(ctx: AppContext, invoiceId: number): Promise<PaymentResult> {
  return confirmInvoicePayment(ctx, {
    invoiceId,
    provider: 'manual',
    providerPaymentId: `manual:${invoiceId}`,
  });
}

/**
 * Asaas webhook (POST /billing/webhooks/asaas), already verified: PAYMENT_RECEIVED and
 * PAYMENT_CONFIRMED of a known charge confirm its invoice (idempotent by the Asaas payment id);
 * other events are ignored. @throws ERR_NO_INVOICE_FOUND for an unknown charge.
 */
export async function handleAsaasEvent(
  ctx: AppContext,
  event: { event: string; payment?: { id?: string } },
): Promise<{ received: true; applied: boolean }> {
  if (event.event !== 'PAYMENT_RECEIVED' && event.event !== 'PAYMENT_CONFIRMED') {
    return { received: true, applied: false };
  }
  const paymentId = event.payment?.id;
  if (!paymentId) throw new AppError('ERR_NO_INVOICE_FOUND');
  const [invoice] = await ctx.db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.provider, 'asaas'), eq(invoices.providerChargeId, paymentId)));
  if (!invoice) throw new AppError('ERR_NO_INVOICE_FOUND');
  const result = await confirmInvoicePayment(ctx, {
    invoiceId: invoice.id,
    provider: 'asaas',
    providerPaymentId: paymentId,
  });
  return { received: true, applied: result.applied };
}

/** Open invoices of a company (the plans page's pending check). */
export async function countOpenInvoices(ctx: AppContext, companyId: number): Promise<number> {
  const [row] = await ctx.db
    .select({ n: count() })
    .from(invoices)
    .where(and(eq(invoices.companyId, companyId), eq(invoices.status, 'open')));
  return row?.n ?? 0;
}
