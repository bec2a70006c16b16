import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Invoice } from '@zapdesk/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  answerPlansPage,
  answerUser,
  BILLING_PLANS,
  BILLING_PROFILE,
  billingInvoice,
  listPlan,
  renderPlansPage,
  useBillingSession,
} from '../../test/billing';
import { createSessionUser } from '../../test/fixtures';
import { json, stubFetchNow } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { InvoicesPage } from './invoices-page';
import { PlansPage } from './plans-page';

/** A CRM invoice: due at 15:30 local time, paid through the CRM's link. */
const invoice = (overrides: Partial<Invoice>): Invoice =>
  billingInvoice({
    dueDate: '2030-01-01T15:30:00',
    provider: 'crm',
    paymentLink: 'https://crm.example/invoice/9/h',
    ...overrides,
  });

const PROFILE = BILLING_PROFILE;

type Handler = (url: string, init: RequestInit | undefined) => Response | undefined;

/** Stubs fetch: `handler` first, then the plans page's usual answers; records every call. */
function stubApi(invoices: Invoice[], handler: Handler, planId = 2) {
  const calls: { method: string; url: string; body: unknown; cache: RequestCache | undefined }[] = [];
  stubFetchNow(async ({ url, method, init }) => {
    calls.push({
      method: method,
      url,
      body: init?.body ? JSON.parse(String(init.body)) : null,
      cache: init?.cache,
    });
    const answer = handler(url, init) ?? answerUser(url, init);
    if (answer) return answer;
    const plan = BILLING_PLANS.find((p) => p.id === planId)!;
    return (
      answerPlansPage(url, init, { plan, invoices, crm: true, profile: PROFILE }) ??
      json(404, { error: 'ERR_NOT_FOUND' })
    );
  });
  return calls;
}

const subscribedInvoices = () => [
  invoice({ id: 5 }),
  invoice({
    id: 4,
    status: 'paid',
    updatedAt: '2029-02-01T00:00:00.000Z',
    paidAt: '2029-02-01T00:00:00.000Z',
  }),
];

