import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { webhookDeliveries, webhooks } from '../../db/schema/index.js';
import { decryptSecret } from '../../lib/secrets.js';
import {
  type ConnectedTenant,
  createCompanyAdmin,
  createConnectedTenant,
  customerNumber,
  injectAs,
  injectMessage,
  type TenantFixture,
} from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { backoffSeconds, WEBHOOK_DELIVERY_JOB, WEBHOOK_MAX_TRIES } from './dispatcher.js';

/** A local receiver: records every request; answers the status queued for its path (default 200). */
interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
const received: Received[] = [];
const statuses = new Map<string, number[]>();
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const path = req.url ?? '/';
    received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    const queued = statuses.get(path);
    res.statusCode = queued?.length ? queued.shift()! : 200;
    res.end(res.statusCode === 200 ? 'ok' : 'receiver failed');
  });
});
let base: string;

let t: TestApp;
const inject = injectAs(() => t.app);
let a: ConnectedTenant;
let b: ConnectedTenant;

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // The receiver listens on loopback, which only OUTBOUND_ALLOW_PRIVATE_URLS lets webhooks reach.
  t = await createTestApp({ OUTBOUND_ALLOW_PRIVATE_URLS: 'true' });
  a = await createConnectedTenant(t.app);
  b = await createConnectedTenant(t.app);
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => receiver.close(resolve));
});
beforeEach(async () => {
  // Each test starts with no webhook and an empty receiver.
  await t.app.ctx.db.delete(webhooks);
  received.length = 0;
  statuses.clear();
});

const createHook = async (owner: TenantFixture, payload: object) => {
  const res = await inject('POST', '/api/webhooks', owner.admin, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; secret: string; secretHint: string; events: string[] };
};

/** Lets the emitted events be queued, then runs the due jobs. */
const flush = async () => {
  await t.app.webhooks.settled();
  await t.app.jobs.drain();
};

/** Makes queued retries due now (time passing). */
const makeRetriesDue = () =>
  t.app.ctx.db.execute(
    sql`update pgboss.job set start_after = now() - interval '1 second'
        where name = ${WEBHOOK_DELIVERY_JOB} and state in ('created', 'retry')`,
  );

const verify = (secret: string, r: Received) => {
  const timestamp = String(r.headers['x-zapdesk-timestamp']);
  const expected = `sha256=${crypto.createHmac('sha256', secret).update(`${timestamp}.${r.body}`).digest('hex')}`;
  const given = String(r.headers['x-zapdesk-signature']);
  return (
    given.length === expected.length && crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected))
  );
};

describe('webhooks API', () => {
  it('creates with the secret shown once, stores it encrypted, masks it afterwards, rotates it', async () => {
    const created = await createHook(a, {
      url: `${base}/crud`,
      events: ['message.created', 'ticket.closed'],
      description: 'ERP',
    });
    expect(created.secret).toMatch(/^whsec_[\w-]{43}$/);
    expect(created.secretHint).toBe(`••••${created.secret.slice(-4)}`);
    const [row] = await t.app.ctx.db.select().from(webhooks).where(eq(webhooks.id, created.id));
    expect(row!.secretSealed).not.toContain(created.secret);
    expect(decryptSecret(row!.secretSealed, t.app.ctx.secrets.sessionKey)).toBe(created.secret);

    const read = await inject('GET', `/api/webhooks/${created.id}`, a.admin);
    expect(read.json()).not.toHaveProperty('secret');
    expect(JSON.stringify(read.json())).not.toContain(created.secret);
    const list = await inject('GET', '/api/webhooks', a.admin);
    expect(JSON.stringify(list.json())).not.toContain(created.secret);

    // PUT keeps what it does not name.
    const put = await inject('PUT', `/api/webhooks/${created.id}`, a.admin, { active: false });
    expect(put.json()).toMatchObject({
      active: false,
      url: `${base}/crud`,
      description: 'ERP',
      events: created.events,
    });

    const rotated = await inject('POST', `/api/webhooks/${created.id}/secret`, a.admin);
    expect(rotated.json().secret).toMatch(/^whsec_/);
    expect(rotated.json().secret).not.toBe(created.secret);
  });

  it('refuses URLs that are not http(s), URLs with credentials, unknown events and an empty event list', async () => {
    const bad = [
      { url: 'ftp://example.com/hook', events: ['message.created'] },
      { url: 'file:///etc/passwd', events: ['message.created'] },
      { url: 'javascript:alert(1)', events: ['message.created'] },
      { url: 'gopher://127.0.0.1:6379/_', events: ['message.created'] },
      { url: 'https://user:pass@example.com/hook', events: ['message.created'] },
      { url: 'not a url', events: ['message.created'] },
      { url: `https://example.com/${'x'.repeat(2100)}`, events: ['message.created'] },
      { url: 'https://example.com/hook', events: ['message.deleted'] },
      { url: 'https://example.com/hook', events: [] },
    ];
    for (const payload of bad) {
      const res = await inject('POST', '/api/webhooks', a.admin, payload);
      expect(res.statusCode, payload.url).toBe(400);
      expect(res.json().error).toBe('ERR_VALIDATION');
    }
    const put = await inject(
      'PUT',
      `/api/webhooks/${(await createHook(a, { url: 'https://example.com/ok', events: ['ticket.updated'] })).id}`,
      a.admin,
      { url: 'ftp://example.com/x' },
    );
    expect(put.statusCode).toBe(400);
    // Positive control: http and https pass.
    await createHook(a, { url: 'http://example.com/hook', events: ['message.created'] });
  });

  it('is for admins of a plan with the external API', async () => {
    const agentCall = await inject('GET', '/api/webhooks', a.agent);
    expect(agentCall.statusCode).toBe(403);
    const admin = await createCompanyAdmin(t.app, { plan: { useExternalApi: false } });
    const res = await inject('GET', '/api/webhooks', admin);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('ERR_PLAN_FEATURE_DISABLED');
  });
});

