/**
 * The CRM path of the plans page (document 3 section 4, subscribe flow; section 7, external CRM
 * billing; section 8, its messages): the customer lookup before the billing dialog, then creating
 * or updating the customer and creating the invoice, or updating the open one when the company
 * already has one (a plan or period change must not leave a second open invoice).
 */
import {
  type BillingPeriod,
  type BillingProfile,
  FREE_TRIAL_PLAN_NAME,
  type Invoice,
  type Plan,
  planPrice,
} from '@zapdesk/shared';
import { ApiError, api, apiRequest } from '../../lib/api';

/** Local-storage key of the company's CRM customer id, as last found (document 3 section 3). */
export const CRM_CLIENT_ID_KEY = 'crmClientId';

/**
 * GET /crm-verify-customer: the company's CRM customer id, kept in local storage as crmClientId;
 * null (and the stored id cleared) when the CRM has none (404). @throws ApiError otherwise.
 */
export async function lookUpCrmCustomer(name: string): Promise<string | null> {
  try {
    const found = await api.get<{ exists: boolean; id: string | null }>('/crm-verify-customer', { name });
    if (found.id) localStorage.setItem(CRM_CLIENT_ID_KEY, found.id);
    return found.id;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      localStorage.removeItem(CRM_CLIENT_ID_KEY);
      return null;
    }
    throw err;
  }
}

/**
 * The open plan invoice of `provider` that a plan or period change replaces (the newest; never the
 * free trial): a CRM one is updated in place, a manual one cancelled once the new one exists.
 */
export const openPlanInvoice = (invoices: Invoice[], provider: Invoice['provider'] = 'crm'): Invoice | null =>
  invoices
    .filter((i) => i.status === 'open' && i.provider === provider && !i.detail.includes(FREE_TRIAL_PLAN_NAME))
    .sort((x, y) => y.id - x.id)[0] ?? null;

/** One step's message: the i18n key of its toast and its kind. */
export type CrmStepToast = { kind: 'success' | 'info' | 'warning'; key: string };

/** What the flow needs besides the dialog's data. */
export interface CrmCheckoutInput {
  profile: BillingProfile;
  plan: Plan;
  period: BillingPeriod;
  /** The CRM customer id found before the dialog opened, or null (a new customer). */
  customerId: string | null;
  /** The open CRM invoice to update instead of creating another. */
  open: Invoice | null;
  company: { id: number; name: string; dueDate: string | null };
  /** Called after each step that the user is told about (section 8 toasts). */
  onStep: (toast: CrmStepToast) => void;
}

/**
 * Runs steps 4 to 6 of the subscribe flow: the customer is updated (or created, its id kept as
 * crmClientId), then the open CRM invoice is updated to the plan and period (PUT
 * /crm-update-invoice) or a new one is created (POST /crm-create-invoice, which also keeps the
 * local copy). Answers the payment link and whether an invoice was updated. An invoice created at
 * the CRM whose local copy failed (ERR_CRM_INVOICE_NOT_SAVED) is reported as a warning step and
 * still answers its link. @throws ApiError of the failing step (its catalogue code says which).
 */
export async function runCrmCheckout(
  input: CrmCheckoutInput,
): Promise<{ link: string | null; updated: boolean }> {
  const { profile, plan, period, onStep } = input;
  const customer = {
    name: profile.name,
    email: profile.email,
    phone: profile.phone,
    vat: profile.cnpjCpf,
    address: profile.address,
    city: profile.city,
    state: profile.state,
    zip: profile.zipcode,
    country: profile.country,
  };
  if (input.customerId) {
    await api.put('/crm-update-customer', { id: input.customerId, ...customer });
    onStep({ kind: 'success', key: 'billing.crmCustomerUpdated' });
  } else {
    const created = await api.post<{ clientid: string }>('/crm-create-customer', customer);
    localStorage.setItem(CRM_CLIENT_ID_KEY, created.clientid);
    onStep({ kind: 'success', key: 'billing.crmCustomerCreated' });
  }
  if (input.open) {
    const value = planPrice(plan.value, period);
    const answer = await api.put<{ message: string; link: string | null }>('/crm-update-invoice', {
      invoiceData: {
        status: 'open',
        detail: `${plan.name} #${plan.id} ${period}`,
        value,
        dueDate: input.open.dueDate,
        description: `${plan.name} ${period}`,
        recurring: period === 'ANUAL' ? '12' : '1',
        period,
        planId: plan.id,
      },
      companyInfo: {
        companyId: input.company.id,
        name: input.company.name,
        dueDateCompany: input.company.dueDate,
        billing_street: profile.address,
      },
    });
    onStep({ kind: 'success', key: 'billing.planUpdated' });
    return { link: answer.link, updated: true };
  }
  try {
    const created = await api.post<{ link: string | null }>('/crm-create-invoice', {
      planId: plan.id,
      period,
      billing_street: profile.address,
      billing_city: profile.city,
      billing_state: profile.state,
      billing_zip: profile.zipcode,
      billing_country: profile.country,
    });
    onStep({ kind: 'success', key: 'billing.crmInvoiceCreated' });
    onStep({ kind: 'success', key: 'billing.invoiceCreated' });
    return { link: created.link, updated: false };
  } catch (err) {
    if (err instanceof ApiError && err.code === 'ERR_CRM_INVOICE_NOT_SAVED') {
      onStep({ kind: 'warning', key: 'errors.ERR_CRM_INVOICE_NOT_SAVED' });
      const link = err.body?.link;
      return { link: typeof link === 'string' ? link : null, updated: false };
    }
    throw err;
  }
}

/**
 * The i18n key of a failed cancellation (document 3 section 8): an authentication failure asks to
 * log in again, a missing invoice says to contact support, anything else is the generic failure.
 */
export function cancellationErrorKey(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 401 || err.code === 'ERR_SESSION_EXPIRED') return 'billing.cancelAuthError';
    if (err.code === 'ERR_NO_INVOICE_FOUND') return 'billing.cancelNoInvoice';
  }
  return 'billing.cancelFailed';
}

/**
 * Cancels one invoice: a CRM invoice by DELETE /crm-delete-invoice with its detail as the spec
 * sends it (deleted at the CRM, cancelled here), any other by POST /invoices/:id/cancel.
 */
export async function cancelBillingInvoice(invoice: Invoice, companyId: number): Promise<void> {
  if (invoice.provider === 'crm') {
    await apiRequest('/crm-delete-invoice', {
      method: 'DELETE',
      body: { companyId, name: invoice.detail },
    });
    return;
  }
  await api.post(`/invoices/${invoice.id}/cancel`);
}

/**
 * The payment page of an open CRM invoice (GET /crm-verify-invoice by its detail), or null when the
 * CRM has none for it.
 */
export async function crmPaymentLink(invoice: Invoice): Promise<string | null> {
  const found = await api.get<{ exists: boolean; link: string | null }>('/crm-verify-invoice', {
    name: invoice.detail,
  });
  return found.exists ? found.link : null;
}