describe('plans page, CRM plan and period change', () => {
  useBillingSession();

  it("'Switch to Annual' updates the open invoice, toasts each CRM step and goes to its payment link", {
    timeout: 20_000,
  }, async () => {
    const calls = stubApi(subscribedInvoices(), (url) => {
      if (url.startsWith('/api/crm-verify-customer')) return json(200, { exists: true, id: '7' });
      if (url === '/api/crm-update-customer') return json(200, { message: 'Client Update Successful.' });
      if (url === '/api/crm-update-invoice')
        return json(200, {
          message: 'Invoice Updated Successfully',
          link: 'https://crm.example/invoice/9/h',
        });
      return undefined;
    });
    const { open, user } = renderPlansPage('/planos');
    await user.click(await screen.findByTestId('period-annual'));
    const button = await screen.findByTestId('plan-button-Básico');
    await waitFor(() => expect(button.textContent).toBe('Switch to Annual'));
    await user.click(button);
    await user.click(await screen.findByTestId('billing-generate', {}, { timeout: 10_000 }));
    await waitFor(() =>
      expect(open).toHaveBeenCalledWith('https://crm.example/invoice/9/h', '_blank', 'noopener'),
    );
    // Pending invoices read again with the spec's parameters before the dialog.
    expect(calls.some((c) => c.url === '/api/invoices/all?companyId=1&pagenumber=1')).toBe(true);
    expect(localStorage.getItem('crmClientId')).toBe('7');
    const update = calls.find((c) => c.url === '/api/crm-update-invoice')!;
    expect(update.method).toBe('PUT');
    expect(update.body).toMatchObject({
      invoiceData: { status: 'open', planId: 2, period: 'ANUAL', detail: 'Básico #2 ANUAL', recurring: '12' },
      companyInfo: { companyId: 1, billing_street: 'Rua A' },
    });
    expect(calls.some((c) => c.url === '/api/crm-create-invoice')).toBe(false);
    expect(await screen.findByText('Customer updated successfully in Perfex CRM!')).toBeTruthy();
    expect(await screen.findByText('Plan updated! You will be redirected.')).toBeTruthy();
  });

  it("a new customer is integrated (crmClientId kept) and a CRM refusal shows the CRM's own text", {
    timeout: 20_000,
  }, async () => {
    localStorage.setItem('crmClientId', 'stale');
    stubApi([], (url) => {
      if (url.startsWith('/api/crm-verify-customer')) return json(404, { error: 'ERR_NOT_FOUND' });
      if (url === '/api/crm-create-customer') return json(200, { clientid: '8' });
      if (url === '/api/crm-create-invoice')
        return json(502, { error: 'ERR_CRM_CREATE_INVOICE', message: 'The Client field is required.' });
      return undefined;
    });
    const { open, user } = renderPlansPage();
    await user.click(await screen.findByTestId('plan-button-Completo'));
    await waitFor(() => expect(localStorage.getItem('crmClientId')).toBeNull());
    await user.click(await screen.findByTestId('billing-generate', {}, { timeout: 10_000 }));
    expect(await screen.findByText('Customer integrated successfully with Perfex CRM!')).toBeTruthy();
    expect(
      await screen.findByText('Error creating the invoice in Perfex CRM: The Client field is required.'),
    ).toBeTruthy();
    expect(localStorage.getItem('crmClientId')).toBe('8');
    expect(open).not.toHaveBeenCalled();
  });

  it('a failed pending-invoice check or CRM lookup stops before the dialog with its message', {
    timeout: 20_000,
  }, async () => {
    let lookup = 0;
    stubApi([], (url) => {
      if (url.includes('pagenumber=1') && lookup++ === 0)
        return json(500, { error: 'ERR_INTERNAL_SERVER_ERROR' });
      if (url.startsWith('/api/crm-verify-customer')) return json(502, { error: 'ERR_CRM_VERIFY' });
      return undefined;
    });
    const user = userEvent.setup();
    renderWithProviders(<PlansPage />, { user: createSessionUser({ profile: 'admin' }, { id: 2 }) });
    const button = await screen.findByTestId('plan-button-Completo');
    await waitFor(() => expect(screen.getByTestId('plan-button-Completo')).toBeTruthy());
    await user.click(button);
    expect(await screen.findByText('Error checking pending invoices.')).toBeTruthy();
    await user.click(button);
    expect(await screen.findByText('Error checking your data in the CRM.')).toBeTruthy();
    expect(screen.queryByTestId('billing-generate')).toBeNull();
  });

  it('shows the plan/invoice inconsistency without a click and opens no dialog', {
    timeout: 20_000,
  }, async () => {
    stubApi(subscribedInvoices(), () => undefined, 3);
    const user = userEvent.setup();
    renderWithProviders(<PlansPage />, { user: createSessionUser({ profile: 'admin' }, { id: 3 }) });
    expect(await screen.findByText(/Mismatch found between your active plan/)).toBeTruthy();
    await user.click(await screen.findByTestId('plan-button-Completo'));
    expect(screen.queryByTestId('billing-generate')).toBeNull();
  });
});

