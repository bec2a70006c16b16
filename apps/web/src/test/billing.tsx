/** Test data shared by the billing tests. */

import { QueryClient } from '@tanstack/react-query';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Invoice, ListPlanResponse, Plan, PublicUser } from '@zapdesk/shared';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { applyPaymentEvent } from '../features/billing/payment-events';
import { PlansPage } from '../features/billing/plans-page';
import { writeSession } from '../lib/storage';
import { createPlan, createSessionUser, createUser } from './fixtures';
import { json } from './http';
import { renderWithProviders } from './render';

const plan = (id: number, name: string, value: number): Plan =>
  createPlan({ id, name, value, connections: 2, useCampaigns: true, useInternalChat: true, useKanban: true });

/** The plans the billing pages offer: a free trial (1), a basic (2) and a full one (3). */
export const BILLING_PLANS = [
  plan(1, 'Teste Gratis', 0),
  plan(2, 'Básico', 99.9),
  plan(3, 'Completo', 199.9),
];

/** GET /companies/listPlan answer of company 1 on `plan` (due date in the future unless given). */
export const listPlan = (
  plan: Plan,
  dueDate: string | null = '2030-12-31T00:00:00.000Z',
): ListPlanResponse => ({ id: 1, dueDate, plan, effectiveFeatures: {}, effectiveModules: {} });

/**
 * The answers of GET and PUT /users/{id} for the billing dialog: the signed-in user with `saved`
 * billing fields (none by default); a PUT answers what it was sent. Undefined for other URLs.
 */
export function answerUser(
  url: string,
  init: RequestInit | undefined,
  saved: Partial<PublicUser> = {},
): Response | undefined {
  const match = /^\/api\/users\/(\d+)$/.exec(url);
  if (!match) return undefined;
  const user = createUser({ id: Number(match[1]), ...saved });
  const body = init?.method === 'PUT' ? JSON.parse(String(init.body)) : {};
  return json(200, { ...user, ...body });
}

/** An open, manual, monthly invoice of company 1 for the Básico plan (2), due 2030-01-01; `overrides` win. */
export const billingInvoice = (overrides: Partial<Invoice> = {}): Invoice => ({
  id: 1,
  companyId: 1,
  planId: 2,
  detail: 'Básico #2 MENSAL',
  value: 99.9,
  dueDate: '2030-01-01T00:00:00.000Z',
  status: 'open',
  period: 'MENSAL',
  provider: 'manual',
  pixCode: null,
  paymentLink: null,
  paidAt: null,
  createdAt: '2029-01-01T00:00:00.000Z',
  updatedAt: '2029-01-01T00:00:00.000Z',
  ...overrides,
});

/** A complete billing profile (GET /billing/profile) of company 1, Acme, with a valid CPF. */
export const BILLING_PROFILE = {
  name: 'Acme',
  email: 'a@acme.test',
  phone: '(11) 98765-4321',
  cnpjCpf: '295.379.955-93',
  address: 'Rua A',
  city: 'São Paulo',
  state: 'SP',
  zipcode: '01001-000',
  country: 'BR',
};

/** What {@link answerPlansPage} answers with. */
export interface PlansPageAnswers {
  /** The company's plan (default the Básico one, 2). */
  plan?: Plan;
  /** GET /invoices/all's answer (default none). */
  invoices?: Invoice[];
  /** GET /billing/info says the CRM provider; without it that URL is not answered. */
  crm?: boolean;
  /** GET /billing/profile's answer, and PUT answers what it was sent; absent, that URL is not answered. */
  profile?: unknown;
}

/**
 * The usual answers of the plans page's requests (GET /plans/list: BILLING_PLANS; GET
 * /companies/listPlan: company 1 on `plan`; GET /invoices/all; and as `answers` asks, /billing/info and
 * /billing/profile); undefined for other URLs.
 */
export function answerPlansPage(
  url: string,
  init: RequestInit | undefined,
  answers: PlansPageAnswers = {},
): Response | undefined {
  if (url === '/api/plans/list') return json(200, BILLING_PLANS);
  if (url.startsWith('/api/companies/listPlan/'))
    return json(200, listPlan(answers.plan ?? BILLING_PLANS[1]!));
  if (url.startsWith('/api/invoices/all')) return json(200, answers.invoices ?? []);
  if (answers.crm && url === '/api/billing/info') return json(200, { provider: 'crm', pixReady: false });
  if ('profile' in answers && url === '/api/billing/profile')
    return json(200, init?.method === 'PUT' ? JSON.parse(String(init.body)) : answers.profile);
  return undefined;
}

/**
 * Around every test of the calling `describe`: before it, the session of user 1 of company 1
 * (token 'tok') is the only thing stored; after it, the stubbed globals are restored.
 */
export function useBillingSession(): void {
  beforeEach(() => {
    localStorage.clear();
    writeSession('tok', 1, 1);
  });
  afterEach(() => vi.unstubAllGlobals());
}

/**
 * Renders the plans page for an admin of company 1 on the Básico plan (2), at `route` if given, with
 * window.open stubbed: returns that stub (payment links open through it) and a user-event session.
 */
export function renderPlansPage(route?: string) {
  const open = vi.fn();
  vi.stubGlobal('open', open);
  const user = userEvent.setup();
  renderWithProviders(<PlansPage />, { user: createSessionUser({ profile: 'admin' }, { id: 2 }), route });
  return { open, user };
}

/**
 * With the Pix screen of invoice 4 open: the payment event CONCLUIDA of that invoice (company 1, due
 * 2031-02-01) arrives, and the screen says the licence runs until 01/02/2031.
 */
export async function expectPixPaidOnConcluida(): Promise<void> {
  act(() =>
    applyPaymentEvent(
      new QueryClient(),
      { action: 'CONCLUIDA', invoiceId: 4, company: { id: 1, dueDate: '2031-02-01T12:00:00.000Z' } },
      null,
    ),
  );
  expect((await screen.findByTestId('pix-paid', {}, { timeout: 10_000 })).textContent).toContain(
    '01/02/2031',
  );
}
