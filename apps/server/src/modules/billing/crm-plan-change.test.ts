/**
 * CRM billing against the fake Perfex CRM: changing the plan or period of a subscribed company
 * updates its open invoice instead of adding a second one (which would block every plan button),
 * and every CRM failure answers its own catalogue code with the CRM's text as bounded plain text.
 */
import { PROVIDER_MESSAGE_MAX, subscriptionState } from '@zapdesk/shared';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { companies, invoices, plans } from '../../db/schema/index.js';
import { CRM_BILLING_ADDRESS, CRM_CUSTOMER, call, crm, t, useCrmSuite } from '../../test/crm-suite.js';
import { createTenant, type TenantFixture } from '../../test/factories.js';
import { VALID_BILLING_PROFILE } from '../../test/fixtures.js';

let basic: { id: number; name: string; value: number };
let full: { id: number; name: string; value: number };

useCrmSuite();
beforeAll(async () => {
  const rows = await t.app.ctx.db.select().from(plans);
  basic = rows.find((p) => p.name === 'Básico')!;
  full = rows.find((p) => p.name === 'Completo')!;
});

/** A company on the Básico plan with a billing profile and its CRM customer. */
async function crmCompany(): Promise<TenantFixture> {
  const tenant = await createTenant(t.app);
  await t.app.ctx.db.update(companies).set({ planId: basic.id }).where(eq(companies.id, tenant.companyId));
  await call(tenant, 'PUT', '/api/billing/profile', VALID_BILLING_PROFILE);
  expect((await call(tenant, 'POST', '/api/crm-create-customer', CRM_CUSTOMER)).statusCode).toBe(200);
  return tenant;
}

describe('changing plan or period of a subscribed company', () => {
  it('updates the open invoice in place: one open invoice, payable, and the plan buttons work again', async () => {
    const c = await crmCompany();
    // Subscribed: a paid invoice of the company's plan and an open one (the next period's).
    await t.app.ctx.db.insert(invoices).values({
      companyId: c.companyId,
      planId: basic.id,
      detail: `Básico #${basic.id} MENSAL`,
      value: basic.value,
      dueDate: new Date(Date.now() - 86_400_000),
      status: 'paid',
      provider: 'crm',
      paidAt: new Date(),
    });
    const first = await call(c, 'POST', '/api/crm-create-invoice', {
      planId: basic.id,
      ...CRM_BILLING_ADDRESS,
    });
    expect(first.statusCode).toBe(200);
    const openId = first.json().invoiceId as number;
    const crmInvoice = crm.crmInvoices.at(-1)!;
    const createdAtCrm = crm.crmInvoices.length;

    // 'Mudar para Anual' -> 'Gerar Fatura'.
    const toAnnual = await call(c, 'PUT', '/api/crm-update-invoice', {
      invoiceData: {
        status: 'open',
        detail: `Básico #${basic.id} ANUAL`,
        value: 1,
        planId: basic.id,
        period: 'ANUAL',
        recurring: '12',
      },
      companyInfo: { companyId: 99_999, name: 'x', billing_street: 'Rua A, 1' },
    });
    expect(toAnnual.statusCode).toBe(200);
    expect(toAnnual.json().link).toBe(first.json().link);
    expect(crm.crmInvoices).toHaveLength(createdAtCrm);
    expect(crmInvoice.updates.at(-1)!.get('newitems[0][rate]')).toBe('959.04');

    const list = (await call(c, 'GET', '/api/invoices/all')).json() as {
      id: number;
      status: 'open' | 'paid' | 'cancelled';
      planId: number | null;
      detail: string;
      updatedAt: string;
    }[];
    const open = list.filter((i) => i.status === 'open');
    expect(open.map((i) => i.id)).toEqual([openId]);
    expect(open[0]!.detail).toBe(`Básico #${basic.id} ANUAL`);
    expect(list.filter((i) => i.status === 'cancelled')).toEqual([]);
    // The page's state: still subscribed to the current plan, nothing pending beyond the limit.
    expect(subscriptionState(list, basic.id)).toMatchObject({ subscribed: true, inconsistent: false });

    // /financeiro's way to pay the updated invoice: its payment link by its detail.
    const verify = await call(
      c,
      'GET',
      `/api/crm-verify-invoice?name=${encodeURIComponent(open[0]!.detail)}`,
    );
    expect(verify.json()).toEqual({ exists: true, link: first.json().link });

    // Another change works as well ('Mudar Plano'), read from the spec's detail alone.
    const toFull = await call(c, 'PUT', '/api/crm-update-invoice', {
      invoiceData: { status: 'open', detail: `Completo #${full.id} MENSAL` },
    });
    expect(toFull.statusCode).toBe(200);
    const after = await call(c, 'GET', `/api/invoices/${openId}`);
    expect(after.json()).toMatchObject({
      status: 'open',
      planId: full.id,
      period: 'MENSAL',
      value: full.value,
    });
    const opens = await t.app.ctx.db.select().from(invoices).where(eq(invoices.companyId, c.companyId));
    expect(opens.filter((i) => i.status === 'open')).toHaveLength(1);
  });

  it('creates the invoice at the CRM again when the CRM no longer has the open one', async () => {
    const c = await crmCompany();
    const first = await call(c, 'POST', '/api/crm-create-invoice', {
      planId: basic.id,
      ...CRM_BILLING_ADDRESS,
    });
    crm.crmInvoices.pop();
    const before = crm.crmInvoices.length;
    const res = await call(c, 'PUT', '/api/crm-update-invoice', {
      invoiceData: { status: 'open', planId: full.id, period: 'ANUAL' },
    });
    expect(res.statusCode).toBe(200);
    expect(crm.crmInvoices).toHaveLength(before + 1);
    const row = await call(c, 'GET', `/api/invoices/${first.json().invoiceId}`);
    expect(row.json()).toMatchObject({ status: 'open', planId: full.id, paymentLink: res.json().link });
  });
});

