import { QueryClient } from '@tanstack/react-query';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type Invoice, subscriptionState } from '@zapdesk/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeSession } from '../../lib/storage';
import {
  answerPlansPage,
  answerUser,
  BILLING_PLANS,
  BILLING_PROFILE,
  billingInvoice,
  expectPixPaidOnConcluida,
  renderPlansPage,
  useBillingSession,
} from '../../test/billing';
import { createSessionUser } from '../../test/fixtures';
import { json, stubFetchNow } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { SettingsPage } from '../settings/settings-page';
import { InvoicesPage } from './invoices-page';
import { applyPaymentEvent } from './payment-events';
import { PlansPage, planButton } from './plans-page';

const PLANS = BILLING_PLANS;

const invoice = billingInvoice;

describe('subscription state and plan buttons (document 3 section 4)', () => {
  it('is subscribed only with a paid and an open invoice on the company plan', () => {
    const paid = invoice({
      id: 2,
      status: 'paid',
      detail: 'Básico #2 ANUAL',
      updatedAt: '2029-02-01T00:00:00Z',
    });
    expect(subscriptionState([paid, invoice({})], 2)).toEqual({
      subscribed: true,
      period: 'ANUAL',
      inconsistent: false,
    });
    expect(subscriptionState([paid], 2).subscribed).toBe(false);
    expect(subscriptionState([invoice({})], 2).subscribed).toBe(false);
    expect(subscriptionState([paid, invoice({})], 3)).toEqual({
      subscribed: false,
      period: null,
      inconsistent: true,
    });
  });

  it('labels the buttons as the spec says', () => {
    const basic = PLANS[1]!;
    const full = PLANS[2]!;
    const state = { subscribed: true, period: 'MENSAL' as const };
    expect(planButton(basic, 'MENSAL', { subscribed: false, period: null }, 2)).toEqual({
      key: 'subscribe',
      disabled: false,
    });
    expect(planButton(basic, 'MENSAL', state, 2)).toEqual({ key: 'currentPlan', disabled: true });
    expect(planButton(basic, 'ANUAL', state, 2)).toEqual({ key: 'toAnnual', disabled: false });
    expect(planButton(full, 'MENSAL', state, 2)).toEqual({ key: 'changePlan', disabled: false });
  });
});

