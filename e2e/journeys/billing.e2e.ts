/**
 * Billing journey (manual provider): the super user sets the platform Pix key; a
 * company admin subscribes to a plan on /planos (billing data with masks, CPF check digits), sees
 * the Pix QR and its 'copia e cola'; the super user marks the invoice paid on /financeiro; the
 * admin's checkout says the licence is renewed and the due date in the top bar moves. Then the
 * admin, whose billing data were saved on its user record and fill the dialog again, pays an open
 * invoice from /financeiro through the three-step checkout dialog (document 3 sections 2, 4 and 5).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { DEMO_ADMIN } from '../support/demo.js';
import { closeJourney, openPage, signUpCompany, startJourney } from '../support/journey.js';
import { signInAs, waitForPath } from '../support/pages.js';
import type { RunningServer } from '../support/server.js';

let server: RunningServer;
let browser: Browser;
let superPage: Page;
let adminPage: Page;
const stamp = Date.now().toString(36);
const company = `Loja ${stamp}`;
const admin = { email: `dono-${stamp}@example.test`, password: 'Senha-forte-1' };

/** The dd/MM/yyyy date in the top bar greeting ('Active until ...'). */
/**
 * Waits for the Pix QR code after 'generate'; an error toast instead fails at once with its text
 * (a refused billing form or a failed call), not after the whole timeout.
 */
async function waitForPixQr(page: Page): Promise<void> {
  const qr = page.getByTestId('pix-qr').locator('svg');
  const error = page.locator('.Toastify__toast--error').first();
  await qr.or(error).first().waitFor({ timeout: 45_000 });
  if (await error.isVisible()) assert.fail(`no Pix QR code: ${await error.textContent()}`);
  await qr.waitFor();
}

const greetingDate = async (page: Page) => {
  const text = (await page.getByTestId('greeting').textContent()) ?? '';
  return /(\d{2}\/\d{2}\/\d{4})/.exec(text)?.[1] ?? '';
};

before(async () => {
  ({ server, browser } = await startJourney());
  superPage = await openPage(browser);
  adminPage = await openPage(browser);
  await signUpCompany(server.url, { name: company, ...admin });
  await signInAs(superPage, server.url, DEMO_ADMIN);
  await signInAs(adminPage, server.url, admin);
});
after(() => closeJourney(browser, server));

