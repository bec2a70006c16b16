import { cnpj, cpf } from 'cpf-cnpj-validator';
import { z } from 'zod';
import { BILLING_PERIODS, BILLING_PROVIDERS, INVOICE_STATUSES } from '../billing.js';
import { BILLING_COUNTRIES, BILLING_FIELD_MAX } from '../user-billing-fields.js';
import { timestampFields } from './answers.js';
import { INT4_MAX, V, ZId } from './common.js';

/** Only the digits of a CPF/CNPJ, phone or CEP. */
export const onlyDigits = (value: string) => value.replace(/\D/g, '');

/**
 * CPF (11 digits) or CNPJ (14 digits) with valid check digits (document 3 section 5); all-identical
 * digits are refused. Punctuation is ignored.
 */
export function isValidCpfCnpj(value: string): boolean {
  const digits = onlyDigits(value);
  if (/^(\d)\1*$/.test(digits)) return false;
  if (digits.length === 11) return cpf.isValid(digits);
  if (digits.length === 14) return cnpj.isValid(digits);
  return false;
}

const required = (max: number) =>
  z.string({ error: V.required }).trim().min(1, V.required).max(max, V.tooLong);

/**
 * Billing profile of the plans page dialog (document 3 sections 3 and 5): every field required
 * ('Obrigatório'), phone up to 15 characters, CPF/CNPJ with check digits.
 */
export const ZBillingProfile = z.object({
  name: required(120),
  email: z.string().trim().email(V.invalidEmail).max(254, V.tooLong),
  phone: required(BILLING_FIELD_MAX.phone).refine((v) => onlyDigits(v).length >= 10, V.invalidPhone),
  cnpjCpf: required(BILLING_FIELD_MAX.cnpjCpf).refine(isValidCpfCnpj, V.invalid),
  address: required(BILLING_FIELD_MAX.address),
  city: required(BILLING_FIELD_MAX.city),
  state: required(BILLING_FIELD_MAX.state),
  zipcode: required(BILLING_FIELD_MAX.zipcode),
  country: z.enum(BILLING_COUNTRIES, { error: V.required }),
});

export type BillingProfile = z.infer<typeof ZBillingProfile>;

/** Invoice (document 3 section 3) with the provider's payment data. */
export const ZInvoice = z.object({
  id: z.number(),
  companyId: z.number(),
  planId: z.number().nullable(),
  detail: z.string(),
  value: z.number(),
  dueDate: z.string(),
  status: z.enum(INVOICE_STATUSES),
  period: z.enum(BILLING_PERIODS),
  provider: z.enum(BILLING_PROVIDERS),
  /** Pix 'copia e cola' BR Code, when the provider gives one. */
  pixCode: z.string().nullable(),
  /** Payment page of the provider (CRM, Asaas), when it gives one. */
  paymentLink: z.string().nullable(),
  paidAt: z.string().nullable(),
  ...timestampFields,
});
export type Invoice = z.infer<typeof ZInvoice>;

/** An invoice in the super user's list, with its company's name. */
export const ZAdminInvoice = ZInvoice.extend({ companyName: z.string() });
export type AdminInvoice = z.infer<typeof ZAdminInvoice>;

/**
 * POST /invoices (document 3 section 7): the local copy of a plan invoice, as the spec's client
 * sends it after creating the invoice at the CRM: the plan (name and value) and the dueDate.
 * `plan.id`/`planId` and `period` may name the plan and period directly; otherwise the plan is
 * found by name and the period read from the value (the annual price means ANUAL). The value is
 * the server's price, never the one sent. dueDate is an ISO date or date-time.
 */
export const ZInvoiceCopyBody = z.object({
  plan: z.object({
    id: ZId.optional(),
    name: z.string().trim().min(1).max(120),
    value: z.coerce.number().min(0).max(10_000_000).optional(),
  }),
  planId: ZId.optional(),
  period: z.enum(BILLING_PERIODS).optional(),
  dueDate: z.string().trim().max(40).optional(),
  companyId: z.unknown().optional(),
});
export type InvoiceCopyBody = z.input<typeof ZInvoiceCopyBody>;

