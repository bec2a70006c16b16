import { Writable } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices, plans, platformBilling } from '../../db/schema/index.js';
import { bearer, createTenant, createUser, injectAs, type TenantFixture } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

// Checkout payload of document 3 section 3 (POST /subscription, section 7).
const CARD_NUMBER = '4111111111111111';
const CVV = '737';

let t: TestApp;
const inject = injectAs(() => t.app);
let logs = '';
let planId: number;
let planValue: number;
let tenant: TenantFixture;

const checkout = (payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/subscription', headers: bearer(tenant.admin), payload });

const specPayload = (extra: object = {}) => ({
  firstName: 'Maria',
  lastName: 'Souza',
  address2: 'Rua das Flores, 10',
  city: 'Curitiba',
  state: 'PR',
  zipcode: '80000-000',
  country: 'BR',
  useAddressForPaymentDetails: true,
  nameOnCard: 'MARIA SOUZA',
  cardNumber: CARD_NUMBER,
  cvv: CVV,
  plan: planId,
  price: 0.01,
  users: 999,
  connections: 999,
  ...extra,
});

/** Every text of every row of every table of the public schema, as one string. */
async function databaseText(): Promise<string> {
  const tables = await t.app.ctx.db.execute<{ tablename: string }>(
    sql`select tablename from pg_tables where schemaname = 'public'`,
  );
  const rows = 'rows' in tables ? tables.rows : tables;
  let text = '';
  for (const { tablename } of rows as { tablename: string }[]) {
    const data = await t.app.ctx.db.execute(sql.raw(`select * from "${tablename}"`));
    text += JSON.stringify('rows' in data ? data.rows : data);
  }
  return text;
}

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _enc, done) {
      logs += chunk.toString();
      done();
    },
  });
  t = await createTestApp({}, {}, { logger: { level: 'trace', stream: sink } });
  const owner = await createTenant(t.app);
  const superUser = await createUser(t.app, owner.companyId, { profile: 'admin', super: true });
  const set = await inject('PUT', '/api/billing/pix-settings', superUser, {
    pixKey: 'financeiro@zapdesk.test',
    merchantName: 'Zapdesk Ltda',
    merchantCity: 'Curitiba',
  });
  expect(set.statusCode).toBe(200);
  const rows = await t.app.ctx.db.select().from(plans);
  const plan = rows.find((p) => p.name === 'Completo')!;
  planId = plan.id;
  planValue = plan.value;
  tenant = await createTenant(t.app);
});
afterAll(() => t.close());

describe('POST /subscription with the checkout payload', () => {
  it('accepts the spec’s payload, prices from the plan and answers the Pix data', async () => {
    const res = await checkout(specPayload());
    expect(res.statusCode).toBe(200);
    const body = res.json();
    // The client's price (0.01), users and connections are ignored: the plan's value is charged.
    expect(body.invoice.value).toBe(planValue);
    expect(body.valor.original).toBe(planValue.toFixed(2));
    expect(body.qrcode.qrcode).toMatch(/^000201/);
    expect(body.invoice.planId).toBe(planId);
    // The same checkout for an open invoice id charges that invoice.
    const again = await checkout(specPayload({ plan: undefined, invoiceId: body.invoice.id }));
    expect(again.statusCode).toBe(200);
    expect(again.json().invoice.id).toBe(body.invoice.id);
  });

  it('never stores, logs or echoes card data', async () => {
    logs = '';
    const ok = await checkout(specPayload({ period: 'ANUAL' }));
    expect(ok.statusCode).toBe(200);
    // A refused body (over-long cvv) and a refused charge (unknown invoice) must not echo it either.
    const bad = await checkout(specPayload({ cvv: '12345678901' }));
    expect(bad.statusCode).toBe(400);
    const unknown = await checkout(specPayload({ plan: undefined, invoiceId: 2_000_000_000 }));
    expect(unknown.statusCode).toBe(404);
    for (const res of [ok, bad, unknown]) {
      expect(res.body).not.toContain(CARD_NUMBER);
      expect(res.body).not.toContain(CVV);
    }
    // Positive control: the log stream does receive the requests at trace level.
    expect(logs).toContain('/api/subscription');
    expect(logs).not.toContain(CARD_NUMBER);
    expect(logs).not.toContain('MARIA SOUZA');
    const stored = await databaseText();
    expect(stored).toContain('financeiro@zapdesk.test'); // positive control: the dump reads the data
    expect(stored).not.toContain(CARD_NUMBER);
    expect(stored).not.toContain('MARIA SOUZA');
  });

  it('answers 404 for another company’s invoice id and charges nothing there', async () => {
    const other = await createTenant(t.app);
    const mine = await inject('POST', '/api/subscription', other.admin, { plan: planId });
    expect(mine.statusCode).toBe(200); // positive control: its owner can pay it
    const res = await checkout(specPayload({ plan: undefined, invoiceId: mine.json().invoice.id }));
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('ERR_NO_INVOICE_FOUND');
  });

  it('bounds every field and still needs a plan or an invoice', async () => {
    const cases: object[] = [
      { plan: undefined },
      { plan: 0 },
      { plan: 2_147_483_648 },
      { firstName: 'x'.repeat(101) },
      { firstName: '' },
      { zipcode: '1'.repeat(11) },
      { country: 'AR' },
      { cardNumber: '1'.repeat(31) },
      { price: -1 },
      { users: 1.5 },
      { connections: 2_147_483_648 },
      { useAddressForPaymentDetails: 'yes' },
    ];
    for (const extra of cases) {
      const res = await checkout(specPayload(extra));
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
    }
  });
});

describe('a failed checkout', () => {
  it('leaves no open invoice behind when the payment provider fails; a later checkout charges', async () => {
    const buyer = await createTenant(t.app);
    const pay = () => inject('POST', '/api/subscription', buyer.admin, specPayload());
    const openInvoices = () =>
      t.app.ctx.db
        .select()
        .from(invoices)
        .where(and(eq(invoices.companyId, buyer.companyId), eq(invoices.status, 'open')));
    const [saved] = await t.app.ctx.db.select().from(platformBilling);
    await t.app.ctx.db.update(platformBilling).set({ pixKey: '' });
    try {
      const failed = await pay();
      expect(failed.statusCode).toBeGreaterThanOrEqual(400);
      expect(failed.json().error).toBe('ERR_PIX_KEY_NOT_SET');
      expect(await openInvoices()).toHaveLength(0);
    } finally {
      await t.app.ctx.db.update(platformBilling).set({ pixKey: saved!.pixKey });
    }
    const paid = await pay();
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await openInvoices()).toHaveLength(1);
  });
});