describe('billing', () => {
  it('a company admin pays a plan by Pix, the super user confirms it and the due date moves', async () => {
    // The super user sets the platform's Pix receiver.
    await superPage.goto(`${server.url}/financeiro`);
    await superPage.getByTestId('admin-invoices').waitFor();
    await superPage.getByTestId('pix-pixKey').fill('financeiro@zapdesk.test');
    await superPage.getByTestId('pix-merchantName').fill('Zapdesk');
    await superPage.getByTestId('pix-merchantCity').fill('Sao Paulo');
    await superPage.getByTestId('pix-save').click();
    await superPage.locator('.Toastify__toast', { hasText: 'Pix data saved' }).waitFor();

    const before = await greetingDate(adminPage);
    assert.match(before, /\d{2}\/\d{2}\/\d{4}/);

    await adminPage.goto(`${server.url}/planos`);
    await adminPage.getByTestId('plan-card-Básico').waitFor();
    assert.equal(await adminPage.getByTestId('plan-card-Teste Gratis').count(), 0);
    assert.match(
      (await adminPage.getByTestId('plan-card-Básico').getByTestId('plan-price').textContent()) ?? '',
      /99,90/,
    );
    await adminPage.getByTestId('period-annual').click();
    await adminPage.getByTestId('save-chip').waitFor();
    assert.match(
      (await adminPage.getByTestId('plan-card-Básico').getByTestId('plan-price').textContent()) ?? '',
      /959,04/,
    );
    await adminPage.getByTestId('period-monthly').click();
    await adminPage.getByTestId('plan-button-Básico').click();

    // Billing data: masked inputs; an invalid CPF shows the spec's message.
    await adminPage.getByTestId('billing-phone').pressSequentially('11987654321');
    assert.equal(await adminPage.getByTestId('billing-phone').inputValue(), '(11) 98765-4321');
    await adminPage.getByTestId('billing-cnpjCpf').pressSequentially('11111111111');
    await adminPage.getByText('Invalid CPF or CNPJ').waitFor();
    await adminPage.getByTestId('billing-cnpjCpf').fill('');
    await adminPage.getByTestId('billing-cnpjCpf').pressSequentially('29537995593');
    assert.equal(await adminPage.getByTestId('billing-cnpjCpf').inputValue(), '295.379.955-93');
    assert.equal(await adminPage.getByText('Invalid CPF or CNPJ').count(), 0);
    await adminPage.getByTestId('billing-address').fill('Rua A, 1');
    await adminPage.getByTestId('billing-city').fill('São Paulo');
    await adminPage.getByTestId('billing-state').fill('SP');
    await adminPage.getByTestId('billing-zipcode').pressSequentially('01001000');
    assert.equal(await adminPage.getByTestId('billing-zipcode').inputValue(), '01001-000');
    await adminPage.getByTestId('billing-generate').click();

    // The Pix checkout: QR code and 'copia e cola' of the invoice value.
    await waitForPixQr(adminPage);
    const code = await adminPage.getByTestId('pix-code').inputValue();
    assert.match(code, /^000201/);
    assert.match(code, /financeiro@zapdesk\.test/);
    assert.match(code, /540599\.90/);
    assert.match((await adminPage.getByTestId('pix-value').textContent()) ?? '', /99,90/);

    // The super user confirms the payment.
    await superPage.reload();
    const row = superPage.locator('[data-testid^="admin-invoice-"]', { hasText: company });
    await row.waitFor();
    await row.getByRole('button').click();
    await superPage.locator('.Toastify__toast', { hasText: 'Payment confirmed' }).waitFor();

    // The admin's checkout shows the renewed due date and the top bar moves.
    await adminPage.getByTestId('pix-paid').waitFor({ timeout: 10_000 });
    await adminPage.waitForFunction(
      (old) => !document.querySelector('[data-testid="greeting"]')?.textContent?.includes(old),
      before,
      { timeout: 10_000 },
    );
    const after = await greetingDate(adminPage);
    assert.notEqual(after, before);
    assert.match(
      (await adminPage.getByTestId('pix-paid').textContent()) ?? '',
      new RegExp(after.replace(/\//g, '\\/')),
    );
    const [d1, m1, y1] = before.split('/').map(Number);
    const [d2, m2, y2] = after.split('/').map(Number);
    const diffDays = (Date.UTC(y2!, m2! - 1, d2!) - Date.UTC(y1!, m1! - 1, d1!)) / 86_400_000;
    assert.ok(diffDays >= 28 && diffDays <= 31, `moved ${diffDays} days`);
    await waitForPath(adminPage, '/', 10_000);
  });

  it('a company admin pays an open invoice through the checkout dialog on /financeiro', async () => {
    // An open invoice of another plan, created on /planos (billing data saved by the first test).
    await adminPage.goto(`${server.url}/planos`);
    await adminPage.getByTestId('plan-button-Completo').click();
    // The billing data the admin typed were saved on its user record, and the dialog starts from it.
    const own = await adminPage.evaluate(async () => {
      const res = await fetch(`/api/users/${localStorage.getItem('userId')}`, {
        headers: { authorization: `Bearer ${localStorage.getItem('token')}` },
      });
      return (await res.json()) as Record<string, string>;
    });
    assert.equal(own.phone, '(11) 98765-4321');
    assert.equal(own.cnpjCpf, '295.379.955-93');
    assert.equal(own.address, 'Rua A, 1');
    assert.equal(own.zipcode, '01001-000');
    assert.equal(await adminPage.getByTestId('billing-cnpjCpf').inputValue(), '295.379.955-93');
    assert.equal(await adminPage.getByTestId('billing-address').inputValue(), 'Rua A, 1');
    await adminPage.getByTestId('billing-generate').click();
    await waitForPixQr(adminPage);
    await adminPage.getByRole('button', { name: 'Close' }).click();

    await adminPage.goto(`${server.url}/financeiro`);
    const row = adminPage.locator('[data-testid^="invoice-"]', { hasText: 'Completo' });
    await row.waitFor();
    await row.getByRole('button', { name: 'Pay' }).click();

    // Step 1 first (the invoice's plan), then back to step 0, prefilled from the billing data.
    await adminPage.getByTestId('checkout-step-1').waitFor();
    await adminPage.getByTestId('checkout-back').click();
    await adminPage.getByTestId('checkout-step-0').waitFor();
    assert.equal(await adminPage.getByTestId('checkout-firstName').inputValue(), 'Loja');
    assert.equal(await adminPage.getByTestId('checkout-city').inputValue(), 'São Paulo');
    await adminPage.getByTestId('checkout-city').fill('');
    await adminPage.getByTestId('checkout-next').click();
    await adminPage.getByText('Required', { exact: true }).waitFor();
    await adminPage.getByTestId('checkout-step-0').waitFor();
    await adminPage.getByTestId('checkout-city').fill('Campinas');
    await adminPage.getByTestId('checkout-next').click();
    await adminPage.getByTestId('checkout-next').click();
    const review = adminPage.getByTestId('checkout-step-2');
    await review.waitFor();
    assert.match((await review.textContent()) ?? '', /Campinas/);
    assert.match((await adminPage.getByTestId('checkout-total').textContent()) ?? '', /199,90/);
    await adminPage.getByTestId('checkout-submit').click();

    // The Pix screen of that invoice; the super user confirms it; renewed, then /.
    await adminPage.getByTestId('pix-qr').locator('svg').waitFor();
    assert.match(await adminPage.getByTestId('pix-code').inputValue(), /5406199\.90/);
    await superPage.reload();
    const open = superPage.locator('[data-testid^="admin-invoice-"]', { hasText: company });
    await open.waitFor();
    await open.getByRole('button').click();
    await adminPage.getByTestId('pix-paid').waitFor({ timeout: 10_000 });
    await waitForPath(adminPage, '/', 10_000);
  });
});
