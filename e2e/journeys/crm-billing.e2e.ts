/**
 * CRM billing journey (document 3 sections 2, 4, 7 and 8): the app bills through a fake Perfex CRM
 * on loopback (BILLING_PROVIDER=crm), and a company admin works the plans page in Portuguese. The
 * CRM unreachable at the customer lookup and the CRM refusing an invoice show the spec's messages
 * (the refusal with the CRM's own text); a subscription creates the CRM customer and invoice with
 * each step's toast and opens its payment link; with one paid and one open invoice, 'Mudar para
 * Anual' updates the open CRM invoice in place (a refused update shows the CRM's text), never a
 * second one; 'Cancelar Plano Atual' asks for confirmation and deletes it at the CRM.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { type FakeCrm, startFakeCrm } from '../../apps/server/src/test/fake-crm.js';
import { DEMO_ADMIN } from '../support/demo.js';
import {
  apiJson,
  apiLogin,
  closeJourney,
  openPage,
  pageToken,
  signUpCompany,
  startJourney,
} from '../support/journey.js';
import { signInAs, waitForPath } from '../support/pages.js';
import type { RunningServer } from '../support/server.js';

let server: RunningServer;
let browser: Browser;
let crm: FakeCrm;
let page: Page;
const stamp = Date.now().toString(36);
const company = `Loja CRM ${stamp}`;
const admin = { email: `crm-${stamp}@example.test`, password: 'Senha-forte-1' };

interface LocalInvoice {
  id: number;
  detail: string;
  status: string;
  value: number;
  provider: string;
}

/** The company's invoices as the API answers them to its admin. */
async function localInvoices(): Promise<LocalInvoice[]> {
  const { status, json } = await apiJson<LocalInvoice[]>(server.url, await pageToken(page), '/invoices/all');
  assert.equal(status, 200);
  return json;
}

/** A toast of `kind` showing `text`, as a locator (toasts close after 3 s: wait before acting). */
const toast = (kind: 'success' | 'error' | 'info' | 'warning', text: string) =>
  page.locator(`.Toastify__toast--${kind}`, { hasText: text }).first();

/**
 * Clicks `trigger`, then waits for every toast of `expected` (each watched from before the click,
 * so one that closes early is not missed).
 */
async function clickAndSee(
  trigger: () => Promise<void>,
  expected: [kind: 'success' | 'error' | 'info' | 'warning', text: string][],
): Promise<void> {
  const seen = Promise.all(expected.map(([kind, text]) => toast(kind, text).waitFor({ timeout: 20_000 })));
  await trigger();
  await seen;
}

/** Opens /planos and waits for the plan cards. */
async function openPlans(): Promise<void> {
  await page.goto(`${server.url}/planos`);
  await page.getByTestId('plan-card-Básico').waitFor();
}

/** The plan button of `plan` once its label is `label` (the invoices decide it). */
async function planButton(plan: string, label: string) {
  const button = page.getByTestId(`plan-button-${plan}`);
  await page.getByTestId(`plan-button-${plan}`).filter({ hasText: label }).waitFor();
  return button;
}

/** The billing dialog's 'Gerar Fatura', once the dialog shows. */
const generate = () => page.getByRole('button', { name: 'Gerar Fatura' });

before(async () => {
  crm = await startFakeCrm();
  ({ server, browser } = await startJourney({
    BILLING_PROVIDER: 'crm',
    CRM_URL: crm.url,
    CRM_TOKEN: crm.token,
  }));
  await signUpCompany(server.url, { name: company, ...admin });
  page = await openPage(browser);
  await signInAs(page, server.url, admin);
  // The spec's wording is Portuguese: the rest of the journey runs in pt.
  await page.evaluate(() => localStorage.setItem('i18nextLng', 'pt'));
});
after(() => closeJourney(browser, server, () => crm?.close()));

