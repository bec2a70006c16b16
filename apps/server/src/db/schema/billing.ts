import { sql } from 'drizzle-orm';
import { check, index, integer, numeric, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import {
  createdAtColumn,
  extensionKey,
  idColumn,
  optionalRef,
  parentRef,
  timestamps,
  timestamptz,
} from './columns.js';
import { companies, plans } from './companies.js';
import { companyRef, companyTable } from './tenant.js';

/**
 * Invoices of a company's subscription (document 3 sections 3 and 4). `status` is open, paid or
 * cancelled; 'expired' is derived. `providerChargeId` is the charge at the payment service or CRM.
 */
export const invoices = companyTable(
  'invoices',
  {
    planId: optionalRef(() => plans.id),
    detail: text().notNull(),
    value: numeric({ precision: 12, scale: 2, mode: 'number' }).notNull(),
    dueDate: timestamptz().notNull(),
    status: text({ enum: ['open', 'paid', 'cancelled'] })
      .notNull()
      .default('open'),
    period: text({ enum: ['MENSAL', 'ANUAL'] })
      .notNull()
      .default('MENSAL'),
    provider: text({ enum: ['manual', 'asaas', 'crm'] })
      .notNull()
      .default('manual'),
    providerChargeId: text(),
    pixCode: text(),
    paymentLink: text(),
    paidAt: timestamptz(),
    ...timestamps,
  },
  (t) => [
    check('invoices_status_check', sql`${t.status} in ('open', 'paid', 'cancelled')`),
    index('invoices_company_idx').on(t.companyId, t.id),
    index('invoices_status_idx').on(t.status, t.id),
    uniqueIndex('invoices_provider_charge_key').on(t.provider, t.providerChargeId),
  ],
);

/**
 * Payments applied to invoices, one row per provider payment id: the unique key makes payment
 * processing idempotent (a replayed or concurrent webhook finds its row and moves nothing).
 */
export const invoicePayments = pgTable(
  'invoice_payments',
  {
    id: idColumn(),
    invoiceId: parentRef(() => invoices.id),
    companyId: companyRef(),
    provider: text().notNull(),
    providerPaymentId: text().notNull(),
    /** Company dueDate before and after this payment (null when it did not move it). */
    dueDateBefore: timestamptz(),
    dueDateAfter: timestamptz(),
    createdAt: createdAtColumn(),
  },
  (t) => [uniqueIndex('invoice_payments_provider_payment_key').on(t.provider, t.providerPaymentId)],
);

/** Billing data of a company (plans page dialog, document 3 section 3) and its CRM customer id. */
export const billingProfiles = pgTable('billing_profiles', {
  companyId: extensionKey(() => companies.id),
  name: text().notNull(),
  email: text().notNull(),
  phone: text().notNull(),
  cnpjCpf: text().notNull(),
  address: text().notNull(),
  city: text().notNull(),
  state: text().notNull(),
  zipcode: text().notNull(),
  country: text().notNull(),
  /** Customer id at the configured payment service or CRM. */
  providerCustomerId: text(),
  ...timestamps,
});

/** Platform-wide billing settings (one row, id 1): the Pix receiver of the manual provider. */
export const platformBilling = pgTable(
  'platform_billing',
  {
    id: integer().primaryKey().default(1),
    pixKey: text().notNull().default(''),
    merchantName: text().notNull().default(''),
    merchantCity: text().notNull().default(''),
    ...timestamps,
  },
  (t) => [check('platform_billing_single_row', sql`${t.id} = 1`)],
);
