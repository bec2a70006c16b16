import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BillingProfile, Invoice } from '@zapdesk/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BILLING_PLANS, billingInvoice, expectPixPaidOnConcluida } from '../../test/billing';
import { createSessionUser } from '../../test/fixtures';
import { json, stubFetchNow } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import CheckoutDialog, { checkoutDataErrors } from './checkout-dialog';
import { InvoicesPage } from './invoices-page';

const PLANS = BILLING_PLANS;

const OPEN: Invoice = billingInvoice({ id: 4 });

const PROFILE: BillingProfile = {
  name: 'Ana Lima',
  email: 'ana@empresa.test',
  phone: '(41) 99999-0000',
  cnpjCpf: '529.982.247-25',
  address: 'Rua A, 1',
  city: 'Curitiba',
  state: 'PR',
  zipcode: '80000-000',
  country: 'BR',
};

/** Fake API: records POST /subscription bodies and answers the Pix data. */
function stubApi(profile: BillingProfile | null) {
  const posted: Record<string, unknown>[] = [];
  stubFetchNow(async ({ url, init }) => {
    if (url.startsWith('/api/invoices/all')) return json(200, [OPEN]);
    if (url.startsWith('/api/plans/list')) return json(200, PLANS);
    if (url.startsWith('/api/billing/profile')) return json(200, profile);
    if (url === '/api/subscription') {
      posted.push(JSON.parse(String(init?.body)));
      return json(200, {
        invoice: OPEN,
        qrcode: { qrcode: '00020126...6304ABCD' },
        valor: { original: '99.90' },
        paymentLink: null,
      });
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
  return posted;
}

const fill = async (user: ReturnType<typeof userEvent.setup>, testId: string, value: string) => {
  const input = screen.getByTestId(testId);
  await user.clear(input);
  if (value) await user.type(input, value);
};

describe('checkout step 0 validation (document 3 section 5)', () => {
  const valid = {
    firstName: 'Ana',
    lastName: '',
    address2: 'Rua A, 1',
    city: 'Curitiba',
    state: '',
    zipcode: '80000-000',
    country: 'BR',
    useAddressForPaymentDetails: false,
  };

  it('requires firstName, address2, city, zipcode and country only', () => {
    expect(checkoutDataErrors(valid)).toEqual({});
    expect(
      checkoutDataErrors({ ...valid, firstName: ' ', address2: '', city: '', zipcode: '', country: '' }),
    ).toEqual({
      firstName: 'billing.required',
      address2: 'billing.required',
      city: 'billing.required',
      zipcode: 'billing.required',
      country: 'billing.required',
    });
    expect(checkoutDataErrors({ ...valid, zipcode: '1'.repeat(11) })).toEqual({
      zipcode: 'validation.tooLong',
    });
  });
});

describe('checkout dialog', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('pays an open invoice: starts at step 1, validates step 0, reviews, then the Pix screen', {
    timeout: 40_000,
  }, async () => {
    const posted = stubApi(null);
    const user = userEvent.setup();
    renderWithProviders(<InvoicesPage />, { user: createSessionUser({ profile: 'admin' }) });
    await user.click(await screen.findByTestId('pay-4'));

    // The form starts at step 1 with the invoice's plan; the stepper names the three steps.
    const step1 = await screen.findByTestId('checkout-step-1', {}, { timeout: 10_000 });
    expect(within(step1).getByTestId('checkout-invoice').textContent).toBe('Básico #2 MENSAL');
    for (const label of ['Data', 'Customize', 'Review']) expect(screen.getByText(label)).toBeTruthy();

    // Step 0: the five required fields refuse to go on while empty; optional ones show no error.
    await user.click(screen.getByTestId('checkout-back'));
    await screen.findByTestId('checkout-step-0');
    await user.click(screen.getByTestId('checkout-next'));
    expect(await screen.findByText('Please fill in all required fields.')).toBeTruthy();
    expect(screen.getByTestId('checkout-step-0')).toBeTruthy();
    expect(screen.getAllByText('Required')).toHaveLength(4); // firstName, address2, city, zipcode
    await fill(user, 'checkout-firstName', 'Ana');
    await fill(user, 'checkout-address2', 'Rua A, 1');
    await fill(user, 'checkout-city', 'Curitiba');
    expect(screen.getAllByText('Required')).toHaveLength(1);
    await user.click(screen.getByTestId('checkout-next'));
    expect(screen.getByTestId('checkout-step-0')).toBeTruthy();
    await fill(user, 'checkout-zipcode', '80000-000');
    expect(screen.queryAllByText('Required')).toHaveLength(0);
    await user.click(screen.getByTestId('checkout-next'));
    await screen.findByTestId('checkout-step-1');
    await user.click(screen.getByTestId('checkout-next'));

    // Step 2 review: the invoice's value and the data typed.
    const review = await screen.findByTestId('checkout-step-2');
    expect(within(review).getByTestId('checkout-total').textContent).toMatch(/R\$\s?99,90/);
    expect(within(review).getByTestId('checkout-review-data').textContent).toContain('Rua A, 1, Curitiba');
    await user.click(screen.getByTestId('checkout-submit'));

    expect(await screen.findByTestId('pix-qr', {}, { timeout: 10_000 })).toBeTruthy();
    expect(posted).toEqual([
      {
        firstName: 'Ana',
        address2: 'Rua A, 1',
        city: 'Curitiba',
        zipcode: '80000-000',
        country: 'BR',
        invoiceId: 4,
        price: 99.9,
        users: 5,
        connections: 2,
      },
    ]);
    await expectPixPaidOnConcluida();
  });

  it('chooses a plan and period when no invoice is given; data prefilled from the billing profile', {
    timeout: 30_000,
  }, async () => {
    const posted = stubApi(PROFILE);
    const onSubmitted = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<CheckoutDialog invoice={null} onClose={() => {}} onSubmitted={onSubmitted} />, {
      user: createSessionUser({ profile: 'admin' }),
    });
    await screen.findByTestId('checkout-plan-3');
    expect(screen.queryByTestId('checkout-plan-1')).toBeNull(); // 'Teste Gratis' hidden
    await user.click(screen.getByTestId('checkout-next'));
    expect(await screen.findByText('Choose a plan.')).toBeTruthy();
    expect(screen.getByTestId('checkout-step-1')).toBeTruthy();

    await user.click(screen.getByText('Annual'));
    await user.click(screen.getByLabelText('Completo'));
    await user.click(screen.getByTestId('checkout-back'));
    expect((screen.getByTestId('checkout-firstName') as HTMLInputElement).value).toBe('Ana');
    expect((screen.getByTestId('checkout-lastName') as HTMLInputElement).value).toBe('Lima');
    await user.click(screen.getByTestId('checkout-next'));
    await user.click(screen.getByTestId('checkout-next'));
    // Annual = 12 × 199.90 × 0.8.
    expect((await screen.findByTestId('checkout-total')).textContent).toMatch(/R\$\s?1\.919,04/);
    await user.click(screen.getByTestId('checkout-submit'));
    await vi.waitFor(() => expect(onSubmitted).toHaveBeenCalled());
    expect(posted[0]).toMatchObject({ plan: 3, period: 'ANUAL', price: 1919.04, users: 5, connections: 2 });
    expect(posted[0]).toMatchObject({ firstName: 'Ana', lastName: 'Lima', state: 'PR' });
    expect(Object.keys(posted[0]!)).not.toContain('cardNumber');
  });
});
