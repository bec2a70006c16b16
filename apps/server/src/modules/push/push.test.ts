import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pushPreferences, pushSubscriptions, pushViewing } from '../../db/schema/index.js';
import { loadVapidKeys } from '../../lib/vapid.js';
import { customerSays, openOneQueueTenant } from '../../test/conversation.js';
import {
  bearer,
  createSimulatorConnection,
  createTenantPair,
  createUser,
  customerNumber,
  injectMessage,
  type TenantFixture,
  type TestUser,
} from '../../test/factories.js';
import { listenLocally, openSocket, socketReady } from '../../test/sockets.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { buildPushPayload, PUSH_SEND_JOB } from './push-notifier.js';

/** A push service on loopback: records each POST web-push makes; answers the status queued for its path. */
interface Pushed {
  path: string;
  headers: http.IncomingHttpHeaders;
  bytes: number;
}
const pushed: Pushed[] = [];
const statuses = new Map<string, number>();
const pushService = http.createServer((req, res) => {
  let bytes = 0;
  req.on('data', (c: Buffer) => {
    bytes += c.length;
  });
  req.on('end', () => {
    const path = req.url ?? '/';
    pushed.push({ path, headers: req.headers, bytes });
    res.statusCode = statuses.get(path) ?? 201;
    res.end();
  });
});
let base: string;

let t: TestApp;
let a: TenantFixture;
let b: TenantFixture;
let whatsappId: number;

/** A browser's subscription JSON with a real P-256 key, pointing at the fake push service's `path`. */
function subscription(path: string) {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `${base}${path}`,
    expirationTime: null,
    keys: {
      p256dh: ecdh.getPublicKey().toString('base64url'),
      auth: crypto.randomBytes(16).toString('base64url'),
    },
  };
}

const call = (user: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user), ...(payload ? { payload } : {}) });

const subscribe = async (user: TestUser, path: string) => {
  const res = await call(user, 'POST', '/api/push/subscriptions', subscription(path));
  expect(res.statusCode, res.body).toBe(201);
};

let listening: Promise<string> | undefined;
/** The app's address on loopback, for sockets (it starts listening once). */
const appUrl = () => {
  listening ??= listenLocally(t.app);
  return listening;
};

/** Lets the emitted events queue their pushes, then runs the due jobs. */
const flush = async () => {
  await t.app.push.settled();
  await t.app.jobs.drain();
};

/** The payloads of the push jobs queued so far, for `userId`. */
const queuedPayloads = async (userId: number) => {
  const rows = await t.app.ctx.db.execute<{
    data: { userId: number; payload: { title: string; body: string; url: string } };
  }>(sql`select data from pgboss.job where name = ${PUSH_SEND_JOB} order by created_on, id`);
  return rows.rows.map((r) => r.data).filter((d) => d.userId === userId);
};

/** A customer writes: a new ticket, then the admin hands it to the agent. @returns the ticket id. */
async function ticketHeldByAgent(): Promise<{ ticketId: number; from: string }> {
  const from = customerNumber();
  const { ticketId } = await injectMessage(t.app, a.admin, whatsappId, { from, body: 'primeira' });
  const res = await call(a.admin, 'PUT', `/api/tickets/${ticketId}`, { status: 'open', userId: a.agent.id });
  expect(res.statusCode, res.body).toBe(200);
  return { ticketId, from };
}

