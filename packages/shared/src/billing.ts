/**
 * The billing rules the web pages need before any form opens (document 3 sections 4 and 9):
 * constants, plan price and subscription state. No zod here, so a page that shows plans or
 * invoices loads no schema code (docs/web.md, "Web delivery"); the request and response
 * schemas are in schemas/billing.ts.
 */
import { FREE_TRIAL_PLAN_NAME } from './constants.js';

/** Annual discount of the plans page (document 3 section 9): annual = 12 × monthly × 0.8. */
export const ANNUAL_DISCOUNT = 0.2;
/** Subscribing is blocked when this many open invoices exist (document 3 sections 4 and 9). */
export const PENDING_INVOICE_LIMIT = 2;
/** After a paid Pix the checkout goes to / after this many ms (document 3 section 9). */
export const PAID_REDIRECT_MS = 4000;
/** Pix QR code size in px (document 3 section 9). */
export const PIX_QR_SIZE = 256;
/** Invoices per page of GET /invoices/all. */
export const INVOICES_PAGE_SIZE = 20;
/** Suffix added to the detail of a cancelled invoice (document 3 section 4). */
export const CANCELLED_SUFFIX = 'CANCELADO';

/** Billing period of a subscription: the invoice detail carries ANUAL or MENSAL. */
export const BILLING_PERIODS = ['MENSAL', 'ANUAL'] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];

/** Billing providers: chosen by BILLING_PROVIDER on the server. */
export const BILLING_PROVIDERS = ['manual', 'asaas', 'crm'] as const;
export type BillingProvider = (typeof BILLING_PROVIDERS)[number];

/** Price of a plan for a period in BRL, rounded to cents (annual: 12 × monthly × 0.8). */
export function planPrice(monthly: number, period: BillingPeriod): number {
  const raw = period === 'ANUAL' ? 12 * monthly * (1 - ANNUAL_DISCOUNT) : monthly;
  return Math.round(raw * 100) / 100;
}

/** Stored invoice state: 'expired' is derived (open and due before today). */
export const INVOICE_STATUSES = ['open', 'paid', 'cancelled'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/**
 * The invoice fields the rules below read, as schemas/billing.ts's Invoice carries them (declared
 * here so this file stays below the schemas and free of zod).
 */
interface InvoiceFacts {
  status: InvoiceStatus;
  /** ISO date or date-time. */
  dueDate: string;
  detail: string;
  planId: number | null;
  /** ISO date-time. */
  updatedAt: string;
}

/** What the invoices page shows: paid, open, or expired (open and due before today). */
export function invoiceDisplayStatus(
  invoice: Pick<InvoiceFacts, 'status' | 'dueDate'>,
  now: Date = new Date(),
): 'paid' | 'open' | 'expired' | 'cancelled' {
  if (invoice.status !== 'open') return invoice.status;
  const today = new Date(now);
  today.setHours(0, 0, 0, 0);
  return new Date(invoice.dueDate) < today ? 'expired' : 'open';
}

/** Free-trial invoices are hidden from the invoices page (document 3 section 9). */
export const isFreeTrialInvoice = (invoice: Pick<InvoiceFacts, 'detail'>) =>
  invoice.detail.toLowerCase().includes(FREE_TRIAL_PLAN_NAME.toLowerCase());

/**
 * Subscription state of the plans page (document 3 section 4): subscribed only with at least one
 * paid and one open invoice and the latest paid invoice (by updatedAt) on the company's plan; the
 * period is ANUAL when that invoice's detail says so. A plan mismatch is `inconsistent`.
 */
export function subscriptionState(
  invoices: Pick<InvoiceFacts, 'status' | 'planId' | 'detail' | 'updatedAt'>[],
  companyPlanId: number | null,
): { subscribed: boolean; period: BillingPeriod | null; inconsistent: boolean } {
  const paid = invoices
    .filter((i) => i.status === 'paid')
    .sort((x, y) => new Date(y.updatedAt).getTime() - new Date(x.updatedAt).getTime());
  const hasOpen = invoices.some((i) => i.status === 'open');
  const latest = paid[0];
  if (!latest || !hasOpen) return { subscribed: false, period: null, inconsistent: false };
  if (latest.planId !== companyPlanId) return { subscribed: false, period: null, inconsistent: true };
  return {
    subscribed: true,
    period: latest.detail.includes('ANUAL') ? 'ANUAL' : 'MENSAL',
    inconsistent: false,
  };
}

/** Longest text of a payment provider or CRM that an error answer carries. */
export const PROVIDER_MESSAGE_MAX = 300;

/**
 * A payment provider's or CRM's message as safe plain text: HTML tags and entities removed,
 * control characters and runs of white space collapsed, at most PROVIDER_MESSAGE_MAX characters
 * ('' for anything that is not a string or number).
 */
export function providerMessage(raw: unknown): string {
  if (typeof raw !== 'string' && typeof raw !== 'number') return '';
  const text = String(raw)
    .replace(/<[^>]*>?/g, ' ')
    .replace(/&(#\d+|#x[\da-f]+|[a-z]+);/gi, ' ')
    .replace(/[<>]/g, ' ')
    .replace(/\p{Cc}/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > PROVIDER_MESSAGE_MAX ? `${text.slice(0, PROVIDER_MESSAGE_MAX - 1)}…` : text;
}
