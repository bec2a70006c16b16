/**
 * The CRM calls of the plans page against a local fake of Perfex CRM's REST API (`authtoken`
 * header, form bodies, customers and invoices search): the token stays on the server, prices come
 * from the plan, customers and invoices are the caller company's only.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { companies, plans } from '../../db/schema/index.js';
import { CRM_BILLING_ADDRESS, CRM_CUSTOMER, call, crm, t, useCrmSuite } from '../../test/crm-suite.js';
import { bearer, createTenant, type TenantFixture } from '../../test/factories.js';
import type { FakeCrm } from '../../test/fake-crm.js';
import { VALID_BILLING_PROFILE } from '../../test/fixtures.js';

let customers: FakeCrm['customers'];
let crmInvoices: FakeCrm['crmInvoices'];
let seen: FakeCrm['seen'];
let TOKEN: string;
let a: TenantFixture;
let b: TenantFixture;
let planId: number;

useCrmSuite();
beforeAll(async () => {
  ({ customers, crmInvoices, seen, token: TOKEN } = crm);
  a = await createTenant(t.app);
  b = await createTenant(t.app);
  const [plan] = await t.app.ctx.db.select().from(plans).where(eq(plans.name, 'Completo'));
  planId = plan!.id;
  // The CRM customer id is kept on the billing profile.
  for (const tenant of [a, b]) {
    await t.app.inject({
      method: 'PUT',
      url: '/api/billing/profile',
      headers: bearer(tenant.admin),
      payload: { ...VALID_BILLING_PROFILE, name: 'Empresa' },
    });
  }
});

describe('CRM calls (Perfex)', () => {
  it('verifies, creates and updates the caller company customer with the server token', async () => {
    const missing = await call(a, 'GET', '/api/crm-verify-customer?name=Empresa');
    expect(missing.statusCode).toBe(404);
    const created = await call(a, 'POST', '/api/crm-create-customer', CRM_CUSTOMER);
    expect(created.statusCode).toBe(200);
    expect(created.json()).toEqual({ clientid: '100' });
    expect(customers[0]!.company).toMatch(/^Company /); // the company's own name, not the body's
    const verified = await call(a, 'GET', '/api/crm-verify-customer?name=anything');
    expect(verified.json()).toEqual({ exists: true, id: '100' });
    // Company B asking for A's name finds nothing of A.
    const other = await call(
      b,
      'GET',
      `/api/crm-verify-customer?name=${encodeURIComponent(customers[0]!.company)}`,
    );
    expect(other.statusCode).toBe(404);
    const updated = await call(a, 'PUT', '/api/crm-update-customer', CRM_CUSTOMER);
    expect(updated.json().message).toBe('Client Update Successful.');
    expect(seen.every((s) => s.token === TOKEN)).toBe(true);
    expect(JSON.stringify([created.json(), verified.json(), updated.json()])).not.toContain(TOKEN);
  });

  it('creates the invoice priced by the plan, keeps a local copy and answers the payment link', async () => {
    const incomplete = await call(a, 'POST', '/api/crm-create-invoice', { planId, billing_street: 'Rua A' });
    expect(incomplete.statusCode).toBe(400);
    expect(incomplete.json().field).toBe('billing_city');
    const res = await call(a, 'POST', '/api/crm-create-invoice', {
      planId,
      period: 'ANUAL',
      ...CRM_BILLING_ADDRESS,
    });
    expect(res.statusCode).toBe(200);
    const sent = crmInvoices[0]!.form;
    expect(sent.get('newitems[0][rate]')).toBe('1919.04');
    expect(sent.get('recurring')).toBe('12');
    expect(sent.get('currency')).toBe('3');
    expect(sent.get('formatted_number')).toMatch(/^BOT-\d{10}$/);
    expect(sent.get('allowed_payment_modes[1]')).toBe('connect_inter_pix');
    expect(res.json().link).toMatch(/\/invoice\/500\/h4sh$/);
    const local = await call(a, 'GET', `/api/invoices/${res.json().invoiceId}`);
    expect(local.json()).toMatchObject({ provider: 'crm', period: 'ANUAL', value: 1919.04, status: 'open' });
    const detail = local.json().detail as string;
    const verify = await call(a, 'GET', `/api/crm-verify-invoice?name=${encodeURIComponent(detail)}`);
    expect(verify.json()).toEqual({ exists: true, link: res.json().link });
    const foreign = await call(b, 'GET', `/api/crm-verify-invoice?name=${encodeURIComponent(detail)}`);
    expect(foreign.json()).toEqual({ exists: false, link: null });
    const foreignDelete = await call(b, 'DELETE', '/api/crm-delete-invoice', { name: detail });
    expect(foreignDelete.statusCode).toBe(404);
    const deleted = await call(a, 'DELETE', '/api/crm-delete-invoice', { name: detail });
    expect(deleted.statusCode).toBe(200);
    expect(seen.some((s) => s.method === 'DELETE' && s.url === '/api/invoices/500')).toBe(true);
    const after = await call(a, 'GET', `/api/invoices/${res.json().invoiceId}`);
    expect(after.json().status).toBe('cancelled');
  });

  it('updates the plan of the open CRM invoice in place and cancels with the CANCELADO suffix', async () => {
    const billing = {
      planId,
      period: 'MENSAL',
      ...CRM_BILLING_ADDRESS,
    };
    const first = await call(a, 'POST', '/api/crm-create-invoice', billing);
    expect(first.statusCode).toBe(200);
    const crmInvoice = crmInvoices.at(-1)!;
    const [basic] = await t.app.ctx.db.select().from(plans).where(eq(plans.name, 'Básico'));
    const none = await call(b, 'PUT', '/api/crm-update-invoice', { invoiceData: { planId: basic!.id } });
    expect(none.statusCode).toBe(404);
    const created = crmInvoices.length;
    const updated = await call(a, 'PUT', '/api/crm-update-invoice', {
      invoiceData: { status: 'open', planId: basic!.id, period: 'ANUAL' },
      companyInfo: { billing_street: 'Rua B, 2' },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toEqual({ message: 'Invoice Updated Successfully', link: first.json().link });
    // The same CRM invoice got the new item and price; no other invoice was created there.
    expect(crmInvoices).toHaveLength(created);
    const sent = crmInvoice.updates.at(-1)!;
    expect(sent.get('newitems[0][rate]')).toBe('959.04');
    expect(sent.get('recurring')).toBe('12');
    expect(sent.get('number')).toBe(crmInvoice.number);
    expect(sent.get('billing_street')).toBe('Rua B, 2');
    expect(sent.get('removed_items[0]')).toBeTruthy();
    expect(crmInvoice.items).toHaveLength(1);
    const same = await call(a, 'GET', `/api/invoices/${first.json().invoiceId}`);
    expect(same.json()).toMatchObject({
      status: 'open',
      planId: basic!.id,
      period: 'ANUAL',
      value: 959.04,
      detail: `Básico #${basic!.id} ANUAL`,
    });
    const list = (await call(a, 'GET', '/api/invoices/all')).json() as { status: string; detail: string }[];
    const open = list.filter((i) => i.status === 'open');
    expect(open).toHaveLength(1);
    const cancelled = await call(a, 'PUT', '/api/crm-update-invoice', {
      invoiceData: { status: 'open', detail: `${open[0]!.detail} CANCELADO` },
    });
    expect(cancelled.json().message).toBe('Sua assinatura foi cancelada com sucesso.');
    const after = (await call(a, 'GET', '/api/invoices/all')).json() as { status: string }[];
    expect(after.filter((i) => i.status === 'open')).toHaveLength(0);
  });

  it('cancelling a CRM invoice from the invoices page also deletes it at the CRM', async () => {
    const res = await call(a, 'POST', '/api/crm-create-invoice', {
      planId,
      ...CRM_BILLING_ADDRESS,
    });
    const crmId = crmInvoices.at(-1)!.id;
    const cancelled = await call(a, 'POST', `/api/invoices/${res.json().invoiceId}/cancel`);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled' });
    expect(cancelled.json().detail).toMatch(/CANCELADO$/);
    expect(seen.some((s) => s.method === 'DELETE' && s.url === `/api/invoices/${crmId}`)).toBe(true);
  });

  it('binds the CRM customer by its kept id or Zapdesk reference, never by a shared company name', async () => {
    // Company B's customer exists at the CRM under B's name (created through Zapdesk).
    const victim = await createTenant(t.app);
    const name = `Co B ${Date.now()}`;
    await t.app.ctx.db.update(companies).set({ name }).where(eq(companies.id, victim.companyId));
    const own = await call(victim, 'POST', '/api/crm-create-customer', CRM_CUSTOMER);
    expect(own.statusCode).toBe(200);
    const victimId = own.json().clientid as string;
    // A manually created customer of the same name (no Zapdesk reference) at the CRM too.
    customers.push({ userid: String(100 + customers.length), company: name, website: '' });
    // Another company signs up with the same name.
    const attacker = await createTenant(t.app);
    await t.app.ctx.db.update(companies).set({ name }).where(eq(companies.id, attacker.companyId));
    const before = seen.length;
    const read = await call(attacker, 'GET', '/api/crm-verify-customer?name=x');
    expect(read.statusCode).toBe(404);
    expect(read.body).not.toContain(victimId);
    const overwrite = await call(attacker, 'PUT', '/api/crm-update-customer', {
      ...CRM_CUSTOMER,
      id: victimId,
      vat: '111.444.777-35',
    });
    expect(overwrite.statusCode).toBe(404);
    const billing = {
      planId,
      clientid: victimId,
      ...CRM_BILLING_ADDRESS,
    };
    const invoice = await call(attacker, 'POST', '/api/crm-create-invoice', billing);
    expect(invoice.statusCode).toBe(400);
    expect(invoice.json().field).toBe('clientid');
    const after = seen.slice(before);
    expect(after.some((s) => s.method === 'PUT')).toBe(false);
    expect(after.some((s) => s.method === 'POST')).toBe(false);
    // Positive control: the newcomer gets its own customer and invoices to it.
    const created = await call(attacker, 'POST', '/api/crm-create-customer', CRM_CUSTOMER);
    expect(created.statusCode).toBe(200);
    const ownId = created.json().clientid as string;
    expect(ownId).not.toBe(victimId);
    expect((await call(attacker, 'GET', '/api/crm-verify-customer')).json()).toEqual({
      exists: true,
      id: ownId,
    });
    expect((await call(victim, 'GET', '/api/crm-verify-customer')).json()).toEqual({
      exists: true,
      id: victimId,
    });
    const mine = await call(attacker, 'POST', '/api/crm-create-invoice', billing);
    expect(mine.statusCode).toBe(200);
    expect(crmInvoices.at(-1)!.form.get('clientid')).toBe(ownId);
  });
});