beforeAll(async () => {
  await new Promise<void>((resolve) => pushService.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(pushService.address() as AddressInfo).port}`;
  // The push service listens on loopback over http, which only OUTBOUND_ALLOW_PRIVATE_URLS allows.
  t = await createTestApp({ OUTBOUND_ALLOW_PRIVATE_URLS: 'true' });
  ({ a, b } = await createTenantPair(t.app));
  whatsappId = await createSimulatorConnection(t.app, a.admin);
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => pushService.close(resolve));
});
beforeEach(async () => {
  // Pushes a test left queued (a retry) are dropped before the other jobs run.
  await t.app.push.settled();
  await t.app.ctx.db.execute(sql`delete from pgboss.job where name = ${PUSH_SEND_JOB}`);
  await flush();
  await t.app.ctx.db.delete(pushSubscriptions);
  await t.app.ctx.db.delete(pushPreferences);
  await t.app.ctx.db.delete(pushViewing);
  await t.app.ctx.db.execute(sql`delete from pgboss.job where name = ${PUSH_SEND_JOB}`);
  pushed.length = 0;
  statuses.clear();
});

describe('push keys and subscriptions', () => {
  it('answers one VAPID public key, generated once into DATA_DIR', async () => {
    const first = await call(a.agent, 'GET', '/api/push/public-key');
    expect(first.statusCode).toBe(200);
    const { publicKey } = first.json() as { publicKey: string };
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    expect(loadVapidKeys(t.app.ctx.config).publicKey).toBe(publicKey);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/push/public-key' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('stores a subscription once per endpoint and lets only its owner remove it', async () => {
    const sub = subscription('/a');
    expect((await call(a.agent, 'POST', '/api/push/subscriptions', sub)).statusCode).toBe(201);
    expect((await call(a.agent, 'POST', '/api/push/subscriptions', sub)).statusCode).toBe(201);
    const rows = await t.app.ctx.db.select().from(pushSubscriptions);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ companyId: a.companyId, userId: a.agent.id, endpoint: sub.endpoint });
    const other = await call(b.agent, 'DELETE', '/api/push/subscriptions', { endpoint: sub.endpoint });
    expect(other.statusCode).toBe(404);
    expect(other.json().error).toBe('ERR_NOT_FOUND');
    const colleague = await call(a.admin, 'DELETE', '/api/push/subscriptions', { endpoint: sub.endpoint });
    expect(colleague.statusCode).toBe(404);
    expect(
      (await call(a.agent, 'DELETE', '/api/push/subscriptions', { endpoint: sub.endpoint })).statusCode,
    ).toBe(204);
    expect(await t.app.ctx.db.select().from(pushSubscriptions)).toHaveLength(0);
  });

  it('refuses subscriptions that are not a push service URL with keys', async () => {
    const good = subscription('/v');
    const cases: object[] = [
      { ...good, endpoint: 'not a url' },
      { ...good, endpoint: `${base}/${'x'.repeat(2048)}` },
      { ...good, endpoint: 'ftp://push.example.com/x' },
      { ...good, keys: { p256dh: good.keys.p256dh } },
      { ...good, keys: { ...good.keys, auth: 'x'.repeat(33) } },
      { ...good, keys: { ...good.keys, p256dh: `${good.keys.p256dh.slice(0, 80)}!!` } },
      { endpoint: good.endpoint },
    ];
    for (const payload of cases) {
      const res = await call(a.agent, 'POST', '/api/push/subscriptions', payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json().error).toBe('ERR_VALIDATION');
    }
    expect(await t.app.ctx.db.select().from(pushSubscriptions)).toHaveLength(0);
  });

  it('keeps preferences per user, changing only the flags a PUT names', async () => {
    const defaults = await call(a.agent, 'GET', '/api/push/preferences');
    expect(defaults.json()).toEqual({
      newPending: true,
      assigned: true,
      customerMessage: true,
      internalChat: true,
      slaWarning: true,
      slaBreach: true,
      mention: true,
      preview: false,
    });
    const put = await call(a.agent, 'PUT', '/api/push/preferences', {
      preview: true,
      newPending: false,
      slaWarning: false,
    });
    expect(put.json()).toMatchObject({ preview: true, newPending: false, assigned: true, slaWarning: false });
    expect((await call(a.agent, 'GET', '/api/push/preferences')).json()).toMatchObject({
      preview: true,
      newPending: false,
    });
    expect((await call(a.admin, 'GET', '/api/push/preferences')).json().preview).toBe(false);
    const bad = await call(a.agent, 'PUT', '/api/push/preferences', { preview: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('ERR_VALIDATION');
  });

  it('tells a service-level warning or breach by its target and due time, never a message text', () => {
    const event = {
      ticket: { uuid: 'u-1', name: 'Maria' },
      target: 'first_response',
      dueAt: '2026-11-27T17:30:00.000Z',
    } as const;
    expect(buildPushPayload({ ...event, kind: 'slaWarning' }, 'pt', true)).toEqual({
      title: 'Prazo perto do fim: Maria',
      body: 'Responder até 14:30',
      url: '/tickets/u-1',
      tag: 'sla-u-1',
      ticketUuid: 'u-1',
    });
    expect(
      buildPushPayload({ ...event, kind: 'slaBreach', target: 'resolution' }, 'en', false),
    ).toMatchObject({
      title: 'Overdue: Maria',
      body: 'Resolve by 14:30',
    });
    expect(buildPushPayload({ ...event, kind: 'slaBreach' }, 'es', false).title).toBe('Plazo vencido: Maria');
  });

  it('records the ticket on screen only when the caller may see it', async () => {
    const { ticketId } = await ticketHeldByAgent();
    expect((await call(b.agent, 'PUT', '/api/push/viewing', { ticketId })).statusCode).toBe(404);
    expect((await call(a.agent, 'PUT', '/api/push/viewing', { ticketId })).statusCode).toBe(204);
    expect((await call(a.agent, 'PUT', '/api/push/viewing', { ticketId: null })).statusCode).toBe(204);
    expect((await call(a.agent, 'PUT', '/api/push/viewing', { ticketId: 'x' })).statusCode).toBe(400);
    // The classic client's mark of the ticket it shows records the same.
    expect((await call(a.agent, 'POST', `/api/tickets/${ticketId}/active-view`)).statusCode).toBe(204);
    const [viewing] = await t.app.ctx.db.select().from(pushViewing).where(eq(pushViewing.userId, a.agent.id));
    expect(viewing?.ticketId).toBe(ticketId);
  });
});

describe('push payload', () => {
  const event = {
    kind: 'customerMessage' as const,
    ticket: { id: 1, uuid: 'u-1', name: 'Maria' },
    text: 'meu cartão 1234',
  };

  it('carries the message text only with preview on', () => {
    const off = buildPushPayload(event, 'pt', false);
    expect(JSON.stringify(off)).not.toContain('1234');
    expect(off).toEqual({
      title: 'Nova mensagem de Maria',
      body: 'Abra o Zapdesk para ver.',
      url: '/tickets/u-1',
      tag: 'ticket-u-1',
      ticketUuid: 'u-1',
    });
    expect(buildPushPayload(event, 'en', true)).toMatchObject({
      title: 'New message from Maria',
      body: 'meu cartão 1234',
    });
    expect(buildPushPayload({ ...event, text: 'x'.repeat(500) }, 'es', true).body).toHaveLength(200);
  });
});

describe('sending', () => {
  it('pushes a customer message on the agent ticket once, to the fake push service, without text', async () => {
    const { ticketId, from } = await ticketHeldByAgent();
    await flush();
    await subscribe(a.agent, '/agent');
    await injectMessage(t.app, a.admin, whatsappId, { from, body: 'segredo do cliente' });
    await flush();
    expect(pushed.map((p) => p.path)).toEqual(['/agent']);
    const [request] = pushed;
    expect(request!.headers['content-encoding']).toBe('aes128gcm');
    expect(String(request!.headers.authorization)).toMatch(/^vapid t=.+, k=.+$/);
    expect(request!.bytes).toBeGreaterThan(86);
    const payloads = await queuedPayloads(a.agent.id);
    expect(payloads).toHaveLength(1);
    expect(payloads[0]!.payload.url).toMatch(/^\/tickets\/[0-9a-f-]{36}$/);
    expect(JSON.stringify(payloads[0])).not.toContain('segredo');
    const [row] = await t.app.ctx.db.select().from(pushSubscriptions);
    expect(row!.lastUsedAt).not.toBeNull();
    expect(ticketId).toBeGreaterThan(0);
  });

  it('puts the text in the payload when the agent turned preview on', async () => {
    const { from } = await ticketHeldByAgent();
    await flush();
    await subscribe(a.agent, '/agent');
    await call(a.agent, 'PUT', '/api/push/preferences', { preview: true });
    await injectMessage(t.app, a.admin, whatsappId, { from, body: 'texto visível' });
    await flush();
    expect((await queuedPayloads(a.agent.id)).map((d) => d.payload.body)).toEqual(['texto visível']);
    expect(pushed).toHaveLength(1);
  });

  it('sends nothing for the ticket the agent has on screen while connected', async () => {
    const { ticketId, from } = await ticketHeldByAgent();
    await flush();
    await subscribe(a.agent, '/agent');
    const url = await appUrl();
    const socket = openSocket(url, a.agent.token);
    try {
      await socketReady(socket);
      await call(a.agent, 'PUT', '/api/push/viewing', { ticketId });
      await injectMessage(t.app, a.admin, whatsappId, { from, body: 'já estou vendo' });
      await flush();
      expect(pushed).toEqual([]);
      // Another ticket on screen: this one pushes again.
      await call(a.agent, 'PUT', '/api/push/viewing', { ticketId: null });
      await injectMessage(t.app, a.admin, whatsappId, { from, body: 'e agora?' });
      await flush();
      expect(pushed.map((p) => p.path)).toEqual(['/agent']);
    } finally {
      socket.close();
    }
  });

  it('pushes a new pending ticket to the company users and an assignment to its new holder', async () => {
    await subscribe(a.agent, '/agent');
    await subscribe(a.admin, '/admin');
    await call(a.admin, 'PUT', '/api/push/preferences', { newPending: false });
    const from = customerNumber();
    const { ticketId } = await injectMessage(t.app, a.admin, whatsappId, { from, body: 'olá' });
    await flush();
    expect(pushed.map((p) => p.path)).toEqual(['/agent']);
    await injectMessage(t.app, a.admin, whatsappId, { from, body: 'alguém?' });
    await flush();
    expect(pushed).toHaveLength(1);
    await call(a.admin, 'PUT', `/api/tickets/${ticketId}`, { status: 'open', userId: a.agent.id });
    await flush();
    expect(pushed.map((p) => p.path)).toEqual(['/agent', '/agent']);
    const titles = (await queuedPayloads(a.agent.id)).map((d) => d.payload.title);
    expect(titles).toEqual([
      expect.stringMatching(/^Novo atendimento/),
      expect.stringMatching(/^Atendimento atribuído/),
    ]);
    expect(await queuedPayloads(b.agent.id)).toEqual([]);
  });

  it('pushes a transfer to the new holder and an automatic assignment to the agent it chose', async () => {
    const { ticketId } = await ticketHeldByAgent();
    await flush();
    const colleague = await createUser(t.app, a.companyId, { queueIds: [a.queueId] });
    await subscribe(a.agent, '/agent');
    await subscribe(colleague, '/colleague');
    await call(a.admin, 'PUT', `/api/tickets/${ticketId}`, { status: 'open', userId: colleague.id });
    await flush();
    expect(pushed.map((p) => p.path)).toEqual(['/colleague']);

    // A queue that assigns by itself: the chosen agent, online, gets the assignment push.
    const s = await openOneQueueTenant(t.app);
    await subscribe(s.agent, '/auto');
    await subscribe(s.admin, '/auto-admin');
    await call(s.admin, 'PUT', '/api/push/preferences', { newPending: false, assigned: false });
    const res = await call(s.admin, 'PUT', `/api/queue/${s.queueId}`, { autoAssignment: 'round_robin' });
    expect(res.statusCode, res.body).toBe(200);
    const url = await appUrl();
    const socket = openSocket(url, s.agent.token);
    try {
      await socketReady(socket);
      pushed.length = 0;
      const run = async () => {
        await flush();
        await flush();
      };
      const { ticketId: auto } = await customerSays(t.app, s, customerNumber(), 'Oi', run);
      const [job] = (await queuedPayloads(s.agent.id)).filter((d) =>
        d.payload.title.startsWith('Atendimento atribuído'),
      );
      expect(job).toBeDefined();
      expect(pushed.map((p) => p.path)).toContain('/auto');
      expect(pushed.map((p) => p.path)).not.toContain('/auto-admin');
      expect(auto).toBeGreaterThan(0);
    } finally {
      socket.close();
    }
  });

  it('pushes an internal-chat message to the other participants only', async () => {
    await subscribe(a.agent, '/agent');
    await subscribe(a.admin, '/admin');
    const chat = await call(a.admin, 'POST', '/api/chats', { title: 'Equipe', users: [a.agent.id] });
    expect(chat.statusCode).toBe(201);
    await call(a.admin, 'POST', `/api/chats/${chat.json().id}/messages`, { message: 'reunião às 3' });
    await flush();
    expect(pushed.map((p) => p.path)).toEqual(['/agent']);
    const [job] = await queuedPayloads(a.agent.id);
    expect(job!.payload.url).toBe(`/chats/${chat.json().uuid}`);
  });

  it('removes a subscription the push service answers 410 for, and retries other failures', async () => {
    const { from } = await ticketHeldByAgent();
    await flush();
    await subscribe(a.agent, '/gone');
    statuses.set('/gone', 410);
    await injectMessage(t.app, a.admin, whatsappId, { from, body: 'oi' });
    await flush();
    expect(pushed.map((p) => p.path)).toEqual(['/gone']);
    expect(await t.app.ctx.db.select().from(pushSubscriptions)).toHaveLength(0);

    await subscribe(a.agent, '/busy');
    statuses.set('/busy', 503);
    await injectMessage(t.app, a.admin, whatsappId, { from, body: 'oi de novo' });
    await t.app.push.settled();
    await expect(t.app.jobs.drain()).rejects.toThrow(/503/);
    const [kept] = await t.app.ctx.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, `${base}/busy`));
    expect(kept).toBeDefined();
    const retry = await t.app.ctx.db.execute<{ state: string }>(
      sql`select state from pgboss.job where name = ${PUSH_SEND_JOB} and state = 'retry'`,
    );
    expect(retry.rows).toHaveLength(1);
  });
});

describe('endpoints where private URLs are not allowed', () => {
  let strict: TestApp;
  let owner: TenantFixture;
  beforeAll(async () => {
    strict = await createTestApp();
    ({ a: owner } = await createTenantPair(strict.app));
  });
  afterAll(() => strict.close());

  it('takes only https endpoints on public addresses', async () => {
    const post = (endpoint: string) =>
      strict.app.inject({
        method: 'POST',
        url: '/api/push/subscriptions',
        headers: bearer(owner.agent),
        payload: { ...subscription('/x'), endpoint },
      });
    for (const endpoint of [
      'http://push.example.com/send/1',
      'https://127.0.0.1/send/1',
      'https://10.1.2.3/send/1',
    ]) {
      const res = await post(endpoint);
      expect(res.statusCode, endpoint).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_URL_NOT_ALLOWED', field: 'endpoint' });
    }
    expect((await post('https://93.184.216.34/send/1')).statusCode).toBe(201);
  });
});
