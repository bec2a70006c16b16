/**
 * The Asaas driver against a local fake of its API (customers, PIX payments, Pix QR code) and its
 * webhook, checked by the `asaas-access-token` header.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, plans } from '../../db/schema/index.js';
import { createTenant, injectAs, setDueDate, type TenantFixture } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

const API_KEY = 'asaas-test-key';
const WEBHOOK_TOKEN = 'webhook-token-0123456789';
const calls: { method: string; url: string; key: string | undefined; body: Record<string, unknown> }[] = [];
let fake: http.Server;
let t: TestApp;
const inject = injectAs(() => t.app);
let tenant: TenantFixture;
let planId: number;

beforeAll(async () => {
  let sequence = 0;
  fake = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const body = raw ? JSON.parse(raw) : {};
      calls.push({ method: req.method!, url: req.url!, key: req.headers.access_token as string, body });
      const send = (status: number, payload: object) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (req.headers.access_token !== API_KEY) return send(401, { errors: [{ description: 'bad key' }] });
      if (req.method === 'POST' && req.url === '/v3/customers') return send(200, { id: `cus_${++sequence}` });
      if (req.method === 'POST' && req.url === '/v3/payments') {
        if (!body.customer || body.billingType !== 'PIX')
          return send(400, { errors: [{ description: 'invalid' }] });
        return send(200, {
          id: `pay_${++sequence}`,
          status: 'PENDING',
          invoiceUrl: 'https://pay.example/i/1',
        });
      }
      const qr = /^\/v3\/payments\/(pay_\d+)\/pixQrCode$/.exec(req.url ?? '');
      if (req.method === 'GET' && qr) return send(200, { payload: `000201-${qr[1]}`, encodedImage: '' });
      send(404, { errors: [{ description: 'not found' }] });
    });
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  const port = (fake.address() as AddressInfo).port;
  t = await createTestApp({
    BILLING_PROVIDER: 'asaas',
    ASAAS_API_URL: `http://127.0.0.1:${port}/v3`,
    ASAAS_API_KEY: API_KEY,
    ASAAS_WEBHOOK_TOKEN: WEBHOOK_TOKEN,
  });
  tenant = await createTenant(t.app);
  const [plan] = await t.app.ctx.db.select().from(plans).where(eq(plans.name, 'Básico'));
  planId = plan!.id;
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => fake.close(resolve));
});

const dueDateOf = async (companyId: number) =>
  (await t.app.ctx.db.select({ d: companies.dueDate }).from(companies).where(eq(companies.id, companyId)))[0]!
    .d!;

const webhook = (token: string | undefined, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: '/api/billing/webhooks/asaas',
    headers: token ? { 'asaas-access-token': token } : {},
    payload,
  });

describe('Asaas provider', () => {
  let paymentId: string;

  it('needs the billing profile, then charges through the API and answers its Pix payload', async () => {
    const missing = await inject('POST', '/api/subscription', tenant.admin, { planId, period: 'MENSAL' });
    expect(missing.statusCode).toBe(400);
    await inject('PUT', '/api/billing/profile', tenant.admin, {
      name: 'Empresa A',
      email: 'financeiro@empresa.test',
      phone: '(11) 98765-4321',
      cnpjCpf: '11.222.333/0001-81',
      address: 'Rua A, 1',
      city: 'São Paulo',
      state: 'SP',
      zipcode: '01001-000',
      country: 'BR',
    });
    const res = await inject('POST', '/api/subscription', tenant.admin, { planId, period: 'MENSAL' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    paymentId = body.qrcode.qrcode.replace('000201-', '');
    expect(paymentId).toMatch(/^pay_\d+$/);
    expect(body.invoice.provider).toBe('asaas');
    expect(body.paymentLink).toBe('https://pay.example/i/1');
    const customer = calls.find((c) => c.url === '/v3/customers')!;
    expect(customer.body.cpfCnpj).toBe('11222333000181');
    const payment = calls.find((c) => c.url === '/v3/payments')!;
    expect(payment.body).toMatchObject({
      billingType: 'PIX',
      value: 99.9,
      externalReference: String(body.invoice.id),
    });
    expect(calls.every((c) => c.key === API_KEY)).toBe(true);
  });

  it('refuses a webhook with a bad or missing token and an unknown charge, changing nothing', async () => {
    const start = new Date(Date.now() + 5 * 86_400_000);
    await setDueDate(t.app, tenant.companyId, start);
    const event = { event: 'PAYMENT_RECEIVED', payment: { id: paymentId } };
    expect((await webhook('wrong-token-0123456789', event)).statusCode).toBe(401);
    expect((await webhook(undefined, event)).statusCode).toBe(401);
    const unknown = await webhook(WEBHOOK_TOKEN, { event: 'PAYMENT_RECEIVED', payment: { id: 'pay_999' } });
    expect(unknown.statusCode).toBe(404);
    expect((await dueDateOf(tenant.companyId)).getTime()).toBe(start.getTime());
    const other = await webhook(WEBHOOK_TOKEN, { event: 'PAYMENT_CREATED', payment: { id: paymentId } });
    expect(other.json()).toEqual({ received: true, applied: false });
  });

  it('confirms the payment by the signed webhook once; replays (and the CONFIRMED twin) add no days', async () => {
    const start = await dueDateOf(tenant.companyId);
    const first = await webhook(WEBHOOK_TOKEN, { event: 'PAYMENT_RECEIVED', payment: { id: paymentId } });
    expect(first.json()).toEqual({ received: true, applied: true });
    const moved = await dueDateOf(tenant.companyId);
    const expected = new Date(start);
    expected.setMonth(expected.getMonth() + 1);
    expect(Math.abs(moved.getTime() - expected.getTime())).toBeLessThan(2 * 3_600_000);
    const replays = await Promise.all([
      webhook(WEBHOOK_TOKEN, { event: 'PAYMENT_RECEIVED', payment: { id: paymentId } }),
      webhook(WEBHOOK_TOKEN, { event: 'PAYMENT_CONFIRMED', payment: { id: paymentId } }),
    ]);
    expect(replays.map((r) => r.json().applied)).toEqual([false, false]);
    expect((await dueDateOf(tenant.companyId)).getTime()).toBe(moved.getTime());
  });
});