describe('plans page billed through a Perfex CRM', () => {
  it('an unreachable CRM at the customer lookup shows its message and opens no dialog', async () => {
    await openPlans();
    crm.failNext = { method: 'GET', path: '/api/customers/search/', answer: 'down' };
    const button = await planButton('Básico', 'Contratar');
    await clickAndSee(() => button.click(), [['error', 'Erro ao verificar dados no CRM.']]);
    assert.equal(crm.failNext, null, 'the lookup reached the CRM');
    assert.equal(await page.getByRole('dialog').count(), 0);
    assert.equal(crm.customers.length, 0);
  });

  it("a CRM refusing the invoice shows 'Erro ao criar fatura no Perfex CRM' with the CRM's text", async () => {
    await openPlans();
    await (await planButton('Básico', 'Contratar')).click();
    await generate().waitFor();
    await page.getByTestId('billing-phone').pressSequentially('11987654321');
    await page.getByTestId('billing-cnpjCpf').pressSequentially('29537995593');
    await page.getByTestId('billing-address').fill('Rua A, 1');
    await page.getByTestId('billing-city').fill('São Paulo');
    await page.getByTestId('billing-state').fill('SP');
    await page.getByTestId('billing-zipcode').pressSequentially('01001000');
    crm.failNext = {
      method: 'POST',
      path: '/api/invoices',
      answer: {
        status: 400,
        body: { status: false, message: '<p>The Invoice number is already in use</p>' },
      },
    };
    await clickAndSee(
      () => generate().click(),
      [
        ['success', 'Cliente integrado com sucesso ao Perfex CRM!'],
        ['error', 'Erro ao criar fatura no Perfex CRM: The Invoice number is already in use'],
      ],
    );
    // The customer exists at the CRM, no invoice does, here or there; the dialog stays to retry.
    assert.equal(crm.customers.length, 1);
    assert.equal(crm.crmInvoices.length, 0);
    assert.deepEqual(await localInvoices(), []);
    await generate().waitFor();
    await page.getByRole('button', { name: 'Voltar' }).click();
    await generate().waitFor({ state: 'detached' });
  });

  it("'Contratar' → 'Gerar Fatura' creates the CRM invoice, toasts each step and opens its payment link", async () => {
    await openPlans();
    await (await planButton('Básico', 'Contratar')).click();
    // The data the user saved on the first try fill the dialog again.
    await generate().waitFor();
    assert.equal(await page.getByTestId('billing-cnpjCpf').inputValue(), '295.379.955-93');
    const popup = page.context().waitForEvent('page');
    await clickAndSee(
      () => generate().click(),
      [
        ['success', 'Cliente atualizado com sucesso no Perfex CRM!'],
        ['success', 'Fatura criada com sucesso no Perfex CRM!'],
        ['success', 'Fatura gerada! Você será redirecionado.'],
      ],
    );
    await waitForPath(page, '/financeiro');
    const [created] = crm.crmInvoices;
    assert.equal(crm.crmInvoices.length, 1);
    assert.equal(created!.form.get('clientid'), crm.customers[0]!.userid);
    assert.equal(created!.form.get('newitems[0][description]'), 'Básico MENSAL');
    assert.equal(created!.form.get('total'), '99.90');
    assert.equal((await popup).url(), `${crm.url}/invoice/${created!.id}/${created!.hash}`);
    assert.equal(await page.evaluate(() => localStorage.getItem('crmClientId')), crm.customers[0]!.userid);
    const [local] = await localInvoices();
    assert.equal(local?.provider, 'crm');
    assert.equal(local?.status, 'open');
    await page.getByTestId(`invoice-${local!.id}`).filter({ hasText: 'Básico' }).waitFor();
  });

  it("with one paid and one open invoice, 'Mudar para Anual' updates the open CRM invoice, never a second one", async () => {
    // The super user confirms the first invoice: the company is on Básico, monthly.
    const superLogin = await apiLogin(server.url, DEMO_ADMIN);
    const [first] = await localInvoices();
    const paid = await apiJson(server.url, superLogin.token, `/invoices/${first!.id}/pay`, {
      method: 'POST',
      body: {},
    });
    assert.equal(paid.status, 200, JSON.stringify(paid.json));

    // A new open invoice (another plan) at the CRM.
    await openPlans();
    await (await planButton('Completo', 'Contratar')).click();
    await clickAndSee(() => generate().click(), [['success', 'Fatura gerada! Você será redirecionado.']]);
    await waitForPath(page, '/financeiro');
    assert.equal(crm.crmInvoices.length, 2);
    const open = crm.crmInvoices[1]!;

    // Paid Básico monthly and an open invoice: the annual period offers 'Mudar para Anual'.
    await openPlans();
    await page.getByTestId('period-annual').click();
    const toAnnual = await planButton('Básico', 'Mudar para Anual');

    // The CRM refusing the update: its text shows and the open invoice stays as it was.
    crm.failNext = {
      method: 'PUT',
      path: `/api/invoices/${open.id}`,
      answer: { status: 400, body: { status: false, message: 'Invoice is locked' } },
    };
    await toAnnual.click();
    await clickAndSee(
      () => generate().click(),
      [['error', 'Falha ao atualizar a fatura: Invoice is locked']],
    );
    assert.equal(crm.failNext, null);
    assert.match((await localInvoices()).find((i) => i.status === 'open')!.detail, /^Completo #\d+ MENSAL$/);
    await page.getByRole('button', { name: 'Voltar' }).click();
    await generate().waitFor({ state: 'detached' });

    // Again: the same CRM invoice gets the annual Básico item, the old item removed.
    await toAnnual.click();
    const popup = page.context().waitForEvent('page');
    await clickAndSee(
      () => generate().click(),
      [
        ['success', 'Cliente atualizado com sucesso no Perfex CRM!'],
        ['success', 'Plano atualizado! Você será redirecionado.'],
      ],
    );
    await waitForPath(page, '/financeiro');
    assert.equal(crm.crmInvoices.length, 2, 'no second open invoice at the CRM');
    assert.equal(open.updates.length, 1);
    const [update] = open.updates;
    assert.equal(update!.get('newitems[0][description]'), 'Básico ANUAL');
    assert.equal(update!.get('newitems[0][rate]'), '959.04');
    assert.equal(update!.get('recurring'), '12');
    assert.equal(update!.get('number'), open.number);
    assert.ok(update!.get('removed_items[0]'), 'the old item is removed');
    assert.equal((await popup).url(), `${crm.url}/invoice/${open.id}/${open.hash}`);
    const stillOpen = (await localInvoices()).filter((i) => i.status === 'open');
    assert.equal(stillOpen.length, 1);
    assert.match(stillOpen[0]!.detail, /^Básico #\d+ ANUAL$/);
    assert.equal(stillOpen[0]!.value, 959.04);
    await page.getByTestId(`invoice-${stillOpen[0]!.id}`).filter({ hasText: 'ANUAL' }).waitFor();
  });

  it("'Cancelar Plano Atual' asks for confirmation, then deletes the open invoice at the CRM", async () => {
    await openPlans();
    const [open] = (await localInvoices()).filter((i) => i.status === 'open');
    const crmOpen = crm.crmInvoices[1]!;
    await page.getByRole('button', { name: 'Cancelar Plano Atual' }).click();
    await page.getByText('Deseja realmente cancelar sua assinatura?').waitFor();
    await clickAndSee(
      () => page.getByRole('button', { name: 'Sim, Cancelar Assinatura' }).click(),
      [
        ['info', 'Processando seu pedido de cancelamento...'],
        ['success', 'Sua assinatura foi cancelada com sucesso.'],
      ],
    );
    await waitForPath(page, '/financeiro');
    assert.ok(
      crm.seen.some((r) => r.method === 'DELETE' && r.url === `/api/invoices/${crmOpen.id}`),
      'the CRM invoice is deleted',
    );
    const cancelled = (await localInvoices()).find((i) => i.id === open!.id);
    assert.equal(cancelled?.status, 'cancelled');
    assert.match(cancelled!.detail, /CANCELADO$/);
  });
});