/** GET /invoices/admin query (super user): open invoices of every company by default. */
export const ZAdminInvoiceQuery = z.object({
  status: z.enum(INVOICE_STATUSES).optional().default('open'),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});

/**
 * Step 0 of the checkout dialog (document 3 sections 3 and 5): firstName, address2, city, zipcode
 * and country are required; lastName and state are optional. Every string is bounded.
 */
export const ZCheckoutData = z.object({
  firstName: required(100),
  lastName: z.string().trim().max(100, V.tooLong).optional(),
  address2: required(200),
  city: required(100),
  state: z.string().trim().max(50, V.tooLong).optional(),
  zipcode: required(10),
  country: z.enum(['BR', 'usa'], { error: V.required }),
  useAddressForPaymentDetails: z.boolean().optional(),
});
export type CheckoutData = z.infer<typeof ZCheckoutData>;

/**
 * Card fields of the spec's checkout payload (document 3 section 3). Accepted so the spec's
 * clients keep working, bounded, and then dropped: Zapdesk charges by Pix and never stores or logs
 * card data.
 */
const ZIgnoredCardFields = {
  nameOnCard: z.string().max(100).optional(),
  cardNumber: z.string().max(30).optional(),
  cvv: z.string().max(10).optional(),
};

/**
 * POST /subscription (document 3 sections 3 and 7, checkout): either a plan and period (a new
 * invoice) or an open invoice of the company to pay, plus the optional checkout data of step 0.
 * `plan` is the spec's name for `planId`; `price`, `users` and `connections` are the client's view
 * and are ignored: the price always comes from the plan on the server. The parsed body carries no
 * card fields.
 */
export const ZSubscribeBody = z
  .object({
    planId: ZId.optional(),
    plan: ZId.optional(),
    period: z.enum(BILLING_PERIODS).optional().default('MENSAL'),
    invoiceId: ZId.optional(),
    price: z.number().min(0).max(10_000_000).optional(),
    users: z.number().int().min(0).max(INT4_MAX).optional(),
    connections: z.number().int().min(0).max(INT4_MAX).optional(),
    ...ZCheckoutData.partial().shape,
    ...ZIgnoredCardFields,
  })
  .refine((b) => b.planId !== undefined || b.plan !== undefined || b.invoiceId !== undefined, {
    message: V.required,
    path: ['planId'],
  })
  .transform(({ nameOnCard: _n, cardNumber: _c, cvv: _v, plan, planId, ...rest }) => ({
    ...rest,
    planId: planId ?? plan,
  }));
export type SubscribeBody = z.input<typeof ZSubscribeBody>;

/** POST /subscription answer: the spec's Pix data (qrcode, valor.original) with the invoice. */
export const ZSubscribeResponse = z.object({
  invoice: ZInvoice,
  qrcode: z.object({ qrcode: z.string().nullable() }),
  valor: z.object({ original: z.string() }),
  paymentLink: z.string().nullable(),
});
export type SubscribeResponse = z.infer<typeof ZSubscribeResponse>;

/** Platform Pix receiver of the manual provider, set by the super user. */
export const ZPixSettings = z.object({
  pixKey: z.string().trim().max(77, V.tooLong),
  merchantName: z.string().trim().max(25, V.tooLong),
  merchantCity: z.string().trim().max(15, V.tooLong),
});
export type PixSettings = z.infer<typeof ZPixSettings>;

/** Billing configuration the web needs: provider and whether a Pix key is set. */
export const ZBillingInfo = z.object({
  provider: z.enum(BILLING_PROVIDERS),
  pixReady: z.boolean(),
});
export type BillingInfo = z.infer<typeof ZBillingInfo>;

/** POST /invoices/:id/pay answer (super user confirms a manual payment). */
export const ZPaymentResult = z.object({
  invoice: ZInvoice,
  /** False when this payment was already processed (replay): nothing moved. */
  applied: z.boolean(),
  companyDueDate: z.string().nullable(),
});
export type PaymentResult = z.infer<typeof ZPaymentResult>;

/** `company-{id}-payment` payload: action CONCLUIDA when an invoice is paid. */
export interface PaymentEvent {
  action: 'CONCLUIDA';
  invoiceId: number;
  company: { id: number; dueDate: string | null };
}