describe('the CRM messages reach the user', () => {
  it('a refused invoice answers ERR_CRM_CREATE_INVOICE with the CRM text as plain, bounded text', async () => {
    const c = await crmCompany();
    crm.nextWrite = {
      status: 404,
      body: { status: false, message: '<p>The Client field is required.</p>\n<script>x</script>' },
    };
    const res = await call(c, 'POST', '/api/crm-create-invoice', {
      planId: basic.id,
      ...CRM_BILLING_ADDRESS,
    });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({
      error: 'ERR_CRM_CREATE_INVOICE',
      message: 'The Client field is required. x',
    });
    crm.nextWrite = { status: 400, body: { status: false, message: 'é'.repeat(2000) } };
    const long = await call(c, 'POST', '/api/crm-create-invoice', {
      planId: basic.id,
      ...CRM_BILLING_ADDRESS,
    });
    expect(long.json().message.length).toBe(PROVIDER_MESSAGE_MAX);
    // Nothing was kept locally for a refused invoice.
    const rows = await t.app.ctx.db.select().from(invoices).where(eq(invoices.companyId, c.companyId));
    expect(rows).toEqual([]);
  });

  it('an unreachable invoice API answers ERR_CRM_INVOICE_API', async () => {
    const c = await crmCompany();
    crm.nextWrite = 'down';
    const res = await call(c, 'POST', '/api/crm-create-invoice', {
      planId: basic.id,
      ...CRM_BILLING_ADDRESS,
    });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ error: 'ERR_CRM_INVOICE_API' });
  });

  it('customer failures answer ERR_CRM_VERIFY, a customer not found after creation ERR_CRM_CUSTOMER_ID', async () => {
    const c = await createTenant(t.app);
    crm.nextWrite = { status: 400, body: { status: false, message: 'The company field is required.' } };
    const refused = await call(c, 'POST', '/api/crm-create-customer', CRM_CUSTOMER);
    expect(refused.json()).toEqual({ error: 'ERR_CRM_VERIFY', message: 'The company field is required.' });
    // The CRM says yes but the customer cannot be found afterwards.
    crm.nextWrite = { status: 200, body: { status: true, message: 'Client add successful.' } };
    const lost = await call(c, 'POST', '/api/crm-create-customer', CRM_CUSTOMER);
    expect(lost.statusCode).toBe(502);
    expect(lost.json()).toEqual({ error: 'ERR_CRM_CUSTOMER_ID' });
    crm.nextWrite = 'down';
    await call(c, 'POST', '/api/crm-create-customer', CRM_CUSTOMER).then((r) =>
      expect(r.json()).toEqual({ error: 'ERR_CRM_VERIFY' }),
    );
  });

  it('a refused update answers ERR_CRM_UPDATE_INVOICE and keeps the open invoice as it was', async () => {
    const c = await crmCompany();
    const first = await call(c, 'POST', '/api/crm-create-invoice', {
      planId: basic.id,
      ...CRM_BILLING_ADDRESS,
    });
    crm.nextWrite = { status: 400, body: { status: false, message: 'Invoice number exists' } };
    const res = await call(c, 'PUT', '/api/crm-update-invoice', {
      invoiceData: { status: 'open', planId: full.id, period: 'ANUAL' },
    });
    expect(res.json()).toEqual({ error: 'ERR_CRM_UPDATE_INVOICE', message: 'Invoice number exists' });
    const row = await call(c, 'GET', `/api/invoices/${first.json().invoiceId}`);
    expect(row.json()).toMatchObject({ planId: basic.id, period: 'MENSAL', status: 'open' });
  });

  it('an invoice created at the CRM but not saved here answers ERR_CRM_INVOICE_NOT_SAVED with its link', async () => {
    const c = await crmCompany();
    const insert = vi.spyOn(t.app.ctx.db, 'insert').mockImplementationOnce(() => {
      throw new Error('database gone');
    });
    try {
      const res = await call(c, 'POST', '/api/crm-create-invoice', {
        planId: basic.id,
        ...CRM_BILLING_ADDRESS,
      });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({
        error: 'ERR_CRM_INVOICE_NOT_SAVED',
        link: `${crm.url}/invoice/${crm.crmInvoices.at(-1)!.id}/h4sh`,
      });
    } finally {
      insert.mockRestore();
    }
  });
});