describe('webhook deliveries', () => {
  it("delivers a company's chosen events, signed over timestamp.body, with an idempotency id; never another company's", async () => {
    const hookA = await createHook(a, {
      url: `${base}/a`,
      events: ['message.created', 'ticket.created', 'contact.created'],
    });
    const hookB = await createHook(b, {
      url: `${base}/b`,
      events: ['message.created', 'ticket.created', 'contact.created', 'ticket.updated', 'message.updated'],
    });
    const from = customerNumber();
    const inbound = await injectMessage(t.app, a.admin, a.whatsappId, { from, body: 'Quero um orçamento' });
    await flush();

    expect(received.filter((r) => r.path === '/b')).toEqual([]);
    const toA = received.filter((r) => r.path === '/a');
    const events = toA.map((r) => JSON.parse(r.body).event).sort();
    expect(events).toEqual(['contact.created', 'message.created', 'ticket.created']);
    for (const r of toA) {
      expect(verify(hookA.secret, r)).toBe(true);
      // Positive control of the check itself: another secret does not verify.
      expect(verify(hookB.secret, r)).toBe(false);
      const body = JSON.parse(r.body);
      expect(r.headers['x-zapdesk-delivery']).toBe(body.id);
      expect(r.headers['x-zapdesk-event']).toBe(body.event);
      expect(body.companyId).toBe(a.companyId);
      expect(Math.abs(Number(r.headers['x-zapdesk-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    }
    const message = JSON.parse(toA.find((r) => JSON.parse(r.body).event === 'message.created')!.body);
    expect(message.data.message).toMatchObject({ id: inbound.id, body: 'Quero um orçamento' });
    expect(message.id).toBe(`message.created:${inbound.id}`);

    // The same event seen again (a redelivered emission) is stored and sent once.
    const before = received.length;
    await t.app.webhooks.enqueue(a.companyId, [
      { event: 'message.created', eventId: message.id, data: message.data },
    ]);
    await flush();
    expect(received.length).toBe(before);

    // Company B's own events reach B (positive control of the isolation).
    await injectMessage(t.app, b.admin, b.whatsappId, { from: customerNumber(), body: 'Olá B' });
    await flush();
    expect(received.filter((r) => r.path === '/b').length).toBeGreaterThan(0);
    expect(
      received.filter((r) => r.path === '/b').every((r) => JSON.parse(r.body).companyId === b.companyId),
    ).toBe(true);

    const log = await inject('GET', `/api/webhooks/${hookA.id}/deliveries`, a.admin);
    expect(
      log
        .json()
        .records.every((d: { status: string; tries: number }) => d.status === 'delivered' && d.tries === 1),
    ).toBe(true);
    expect(log.json().count).toBe(3);
  });

  it("reads the company's webhooks once for the events emitted in one tick, and afresh on the next", async () => {
    const reads = vi.spyOn(t.app.ctx.db, 'select');
    const event = (i: number) => ({
      event: 'message.updated' as const,
      eventId: `burst-${i}-${Date.now()}`,
      data: {},
    });
    // No webhook yet: a burst of 20 events (a batch of campaign messages) reads them once.
    const none = await Promise.all(
      Array.from({ length: 20 }, (_, i) => t.app.webhooks.enqueue(a.companyId, [event(i)])),
    );
    expect(none).toEqual(Array(20).fill(0));
    expect(reads).toHaveBeenCalledTimes(1);
    reads.mockRestore();
    // A webhook created after that tick gets the next burst: nothing is kept beyond the tick.
    await createHook(a, { url: `${base}/a`, events: ['message.updated'] });
    const queued = await Promise.all(
      Array.from({ length: 5 }, (_, i) => t.app.webhooks.enqueue(a.companyId, [event(100 + i)])),
    );
    expect(queued).toEqual(Array(5).fill(1));
    await flush();
    expect(received.filter((r) => r.path === '/a')).toHaveLength(5);
  });

  it('sends ticket.updated and ticket.closed for later changes, and nothing to inactive webhooks', async () => {
    const from = customerNumber();
    const inbound = await injectMessage(t.app, a.admin, a.whatsappId, { from, body: 'Oi' });
    await flush();
    const hook = await createHook(a, { url: `${base}/tickets`, events: ['ticket.updated', 'ticket.closed'] });
    await createHook(a, {
      url: `${base}/inactive`,
      events: ['ticket.updated', 'ticket.closed'],
      active: false,
    });
    const accept = await inject('PUT', `/api/tickets/${inbound.ticketId}`, a.admin, {
      status: 'open',
      userId: a.admin.id,
    });
    expect(accept.statusCode).toBe(200);
    await flush();
    const close = await inject('PUT', `/api/tickets/${inbound.ticketId}`, a.admin, { status: 'closed' });
    expect(close.statusCode).toBe(200);
    await flush();
    const events = received.filter((r) => r.path === '/tickets').map((r) => JSON.parse(r.body));
    expect(events.map((e) => e.event)).toContain('ticket.updated');
    expect(events.filter((e) => e.event === 'ticket.closed').length).toBe(1);
    expect(events.find((e) => e.event === 'ticket.closed').data.ticket).toMatchObject({
      id: inbound.ticketId,
      status: 'closed',
    });
    expect(received.filter((r) => r.path === '/inactive')).toEqual([]);
    for (const r of received.filter((r) => r.path === '/tickets')) expect(verify(hook.secret, r)).toBe(true);
  });

  it('retries a failing receiver with exponential backoff, then succeeds', async () => {
    await createHook(a, { url: `${base}/flaky`, events: ['contact.created'] });
    statuses.set('/flaky', [500, 503]);
    await injectMessage(t.app, a.admin, a.whatsappId, { from: customerNumber(), body: 'Oi' });
    await flush();
    const [first] = await t.app.ctx.db.select().from(webhookDeliveries);
    expect(first).toMatchObject({ status: 'pending', tries: 1, responseCode: 500 });
    expect(first!.lastError).toContain('HTTP 500');
    const wait1 = (first!.nextAttemptAt!.getTime() - Date.now()) / 1000;
    expect(wait1).toBeGreaterThan(backoffSeconds(1) - 5);
    expect(wait1).toBeLessThanOrEqual(backoffSeconds(1) + 1);
    // Not due yet: nothing more is sent.
    await flush();
    expect(received.length).toBe(1);

    await makeRetriesDue();
    await flush();
    const [second] = await t.app.ctx.db.select().from(webhookDeliveries);
    expect(second).toMatchObject({ status: 'pending', tries: 2, responseCode: 503 });
    const wait2 = (second!.nextAttemptAt!.getTime() - Date.now()) / 1000;
    expect(wait2).toBeGreaterThan(backoffSeconds(2) - 5);
    expect(backoffSeconds(2)).toBe(2 * backoffSeconds(1));

    await makeRetriesDue();
    await flush();
    const [third] = await t.app.ctx.db.select().from(webhookDeliveries);
    expect(third).toMatchObject({ status: 'delivered', tries: 3, responseCode: 200, lastError: null });
    expect(received.length).toBe(3);
    // The three tries carry the same idempotency id.
    expect(new Set(received.map((r) => r.headers['x-zapdesk-delivery'])).size).toBe(1);
  });

  it(`gives up after ${WEBHOOK_MAX_TRIES} tries and records the last error; an unreachable URL counts as a failure`, async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await createHook(a, { url: `${base}/down`, events: ['contact.created'] });
    await createHook(a, { url: `http://127.0.0.1:${deadPort}/gone`, events: ['contact.created'] });
    statuses.set('/down', Array(WEBHOOK_MAX_TRIES + 2).fill(500));
    await injectMessage(t.app, a.admin, a.whatsappId, { from: customerNumber(), body: 'Oi' });
    await flush();
    for (let i = 1; i < WEBHOOK_MAX_TRIES + 2; i++) {
      await makeRetriesDue();
      await flush();
    }
    const rows = await t.app.ctx.db.select().from(webhookDeliveries);
    expect(rows.length).toBe(2);
    for (const row of rows) {
      expect(row).toMatchObject({ status: 'failed', tries: WEBHOOK_MAX_TRIES, nextAttemptAt: null });
    }
    expect(rows.find((r) => r.responseCode === 500)!.lastError).toContain('HTTP 500');
    expect(rows.find((r) => r.responseCode === null)!.lastError).toMatch(/fetch failed|ECONNREFUSED/);
    expect(received.filter((r) => r.path === '/down').length).toBe(WEBHOOK_MAX_TRIES);

    // An admin tries a failed delivery again: its tries start over and the receiver now answers 200.
    const down = rows.find((r) => r.responseCode === 500)!;
    statuses.clear();
    const retry = await inject(
      'POST',
      `/api/webhooks/${down.webhookId}/deliveries/${down.id}/retry`,
      a.admin,
    );
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json()).toMatchObject({ status: 'pending', tries: 0 });
    await flush();
    const [redelivered] = await t.app.ctx.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, down.id));
    expect(redelivered).toMatchObject({ status: 'delivered', tries: 1, responseCode: 200 });
    // Only a failed delivery can be tried again.
    const again = await inject(
      'POST',
      `/api/webhooks/${down.webhookId}/deliveries/${down.id}/retry`,
      a.admin,
    );
    expect(again.statusCode).toBe(400);
  });

  /**
   * With OUTBOUND_ALLOW_PRIVATE_URLS off, a customer's message makes a delivery that is refused
   * (pending, one try, nothing received); switched back on, the retry reaches `path` once.
   */
  async function expectRefusedThenDelivered(path: string): Promise<void> {
    t.app.ctx.config.OUTBOUND_ALLOW_PRIVATE_URLS = false;
    try {
      await injectMessage(t.app, a.admin, a.whatsappId, { from: customerNumber(), body: 'Oi' });
      await flush();
      const [refused] = await t.app.ctx.db.select().from(webhookDeliveries);
      expect(refused).toMatchObject({ status: 'pending', tries: 1, responseCode: null });
      expect(refused!.lastError).toContain('refused');
      expect(received).toEqual([]);
    } finally {
      t.app.ctx.config.OUTBOUND_ALLOW_PRIVATE_URLS = true;
    }
    await makeRetriesDue();
    await flush();
    const [delivered] = await t.app.ctx.db.select().from(webhookDeliveries);
    expect(delivered).toMatchObject({ status: 'delivered', tries: 2 });
    expect(received.filter((r) => r.path === path).length).toBe(1);
  }

  it('refuses loopback, private and link-local addresses unless OUTBOUND_ALLOW_PRIVATE_URLS', async () => {
    // Saved while the policy is open (a self-hosted receiver), then the policy closes.
    await createHook(a, { url: `${base}/private`, events: ['contact.created'] });
    // Positive control: allowed, the retry reaches the receiver.
    await expectRefusedThenDelivered('/private');
  });

  it('checks at connect time: a host name that now resolves to loopback is refused at delivery', async () => {
    const port = (receiver.address() as AddressInfo).port;
    // internal.test resolves (through the context's resolver seam) to the loopback receiver.
    t.app.ctx.outbound = { resolve: async () => [{ address: '127.0.0.1', family: 4 }] };
    try {
      await createHook(a, { url: `http://internal.test:${port}/named`, events: ['contact.created'] });
      // Positive control: the switch on, the same name is delivered to.
      await expectRefusedThenDelivered('/named');
    } finally {
      t.app.ctx.outbound = undefined;
    }
  });

  it('refuses to save a webhook URL of a non-public address, in any notation, unless the switch is on', async () => {
    const port = (receiver.address() as AddressInfo).port;
    t.app.ctx.config.OUTBOUND_ALLOW_PRIVATE_URLS = false;
    try {
      for (const url of [
        `${base}/x`,
        `http://localhost:${port}/x`,
        `http://[::1]:${port}/x`,
        `http://[::ffff:127.0.0.1]:${port}/x`,
        `http://2130706433:${port}/x`,
        `http://0x7f.1:${port}/x`,
        'http://192.0.2.1/x',
        'http://100.64.0.1/x',
        'http://169.254.169.254/latest/meta-data',
      ]) {
        const res = await inject('POST', '/api/webhooks', a.admin, { url, events: ['contact.created'] });
        expect(res.statusCode, url).toBe(400);
        expect(res.json(), url).toMatchObject({ error: 'ERR_URL_NOT_ALLOWED', field: 'url' });
      }
      const hook = await createHook(a, { url: 'https://203.0.114.7/hook', events: ['contact.created'] });
      const moved = await inject('PUT', `/api/webhooks/${hook.id}`, a.admin, { url: `${base}/x` });
      expect(moved.statusCode).toBe(400);
      expect(moved.json()).toMatchObject({ error: 'ERR_URL_NOT_ALLOWED' });
    } finally {
      t.app.ctx.config.OUTBOUND_ALLOW_PRIVATE_URLS = true;
    }
    // Positive control: the switch on, a loopback receiver is saved.
    await createHook(a, { url: `${base}/x`, events: ['contact.created'] });
  });
});