describe('plans page, CRM cancellation and a local copy that failed', () => {
  useBillingSession();

  it("'Cancelar Plano Atual' sends the CANCELADO suffix and says so; a missing invoice says to contact support", {
    timeout: 20_000,
  }, async () => {
    let cancels = 0;
    const calls = stubApi(subscribedInvoices(), (url) => {
      if (url === '/api/crm-update-invoice')
        return cancels++ === 0
          ? json(200, { message: 'Sua assinatura foi cancelada com sucesso.', link: null })
          : json(404, { error: 'ERR_NO_INVOICE_FOUND' });
      return undefined;
    });
    const user = userEvent.setup();
    renderWithProviders(<PlansPage />, { user: createSessionUser({ profile: 'admin' }, { id: 2 }) });
    await user.click(await screen.findByRole('button', { name: 'Cancel Current Plan' }));
    await user.click(await screen.findByRole('button', { name: 'Yes, Cancel Subscription' }));
    expect(await screen.findByText('Processing your cancellation request...')).toBeTruthy();
    expect(await screen.findByText('Your subscription was cancelled.')).toBeTruthy();
    expect(calls.find((c) => c.url === '/api/crm-update-invoice')!.body).toEqual({
      invoiceData: { status: 'open', detail: 'Básico #2 MENSAL CANCELADO' },
    });
    await user.click(await screen.findByRole('button', { name: 'Cancel Current Plan' }));
    await user.click(await screen.findByRole('button', { name: 'Yes, Cancel Subscription' }));
    expect(await screen.findByText('No invoice found, please contact support.')).toBeTruthy();
  });

  it('an invoice created at the CRM but not saved here warns and still opens its payment link', {
    timeout: 20_000,
  }, async () => {
    stubApi([], (url) => {
      if (url.startsWith('/api/crm-verify-customer')) return json(200, { exists: true, id: '7' });
      if (url === '/api/crm-update-customer') return json(200, { message: 'ok' });
      if (url === '/api/crm-create-invoice')
        return json(500, { error: 'ERR_CRM_INVOICE_NOT_SAVED', link: 'https://crm.example/invoice/3/h' });
      return undefined;
    });
    const { open, user } = renderPlansPage();
    await user.click(await screen.findByTestId('plan-button-Completo'));
    await user.click(await screen.findByTestId('billing-generate', {}, { timeout: 10_000 }));
    expect(
      await screen.findByText(
        'The invoice was created in the CRM, but there was an error saving it in our system.',
      ),
    ).toBeTruthy();
    await waitFor(() =>
      expect(open).toHaveBeenCalledWith('https://crm.example/invoice/3/h', '_blank', 'noopener'),
    );
  });
});

describe('plans page, manual Pix plan and period change', () => {
  useBillingSession();

  it('cancels the open manual invoice once the new one exists, leaving one open invoice', {
    timeout: 20_000,
  }, async () => {
    const subscribed = subscribedInvoices().map((i) => ({
      ...i,
      provider: 'manual' as const,
      paymentLink: null,
    }));
    const calls = stubApi(subscribed, (url, init) => {
      if (url === '/api/billing/info') return json(200, { provider: 'manual', pixReady: true });
      if (url === '/api/subscription')
        return json(200, {
          invoice: invoice({ id: 7, provider: 'manual', detail: 'Básico #2 ANUAL', period: 'ANUAL' }),
          qrcode: { qrcode: '00020126...6304ABCD' },
          valor: { original: '959.04' },
          paymentLink: null,
        });
      if (url === '/api/invoices/5/cancel' && init?.method === 'POST')
        return json(200, { ...subscribed[0], status: 'cancelled' });
      return undefined;
    });
    const user = userEvent.setup();
    renderWithProviders(<PlansPage />, { user: createSessionUser({ profile: 'admin' }, { id: 2 }) });
    await user.click(await screen.findByTestId('period-annual'));
    const button = await screen.findByTestId('plan-button-Básico');
    await waitFor(() => expect(button.textContent).toBe('Switch to Annual'));
    await user.click(button);
    await user.click(await screen.findByTestId('billing-generate', {}, { timeout: 10_000 }));
    expect(await screen.findByTestId('pix-qr', {}, { timeout: 10_000 })).toBeTruthy();
    const order = calls.map((c) => `${c.method} ${c.url}`);
    const created = order.indexOf('POST /api/subscription');
    const cancelled = order.indexOf('POST /api/invoices/5/cancel');
    expect(created).toBeGreaterThan(-1);
    expect(cancelled).toBeGreaterThan(created);
    expect(await screen.findByText('Plan updated! You will be redirected.')).toBeTruthy();
  });
});