describe('plans page', () => {
  let invoices: Invoice[];
  beforeEach(() => {
    writeSession('tok', 1, 1);
    invoices = [];
    stubFetchNow(
      async ({ url }) =>
        answerPlansPage(url, undefined, { invoices, profile: null }) ?? json(404, { error: 'ERR_NOT_FOUND' }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it("hides 'Teste Gratis', prices in BRL with a comma and applies the annual discount", async () => {
    const user = userEvent.setup();
    renderWithProviders(<PlansPage />, { user: createSessionUser({ profile: 'admin' }, { id: 2 }) });
    const card = await screen.findByTestId('plan-card-Básico');
    expect(screen.queryByTestId('plan-card-Teste Gratis')).toBeNull();
    expect(card.textContent).toContain('99,90');
    expect(screen.queryByTestId('save-chip')).toBeNull();
    await user.click(screen.getByTestId('period-annual'));
    expect(screen.getByTestId('save-chip').textContent).toBe('Save 20%');
    expect(screen.getByTestId('plan-card-Básico').textContent).toContain('959,04');
    expect(screen.getByTestId('plan-button-Básico').textContent).toBe('Subscribe');
  });

  it("says 'not signed in' and sends nothing when the session's token went away", async () => {
    const user = userEvent.setup();
    renderWithProviders(<PlansPage />, { user: createSessionUser({ profile: 'admin' }, { id: 2 }) });
    await screen.findByTestId('plan-card-Básico');
    await waitFor(() => expect(screen.getByTestId('plan-button-Completo')).toBeTruthy());
    const fetchMock = vi.mocked(fetch);
    const before = fetchMock.mock.calls.length;
    localStorage.removeItem('token');
    await user.click(screen.getByTestId('plan-button-Completo'));
    expect(await screen.findByText('You are not signed in.')).toBeTruthy();
    expect(fetchMock.mock.calls.length).toBe(before);
    expect(screen.queryByTestId('billing-generate')).toBeNull();
  });

  it('blocks subscribing with two open invoices', async () => {
    invoices = [invoice({ id: 1 }), invoice({ id: 2, detail: 'Completo #3 MENSAL', planId: 3 })];
    const user = userEvent.setup();
    renderWithProviders(<PlansPage />, { user: createSessionUser({ profile: 'admin' }, { id: 2 }) });
    await screen.findByTestId('plan-card-Básico');
    await waitFor(() => expect(screen.getByTestId('plan-button-Completo')).toBeTruthy());
    await user.click(screen.getByTestId('plan-button-Completo'));
    expect(await screen.findByText(/Pending invoices found/)).toBeTruthy();
    expect(screen.queryByTestId('billing-generate')).toBeNull();
  });

  it('starts the billing dialog from the user record and saves back what the user typed', {
    timeout: 20_000,
  }, async () => {
    const saved = {
      phone: '(11) 98765-4321',
      cnpjCpf: '295.379.955-93',
      address: 'Rua Azul, 10',
      city: 'São Paulo',
      state: 'SP',
      zipcode: '01001-000',
      country: 'BR',
    };
    const calls: { call: string; body: unknown }[] = [];
    stubFetchNow(async ({ url, method, init }) => {
      const body = init?.body ? JSON.parse(String(init.body)) : null;
      calls.push({ call: `${method} ${url.split('?')[0]}`, body });
      const own = answerUser(url, init, saved);
      if (own) return own;
      return answerPlansPage(url, init, { profile: null }) ?? json(404, { error: 'ERR_NOT_FOUND' });
    });
    const user = userEvent.setup();
    renderWithProviders(<PlansPage />, { user: createSessionUser({ id: 77, profile: 'admin' }, { id: 2 }) });
    await user.click(await screen.findByTestId('plan-button-Básico'));
    const doc = (await screen.findByTestId('billing-cnpjCpf', {}, { timeout: 10_000 })) as HTMLInputElement;
    expect(calls.map((c) => c.call)).toContain('GET /api/users/77');
    expect(doc.value).toBe('295.379.955-93');
    expect((screen.getByTestId('billing-phone') as HTMLInputElement).value).toBe('(11) 98765-4321');
    expect((screen.getByTestId('billing-address') as HTMLInputElement).value).toBe('Rua Azul, 10');
    expect((screen.getByTestId('billing-zipcode') as HTMLInputElement).value).toBe('01001-000');
    const city = screen.getByTestId('billing-city');
    await user.clear(city);
    await user.type(city, 'Campinas');
    await user.click(screen.getByTestId('billing-generate'));
    await waitFor(() => expect(calls.map((c) => c.call)).toContain('PUT /api/billing/profile'));
    const typed = { ...saved, city: 'Campinas' };
    expect(calls.find((c) => c.call === 'PUT /api/users/77')?.body).toEqual(typed);
    expect(calls.find((c) => c.call === 'PUT /api/billing/profile')?.body).toMatchObject(typed);
  });

  it('shows the billing dialog with the CPF/CNPJ check and the required fields', {
    timeout: 20_000,
  }, async () => {
    const user = userEvent.setup();
    renderWithProviders(<PlansPage />, { user: createSessionUser({ profile: 'admin' }, { id: 2 }) });
    await user.click(await screen.findByTestId('plan-button-Básico'));
    const doc = await screen.findByTestId('billing-cnpjCpf', {}, { timeout: 10_000 });
    await user.type(doc, '11111111111');
    expect((doc as HTMLInputElement).value).toBe('111.111.111-11');
    expect(screen.getByText('Invalid CPF or CNPJ')).toBeTruthy();
    await user.clear(doc);
    await user.type(doc, '29537995593');
    expect(screen.queryByText('Invalid CPF or CNPJ')).toBeNull();
    await user.click(screen.getByTestId('billing-generate'));
    expect(await screen.findByText('Please fill in all required fields.')).toBeTruthy();
    expect(screen.getAllByText('Required').length).toBeGreaterThan(0);
  });
});

describe('plans page, CRM path', () => {
  useBillingSession();

  it('verifies or creates the CRM customer, creates the invoice, opens the payment link and goes to /financeiro', {
    timeout: 20_000,
  }, async () => {
    const calls: string[] = [];
    stubFetchNow(async ({ url, method, init }) => {
      calls.push(`${method} ${url.split('?')[0]}`);
      const page = answerPlansPage(url, init, { crm: true, profile: BILLING_PROFILE });
      if (page) return page;
      const own = answerUser(url, init);
      if (own) return own;
      if (url.startsWith('/api/crm-verify-customer')) return json(404, { error: 'ERR_NOT_FOUND' });
      if (url === '/api/crm-create-customer') return json(200, { clientid: '7' });
      if (url === '/api/crm-create-invoice')
        return json(200, { message: 'ok', link: 'https://crm.example/invoice/1/h', invoiceId: 3 });
      return json(404, { error: 'ERR_NOT_FOUND' });
    });
    const { open, user } = renderPlansPage('/planos');
    await waitFor(() => expect(calls).toContain('GET /api/billing/info'));
    await waitFor(() => expect(calls).toContain('GET /api/billing/profile'));
    await user.click(await screen.findByTestId('plan-button-Completo'));
    await user.click(await screen.findByTestId('billing-generate', {}, { timeout: 10_000 }));
    await waitFor(() =>
      expect(open).toHaveBeenCalledWith('https://crm.example/invoice/1/h', '_blank', 'noopener'),
    );
    expect(calls).toEqual(
      expect.arrayContaining([
        'PUT /api/billing/profile',
        'POST /api/crm-create-customer',
        'POST /api/crm-create-invoice',
      ]),
    );
    expect(calls).not.toContain('POST /api/subscription');
  });
});

describe('invoices page', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('derives expired, hides the free trial and shows the Pix checkout of an open invoice', {
    timeout: 30_000,
  }, async () => {
    const list = [
      invoice({ id: 1, detail: 'Teste Gratis #1 MENSAL' }),
      invoice({ id: 2, dueDate: '2020-01-01T00:00:00.000Z' }),
      invoice({ id: 3, status: 'paid' }),
      invoice({ id: 4 }),
    ];
    stubFetchNow(async ({ url }) => {
      if (url.startsWith('/api/invoices/all')) return json(200, list);
      if (url === '/api/subscription')
        return json(200, {
          invoice: list[3],
          qrcode: { qrcode: '00020126...6304ABCD' },
          valor: { original: '99.90' },
          paymentLink: null,
        });
      return json(404, { error: 'ERR_NOT_FOUND' });
    });
    const user = userEvent.setup();
    renderWithProviders(<InvoicesPage />, { user: createSessionUser({ profile: 'admin' }) });
    await screen.findByTestId('invoice-2');
    expect(screen.queryByTestId('invoice-1')).toBeNull();
    expect(screen.getByTestId('invoice-2').textContent).toContain('Expired');
    expect(screen.getByTestId('invoice-3').textContent).toContain('Paid');
    expect(screen.getByTestId('invoice-4').textContent).toContain('Open');
    expect(screen.getByTestId('invoice-4').textContent).toContain('R$');
    await user.click(screen.getByTestId('pay-4'));
    // The checkout dialog starts at step 1 (the invoice's plan), then review, then Pix.
    await screen.findByTestId('checkout-step-1', {}, { timeout: 10_000 });
    await user.click(screen.getByTestId('checkout-next'));
    await user.click(await screen.findByTestId('checkout-submit'));
    expect(await screen.findByTestId('pix-qr', {}, { timeout: 10_000 })).toBeTruthy();
    expect((screen.getByTestId('pix-code') as HTMLInputElement).value).toBe('00020126...6304ABCD');
    await expectPixPaidOnConcluida();
  });

  it('moves the session due date on CONCLUIDA and ignores other actions', () => {
    const user = createSessionUser({ profile: 'admin' });
    const setUser = vi.fn();
    const client = new QueryClient();
    applyPaymentEvent(client, { action: 'OTHER' }, { user, setUser });
    expect(setUser).not.toHaveBeenCalled();
    applyPaymentEvent(
      client,
      {
        action: 'CONCLUIDA',
        invoiceId: 9,
        company: { id: user.companyId, dueDate: '2031-01-01T00:00:00.000Z' },
      },
      { user, setUser },
    );
    expect(setUser).toHaveBeenCalledWith(
      expect.objectContaining({ company: expect.objectContaining({ dueDate: '2031-01-01T00:00:00.000Z' }) }),
    );
  });
});

describe('settings, platform Pix tab', () => {
  afterEach(() => vi.unstubAllGlobals());

  /**
   * Stubs the settings page's requests: the settings, PUT /billing/pix-settings (its body pushed to
   * `saved` and answered back) and GET /billing/pix-settings, answered by `get`.
   */
  function stubPixSettings(saved: unknown[], get: () => Response | Promise<Response>) {
    stubFetchNow(async ({ url, init }) => {
      if (url === '/api/settings') return json(200, [{ key: 'scheduleType', value: 'disabled' }]);
      if (url === '/api/billing/pix-settings' && init?.method === 'PUT') {
        saved.push(JSON.parse(String(init.body)));
        return json(200, JSON.parse(String(init.body)));
      }
      if (url === '/api/billing/pix-settings') return get();
      return json(404, { error: 'ERR_NOT_FOUND' });
    });
  }

  it('shows the Pix receiver form to the super user only, who saves the key', {
    timeout: 30_000,
  }, async () => {
    const saved: unknown[] = [];
    stubPixSettings(saved, () => json(200, { pixKey: '', merchantName: '', merchantCity: '' }));
    const user = userEvent.setup();
    const admin = renderWithProviders(<SettingsPage />, { user: createSessionUser({ profile: 'admin' }) });
    await screen.findByTestId('settings-options-tab');
    expect(screen.queryByTestId('settings-billing-tab')).toBeNull();
    admin.unmount();
    renderWithProviders(<SettingsPage />, { user: createSessionUser({ profile: 'admin', super: true }) });
    await user.click(await screen.findByTestId('settings-billing-tab'));
    // Disabled until the saved values arrive (they would otherwise overwrite what was typed).
    const key = await screen.findByTestId('pix-pixKey');
    await waitFor(() => expect((key as HTMLInputElement).disabled).toBe(false));
    await user.type(key, 'financeiro@zapdesk.test');
    await user.click(screen.getByTestId('pix-save'));
    await waitFor(() =>
      expect(saved).toEqual([{ pixKey: 'financeiro@zapdesk.test', merchantName: '', merchantCity: '' }]),
    );
  });

  it('keeps what was typed when the saved values answer late and a refetch answers again', {
    timeout: 30_000,
  }, async () => {
    const saved: unknown[] = [];
    const answers: Array<(body: unknown) => void> = [];
    // Every GET waits until the test answers it.
    stubPixSettings(
      saved,
      () => new Promise<Response>((resolve) => answers.push((body) => resolve(json(200, body)))),
    );
    const user = userEvent.setup();
    const { queryClient } = renderWithProviders(<SettingsPage />, {
      user: createSessionUser({ profile: 'admin', super: true }),
    });
    await user.click(await screen.findByTestId('settings-billing-tab'));
    const key = (await screen.findByTestId('pix-pixKey')) as HTMLInputElement;
    const name = screen.getByTestId('pix-merchantName') as HTMLInputElement;
    await waitFor(() => expect(answers).toHaveLength(1));
    expect(key.disabled).toBe(true);
    expect(name.disabled).toBe(true);
    expect((screen.getByTestId('pix-save') as HTMLButtonElement).disabled).toBe(true);

    const stored = { pixKey: 'antigo@zapdesk.test', merchantName: 'Zapdesk', merchantCity: 'Recife' };
    act(() => answers[0]?.(stored));
    await waitFor(() => expect(key.value).toBe('antigo@zapdesk.test'));
    expect(key.disabled).toBe(false);
    await user.clear(key);
    await user.type(key, 'novo@zapdesk.test');
    await user.clear(name);
    await user.type(name, 'Loja Nova');

    // A refetch (window focus, invalidation) answers other stored values.
    void queryClient.refetchQueries({ queryKey: ['billing', 'pix-settings'] });
    await waitFor(() => expect(answers).toHaveLength(2));
    await act(async () =>
      answers[1]?.({ pixKey: 'outro@zapdesk.test', merchantName: 'Outra', merchantCity: 'Olinda' }),
    );
    await waitFor(() =>
      expect(queryClient.getQueryState(['billing', 'pix-settings'])?.fetchStatus).toBe('idle'),
    );
    expect(key.value).toBe('novo@zapdesk.test');
    expect(name.value).toBe('Loja Nova');
    expect((screen.getByTestId('pix-merchantCity') as HTMLInputElement).value).toBe('Recife');

    await user.click(screen.getByTestId('pix-save'));
    await waitFor(() =>
      expect(saved).toEqual([
        { pixKey: 'novo@zapdesk.test', merchantName: 'Loja Nova', merchantCity: 'Recife' },
      ]),
    );
  });
});
