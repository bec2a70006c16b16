import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Invoice } from '@zapdesk/shared';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api';
import {
  answerPlansPage,
  answerUser,
  BILLING_PROFILE,
  billingInvoice,
  useBillingSession,
} from '../../test/billing';
import { createSessionUser } from '../../test/fixtures';
import { json, stubFetchNow } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { cancellationErrorKey } from './crm-flow';
import { PlansPage } from './plans-page';

/** A paid and an open CRM invoice of `planId`: the company is subscribed to it. */
const subscribed = (planId: number | null): Invoice[] => [
  billingInvoice({ id: 5, planId, provider: 'crm' }),
  billingInvoice({
    id: 4,
    planId,
    provider: 'crm',
    status: 'paid',
    updatedAt: '2029-02-01T00:00:00.000Z',
    paidAt: '2029-02-01T00:00:00.000Z',
  }),
];

/** Stubs fetch with the plans page's answers; `cancel` answers PUT /crm-update-invoice. */
function stubApi(invoices: Invoice[], cancel: () => Response, listPlanAnswer?: () => Response) {
  const calls: string[] = [];
  stubFetchNow(async ({ url, method, init }) => {
    calls.push(`${method} ${url}`);
    const user = answerUser(url, init);
    if (user) return user;
    if (url === '/api/crm-update-invoice') return cancel();
    if (listPlanAnswer && url.startsWith('/api/companies/listPlan/')) return listPlanAnswer();
    if (url === '/api/billing/profile') return json(200, BILLING_PROFILE);
    return answerPlansPage(url, init, { invoices, crm: true }) ?? json(404, { error: 'ERR_NOT_FOUND' });
  });
  return calls;
}

describe('cancellation messages (document 3 section 8)', () => {
  useBillingSession();

  it('names the message of each failure: authentication, no invoice, anything else', () => {
    expect(cancellationErrorKey(new ApiError(401, { error: 'ERR_SESSION_EXPIRED' }))).toBe(
      'billing.cancelAuthError',
    );
    expect(cancellationErrorKey(new ApiError(403, { error: 'ERR_SESSION_EXPIRED' }))).toBe(
      'billing.cancelAuthError',
    );
    expect(cancellationErrorKey(new ApiError(404, { error: 'ERR_NO_INVOICE_FOUND' }))).toBe(
      'billing.cancelNoInvoice',
    );
    expect(cancellationErrorKey(new ApiError(502, { error: 'ERR_CRM_INVOICE_API' }))).toBe(
      'billing.cancelFailed',
    );
    expect(cancellationErrorKey(new TypeError('Failed to fetch'))).toBe('billing.cancelFailed');
  });

  it("a CRM failure while cancelling shows 'The cancellation failed.' after the processing toast", {
    timeout: 40_000,
  }, async () => {
    const calls = stubApi(subscribed(2), () => json(502, { error: 'ERR_CRM_INVOICE_API' }));
    const user = userEvent.setup();
    renderWithProviders(<PlansPage />, { user: createSessionUser({ profile: 'admin' }, { id: 2 }) });
    await user.click(await screen.findByRole('button', { name: 'Cancel Current Plan' }));
    await user.click(await screen.findByRole('button', { name: 'Yes, Cancel Subscription' }));
    expect(await screen.findByText('Processing your cancellation request...')).toBeTruthy();
    expect(await screen.findByText('The cancellation failed.')).toBeTruthy();
    expect(screen.queryByText('Your subscription was cancelled.')).toBeNull();
    expect(calls).toContain('PUT /api/crm-update-invoice');
  });

  it('without a current plan it says so and sends no cancellation', { timeout: 40_000 }, async () => {
    const calls = stubApi(
      subscribed(null),
      () => json(200, { message: 'ok', link: null }),
      () => json(404, { error: 'ERR_NO_PLAN_FOUND' }),
    );
    const user = userEvent.setup();
    renderWithProviders(<PlansPage />, { user: createSessionUser({ profile: 'admin' }, null) });
    await user.click(await screen.findByRole('button', { name: 'Cancel Current Plan' }));
    await user.click(await screen.findByRole('button', { name: 'Yes, Cancel Subscription' }));
    expect(
      await screen.findByText('Could not identify your current plan for the cancellation.'),
    ).toBeTruthy();
    expect(calls).not.toContain('PUT /api/crm-update-invoice');
  });
});