describe('plans page, the company plan lookup (listPlan)', () => {
  useBillingSession();

  it('reads listPlan past the browser cache and stops with its messages', { timeout: 20_000 }, async () => {
    let answer = json(404, { error: 'ERR_NO_PLAN_FOUND' });
    const calls = stubApi([], (url) =>
      url.startsWith('/api/companies/listPlan/') ? answer.clone() : undefined,
    );
    const user = userEvent.setup();
    renderWithProviders(<PlansPage />, { user: createSessionUser({ profile: 'admin' }, { id: 2 }) });
    const button = await screen.findByTestId('plan-button-Completo');
    await user.click(button);
    expect(await screen.findByText('Could not verify your current plan in the system.')).toBeTruthy();
    answer = json(500, { error: 'ERR_INTERNAL_SERVER_ERROR' });
    await user.click(button);
    expect(await screen.findByText("Error fetching the company's plan information.")).toBeTruthy();
    answer = json(200, listPlan(BILLING_PLANS[1]!, null));
    await user.click(button);
    expect(await screen.findByText('No user found.')).toBeTruthy();
    expect(screen.queryByTestId('billing-generate')).toBeNull();
    const lookups = calls.filter((c) => c.url === '/api/companies/listPlan/1');
    expect(lookups.length).toBeGreaterThanOrEqual(3);
    expect(lookups.every((c) => c.cache === 'no-store')).toBe(true);
  });
});

describe('invoices page, CRM invoices', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows due dates as dd/MM/yy HH:mm, pays through crm-verify-invoice and cancels after a confirmation', {
    timeout: 20_000,
  }, async () => {
    const list = [
      invoice({ id: 6, detail: 'Teste Gratis #1 MENSAL', provider: 'manual' }),
      invoice({ id: 5 }),
    ];
    let deletes = 0;
    const calls = stubApi(list, (url, init) => {
      if (url.startsWith('/api/crm-verify-invoice'))
        return json(200, { exists: true, link: 'https://crm.example/invoice/9/h' });
      if (url === '/api/crm-delete-invoice' && init?.method === 'DELETE')
        return deletes++ === 0
          ? json(200, { message: 'Fatura cancelada.' })
          : json(404, { error: 'ERR_NO_INVOICE_FOUND' });
      return undefined;
    });
    const open = vi.fn();
    vi.stubGlobal('open', open);
    const user = userEvent.setup();
    renderWithProviders(<InvoicesPage />, { user: createSessionUser({ profile: 'admin' }) });
    const row = await screen.findByTestId('invoice-5');
    expect(row.textContent).toContain('01/01/30 15:30');
    await user.click(within(row).getByTestId('pay-5'));
    await waitFor(() =>
      expect(open).toHaveBeenCalledWith('https://crm.example/invoice/9/h', '_blank', 'noopener'),
    );
    expect(calls.some((c) => c.url === '/api/crm-verify-invoice?name=B%C3%A1sico+%232+MENSAL')).toBe(true);
    expect(screen.queryByTestId('checkout-step-1')).toBeNull();

    await user.click(within(row).getByTestId('cancel-5'));
    // Nothing is cancelled before the confirmation.
    expect(calls.some((c) => c.url === '/api/crm-delete-invoice')).toBe(false);
    await user.click(await screen.findByTestId('cancel-invoice-confirm'));
    expect(await screen.findByText('Processing the cancellation request...')).toBeTruthy();
    expect(await screen.findByText('Invoice cancelled.')).toBeTruthy();
    expect(calls.find((c) => c.url === '/api/crm-delete-invoice')!.body).toEqual({
      companyId: 1,
      name: 'Básico #2 MENSAL',
    });
    await user.click(within(await screen.findByTestId('invoice-5')).getByTestId('cancel-5'));
    await user.click(await screen.findByTestId('cancel-invoice-confirm'));
    expect(await screen.findByText('No invoice found, please contact support.')).toBeTruthy();
  });
});
