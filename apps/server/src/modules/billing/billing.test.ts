import { eq } from 'drizzle-orm';
import { parsePix } from 'pix-utils';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { companies, invoicePayments, plans } from '../../db/schema/index.js';
import { inject, t, useAppSuite } from '../../test/app-suite.js';
import {
  bearer,
  createTenant,
  createUser,
  setDueDate,
  type TenantFixture,
  type TestUser,
} from '../../test/factories.js';
import { VALID_BILLING_PROFILE } from '../../test/fixtures.js';
import { confirmInvoicePayment } from './billing-service.js';

let superUser: TestUser;
let planId: number;
let trialId: number;
const PLAN_VALUE = 199.9;

const dueDateOf = async (companyId: number) => {
  const [row] = await t.app.ctx.db
    .select({ dueDate: companies.dueDate, planId: companies.planId })
    .from(companies)
    .where(eq(companies.id, companyId));
  return row!;
};

const subscribeCall = (user: TestUser, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/subscription', headers: bearer(user), payload });

useAppSuite();
beforeAll(async () => {
  const owner = await createTenant(t.app);
  superUser = await createUser(t.app, owner.companyId, { profile: 'admin', super: true });
  const rows = await t.app.ctx.db.select().from(plans);
  planId = rows.find((p) => p.name === 'Completo')!.id;
  trialId = rows.find((p) => p.name === 'Teste Gratis')!.id;
});

describe('manual provider', () => {
  let tenant: TenantFixture;
  beforeAll(async () => {
    tenant = await createTenant(t.app);
  });

  it('refuses to charge until the super user sets the Pix key, then answers a BR Code', async () => {
    const before = await subscribeCall(tenant.admin, { planId, period: 'MENSAL' });
    expect(before.statusCode).toBe(400);
    expect(before.json().error).toBe('ERR_PIX_KEY_NOT_SET');

    const denied = await inject('PUT', '/api/billing/pix-settings', tenant.admin, { pixKey: 'x' });
    expect(denied.statusCode).toBe(403);
    const set = await inject('PUT', '/api/billing/pix-settings', superUser, {
      pixKey: 'financeiro@zapdesk.test',
      merchantName: 'Zapdesk Ltda',
      merchantCity: 'São Paulo',
    });
    expect(set.statusCode).toBe(200);
    const cityOnly = await inject('PUT', '/api/billing/pix-settings', superUser, {
      merchantCity: 'Curitiba',
    });
    expect(cityOnly.json()).toEqual({
      pixKey: 'financeiro@zapdesk.test',
      merchantName: 'Zapdesk Ltda',
      merchantCity: 'Curitiba',
    });

    const res = await subscribeCall(tenant.admin, { planId, period: 'MENSAL' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.valor.original).toBe('199.90');
    expect(body.invoice).toMatchObject({ status: 'open', period: 'MENSAL', provider: 'manual', planId });
    expect(body.invoice.detail).toContain('MENSAL');
    const pix = parsePix(body.qrcode.qrcode) as { pixKey: string; transactionAmount: number; txid: string };
    expect(pix.pixKey).toBe('financeiro@zapdesk.test');
    expect(pix.transactionAmount).toBe(PLAN_VALUE);
    expect(pix.txid).toBe(`ZD${body.invoice.id}`);

    // The same plan and period again reuses the open invoice.
    const again = await subscribeCall(tenant.admin, { planId, period: 'MENSAL' });
    expect(again.json().invoice.id).toBe(body.invoice.id);
  });

  it('prices the annual period at 12 × monthly × 0.8 and blocks a third open invoice', async () => {
    const annual = await subscribeCall(tenant.admin, { planId, period: 'ANUAL' });
    expect(annual.statusCode).toBe(200);
    expect(annual.json().invoice.value).toBe(1919.04);
    expect(annual.json().invoice.detail).toContain('ANUAL');

    const [basic] = await t.app.ctx.db.select().from(plans).where(eq(plans.name, 'Básico'));
    const blocked = await subscribeCall(tenant.admin, { planId: basic!.id, period: 'MENSAL' });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().error).toBe('ERR_PENDING_INVOICE');

    const trial = await subscribeCall(tenant.admin, { planId: trialId, period: 'MENSAL' });
    expect(trial.statusCode).toBe(404);
    expect(trial.json().error).toBe('ERR_NO_PLAN_FOUND');
  });

  it('lets the super user confirm a payment once: dueDate moves one period, a replay moves nothing', async () => {
    const start = new Date(Date.now() + 10 * 86_400_000);
    await setDueDate(t.app, tenant.companyId, start);
    const list = await inject('GET', '/api/invoices/all', tenant.admin);
    const monthly = list.json().find((i: { period: string }) => i.period === 'MENSAL');
    const emit = vi.spyOn(t.app.ctx.realtime, 'toCompany');

    const denied = await inject('POST', `/api/invoices/${monthly.id}/pay`, tenant.admin);
    expect(denied.statusCode).toBe(403);
    expect((await dueDateOf(tenant.companyId)).dueDate!.getTime()).toBe(start.getTime());

    const open = await inject('GET', '/api/invoices/admin', superUser);
    expect(open.json().map((i: { id: number }) => i.id)).toContain(monthly.id);

    const paid = await inject('POST', `/api/invoices/${monthly.id}/pay`, superUser);
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ applied: true, invoice: { status: 'paid' } });
    const moved = (await dueDateOf(tenant.companyId)).dueDate!;
    const expected = new Date(start);
    expected.setMonth(expected.getMonth() + 1);
    expect(Math.abs(moved.getTime() - expected.getTime())).toBeLessThan(2 * 3_600_000);
    expect(paid.json().companyDueDate).toBe(moved.toISOString());
    expect(emit).toHaveBeenCalledWith(
      tenant.companyId,
      'payment',
      expect.objectContaining({
        action: 'CONCLUIDA',
        company: { id: tenant.companyId, dueDate: moved.toISOString() },
      }),
    );

    emit.mockClear();
    const replay = await inject('POST', `/api/invoices/${monthly.id}/pay`, superUser);
    expect(replay.json().applied).toBe(false);
    expect((await dueDateOf(tenant.companyId)).dueDate!.getTime()).toBe(moved.getTime());
    expect(emit).not.toHaveBeenCalled();
    emit.mockRestore();
  });

  it('cancels an open invoice with the CANCELADO suffix; a paid one cannot be cancelled', async () => {
    const list = await inject('GET', '/api/invoices/all', tenant.admin);
    const annual = list.json().find((i: { period: string }) => i.period === 'ANUAL');
    const paid = list.json().find((i: { status: string }) => i.status === 'paid');
    const res = await inject('POST', `/api/invoices/${annual.id}/cancel`, tenant.admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('cancelled');
    expect(res.json().detail).toMatch(/ANUAL CANCELADO$/);
    const refused = await inject('POST', `/api/invoices/${paid.id}/cancel`, tenant.admin);
    expect(refused.statusCode).toBe(409);
  });

  it('searches invoices by detail: trimmed, ignoring case, LIKE wildcards taken literally', async () => {
    const search = async (searchParam: string) =>
      (
        await inject('GET', `/api/invoices/all?searchParam=${encodeURIComponent(searchParam)}`, tenant.admin)
      ).json() as { detail: string }[];
    const all = await search('');
    expect(all.length).toBeGreaterThan(1);
    const annual = await search('  anual ');
    expect(annual.length).toBeGreaterThan(0);
    expect(annual.every((i) => /anual/i.test(i.detail))).toBe(true);
    expect(annual.length).toBeLessThan(all.length);
    expect(await search('%')).toEqual([]);
    expect(await search('_')).toEqual([]);
  });

  it('hides another company’s invoices (404) and refuses agents', async () => {
    const other = await createTenant(t.app);
    const list = await inject('GET', '/api/invoices/all', tenant.admin);
    const id = list.json()[0].id;
    const own = await inject('GET', `/api/invoices/${id}`, tenant.admin);
    expect(own.statusCode).toBe(200);
    const foreign = await inject('GET', `/api/invoices/${id}`, other.admin);
    expect(foreign.statusCode).toBe(404);
    const pay = await subscribeCall(other.admin, { invoiceId: id });
    expect(pay.statusCode).toBe(404);
    const otherList = await inject('GET', '/api/invoices/all', other.admin);
    expect(otherList.json()).toEqual([]);
    const agent = await inject('GET', '/api/invoices/all', tenant.agent);
    expect(agent.statusCode).toBe(403);
  });

  it('processes concurrent confirmations of one payment once', async () => {
    const fresh = await createTenant(t.app);
    const start = new Date(Date.now() + 3 * 86_400_000);
    await setDueDate(t.app, fresh.companyId, start);
    const created = await subscribeCall(fresh.admin, { planId, period: 'ANUAL' });
    const invoiceId = created.json().invoice.id as number;
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        confirmInvoicePayment(t.app.ctx, { invoiceId, provider: 'asaas', providerPaymentId: 'pay_same' }),
      ),
    );
    expect(results.filter((r) => r.applied)).toHaveLength(1);
    const moved = (await dueDateOf(fresh.companyId)).dueDate!;
    const expected = new Date(start);
    expected.setMonth(expected.getMonth() + 12);
    expect(Math.abs(moved.getTime() - expected.getTime())).toBeLessThan(2 * 3_600_000);
    const rows = await t.app.ctx.db
      .select()
      .from(invoicePayments)
      .where(eq(invoicePayments.invoiceId, invoiceId));
    expect(rows).toHaveLength(1);
    // A different payment id for the already paid invoice moves nothing either.
    const late = await confirmInvoicePayment(t.app.ctx, {
      invoiceId,
      provider: 'manual',
      providerPaymentId: 'x',
    });
    expect(late.applied).toBe(false);
    expect((await dueDateOf(fresh.companyId)).dueDate!.getTime()).toBe(moved.getTime());
    expect((await dueDateOf(fresh.companyId)).planId).toBe(planId);
  });
});

describe('billing profile', () => {
  it('requires every field and valid CPF/CNPJ check digits; all-equal digits are refused', async () => {
    const tenant = await createTenant(t.app);
    const base = VALID_BILLING_PROFILE;
    const put = (payload: object) =>
      t.app.inject({ method: 'PUT', url: '/api/billing/profile', headers: bearer(tenant.admin), payload });
    expect((await put({ ...base, cnpjCpf: '111.111.111-11' })).statusCode).toBe(400);
    expect((await put({ ...base, cnpjCpf: '295.379.955-94' })).statusCode).toBe(400);
    expect((await put({ ...base, city: '' })).statusCode).toBe(400);
    expect((await put({ name: 'Só o nome' })).statusCode).toBe(400);
    const ok = await put(base);
    expect(ok.statusCode).toBe(200);
    const cnpj = await put({ cnpjCpf: '11.222.333/0001-81' });
    expect(cnpj.json()).toEqual({ ...base, cnpjCpf: '11.222.333/0001-81' });
    const read = await inject('GET', '/api/billing/profile', tenant.admin);
    expect(read.json().city).toBe('São Paulo');
  });
});
