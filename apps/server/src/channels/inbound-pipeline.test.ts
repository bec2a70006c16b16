import { companyChannel } from '@zapdesk/shared';
import { and, eq, inArray } from 'drizzle-orm';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, messages, settings, tickets } from '../db/schema/index.js';
import {
  bearer,
  createQueue,
  createSimulatorConnection,
  createUser,
  customerNumber,
  inboundMessage,
  injectAs,
  injectMessage,
} from '../test/factories.js';
import { listenLocally } from '../test/sockets.js';
import { a, b, t, useTenantPairSuite } from '../test/tenant-pair-suite.js';
import { buildSecondNode } from '../test/test-app.js';
import { emitMessageUpdates } from './message-events.js';

let whatsappId: number;
useTenantPairSuite();
const inject = injectAs(() => t.app);
beforeAll(async () => {
  whatsappId = await createSimulatorConnection(t.app, a.admin);
});

const inbound = inboundMessage;

const ref = () => ({ id: whatsappId, companyId: a.companyId });

/** Resolves once `done()` holds, checking every 10 ms (fails the test after 10 s). */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done(); waited += 10) {
    if (waited > 10_000) throw new Error('timed out waiting for the events');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('inbound pipeline', () => {
  it('creates exactly one ticket when 50 messages of a new contact arrive at once', async () => {
    const from = customerNumber();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => t.app.pipeline.ingest(ref(), inbound(from, `msg ${i}`))),
    );
    expect(results.every((r) => r !== undefined)).toBe(true);
    const [contact] = await t.app.ctx.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.companyId, a.companyId), eq(contacts.number, from)));
    const rows = await t.app.ctx.db.select().from(tickets).where(eq(tickets.contactId, contact!.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'pending', unreadMessages: 50 });
    const stored = await t.app.ctx.db.select().from(messages).where(eq(messages.ticketId, rows[0]!.id));
    expect(stored).toHaveLength(50);
  });

  it('stores a message whose text holds NUL bytes, without them', async () => {
    const from = customerNumber();
    const message = inbound(from, 'a\u0000b', { senderName: 'Nome\u0000' });
    expect(await t.app.pipeline.ingest(ref(), message)).toBeTruthy();
    const [stored] = await t.app.ctx.db.select().from(messages).where(eq(messages.wid, message.providerId));
    expect(stored?.body).toBe('ab');
    const clean = inbound(from, 'sem nulo');
    expect(await t.app.pipeline.ingest(ref(), clean)).toBeTruthy();
  });

  it('stores a redelivered message once', async () => {
    const from = customerNumber();
    const message = inbound(from, 'only once');
    const [first, second, third] = await Promise.all([
      t.app.pipeline.ingest(ref(), message),
      t.app.pipeline.ingest(ref(), message),
      t.app.pipeline.ingest(ref(), { ...message }),
    ]);
    expect([first, second, third].filter(Boolean)).toHaveLength(1);
    const stored = await t.app.ctx.db.select().from(messages).where(eq(messages.wid, message.providerId));
    expect(stored).toHaveLength(1);
    const [ticket] = await t.app.ctx.db.select().from(tickets).where(eq(tickets.id, stored[0]!.ticketId));
    expect(ticket?.unreadMessages).toBe(1);
  });

  it('loses no message when the process dies between store and emit', async () => {
    const from = customerNumber();
    const message = inbound(from, 'survives a crash');
    const original = t.app.ctx.realtime.toTicket.bind(t.app.ctx.realtime);
    t.app.ctx.realtime.toTicket = () => {
      throw new Error('crash after commit');
    };
    await expect(t.app.pipeline.ingest(ref(), message)).rejects.toThrow('crash after commit');
    t.app.ctx.realtime.toTicket = original;
    // "Restart": a second app on the same database lists the message.
    const restarted = await buildSecondNode(t, { nodeId: t.config.nodeId });
    const [row] = await t.database.db.select().from(messages).where(eq(messages.wid, message.providerId));
    const list = await restarted.inject({
      method: 'GET',
      url: `/api/messages/${row!.ticketId}`,
      headers: bearer(a.admin),
    });
    expect(list.json().messages.map((m: { body: string }) => m.body)).toContain('survives a crash');
    await restarted.close();
    // A redelivery after the restart is not stored twice.
    expect(await t.app.pipeline.ingest(ref(), message)).toBeUndefined();
  });

  it('reopens the closed ticket as pending when the contact writes again, keeping the history', async () => {
    const from = customerNumber();
    const first = await t.app.pipeline.ingest(ref(), inbound(from, 'primeira'));
    await t.app.ctx.db
      .update(tickets)
      .set({ status: 'closed', userId: a.agent.id })
      .where(eq(tickets.id, first!.ticket.id));
    const again = await t.app.pipeline.ingest(ref(), inbound(from, 'voltei'));
    expect(again?.ticket).toMatchObject({
      id: first!.ticket.id,
      status: 'pending',
      userId: null,
      lastMessage: 'voltei',
    });
    expect(again?.ticketCreated).toBe(true);
    const list = await inject('GET', `/api/messages/${again!.ticket.id}`, a.admin);
    expect(list.json().messages.map((m: { body: string }) => m.body)).toEqual(['primeira', 'voltei']);
  });

  it('links quoted replies and updates the contact name', async () => {
    const from = customerNumber();
    const original = inbound(from, 'pergunta', { senderName: 'Ana' });
    await t.app.pipeline.ingest(ref(), original);
    const reply = await t.app.pipeline.ingest(
      ref(),
      inbound(from, 'complemento', { senderName: 'Ana Souza', quotedProviderId: original.providerId }),
    );
    expect(reply?.message.quotedMsg?.body).toBe('pergunta');
    expect(reply?.ticket.contact.name).toBe('Ana Souza');
  });

  it('ignores group messages while CheckMsgIsGroup is enabled', async () => {
    const group = inbound('120363000000000001', 'no grupo', { isGroup: true });
    expect(await t.app.pipeline.ingest(ref(), group)).toBeUndefined();
    await t.app.ctx.db
      .update(settings)
      .set({ value: 'disabled' })
      .where(and(eq(settings.companyId, a.companyId), eq(settings.key, 'CheckMsgIsGroup')));
    const stored = await t.app.pipeline.ingest(ref(), { ...group, providerId: `${group.providerId}b` });
    expect(stored?.ticket.isGroup).toBe(true);
  });

  it('stores inbound media and serves it only to the owning company', async () => {
    const png =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    const { ticketId } = await injectMessage(t.app, a.admin, whatsappId, {
      from: customerNumber(),
      body: 'foto',
      mediaType: 'image',
      mediaUrl: `data:image/png;base64,${png}`,
    });
    const list = await inject('GET', `/api/messages/${ticketId}`, a.agent);
    const message = list.json().messages[0];
    expect(message).toMatchObject({ mediaType: 'image', body: 'foto' });
    expect(message.mediaUrl).toMatch(/^\/api\/public\/[0-9a-f]{32}\.png$/);
    const own = await inject('GET', message.mediaUrl, a.agent);
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/png');
    expect(own.rawPayload.equals(Buffer.from(png, 'base64'))).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: message.mediaUrl })).statusCode).toBe(401);
    expect((await inject('GET', message.mediaUrl, b.admin)).statusCode).toBe(404);
    expect((await inject('GET', '/api/public/..%2F..%2Fsecrets.json', a.admin)).statusCode).toBe(404);
  });
});

describe('events', () => {
  let url: string;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    url = await listenLocally(t.app);
  });
  afterAll(() => {
    for (const s of sockets) s.close();
  });
  const open = async (token: string) => {
    const socket = connect(url, {
      transports: ['websocket'],
      query: { token },
      forceNew: true,
      reconnection: false,
    });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('ready', () => resolve());
      socket.once('connect_error', reject);
    });
    return socket;
  };
  const record = (socket: Socket, event: string) => {
    const got: { action: string; message?: { body: string; ack: number }; ticket?: { id: number } }[] = [];
    socket.on(event, (payload) => got.push(payload));
    return got;
  };

  it('emits appMessage and ticket after commit to the company only; acks move forward only', async () => {
    const admin = await open(a.admin.token);
    const outsider = await open(b.admin.token);
    const adminMessages = record(admin, companyChannel(a.companyId, 'appMessage'));
    const adminTickets = record(admin, companyChannel(a.companyId, 'ticket'));
    const leakedA = record(outsider, companyChannel(a.companyId, 'appMessage'));
    const leakedB = record(outsider, companyChannel(b.companyId, 'appMessage'));
    const from = customerNumber();
    const { ticketId } = await injectMessage(t.app, a.admin, whatsappId, { from, body: 'Olá' });
    const sent = await inject('POST', `/api/messages/${ticketId}`, a.admin, { body: 'Oi!' });
    expect(sent.statusCode).toBe(201);
    const reply = sent.json()[0];
    // Sent (1) at least; the simulated phone's first delivery ack may already be in on a busy machine.
    expect(reply.ack).toBeGreaterThanOrEqual(1);
    const acks = () =>
      adminMessages
        .filter((e) => e.action === 'update' && e.message?.body === 'Oi!')
        .map((e) => e.message!.ack);
    // The simulated phone acks 2 (delivered) and 3 after its delivery delays; then it reads (4).
    await until(() => acks().includes(3));
    t.app.simulator.read(whatsappId, from);
    await until(() => acks().includes(4));
    // A late ack 2 changes nothing.
    await t.app.pipeline.ack({ id: whatsappId, companyId: a.companyId }, reply.wid, 2);
    const [row] = await t.app.ctx.db.select().from(messages).where(eq(messages.id, reply.id));
    expect(row?.ack).toBe(4);
    // Forward only: each update carries a higher ack than the one before, and the late 2 added none.
    const seen = acks();
    expect(seen.at(-1)).toBe(4);
    expect(seen.every((ack, i) => i === 0 || ack > seen[i - 1]!)).toBe(true);
    expect(adminMessages.filter((e) => e.action === 'create').map((e) => e.message!.body)).toEqual([
      'Olá',
      'Oi!',
    ]);
    expect(adminTickets.some((e) => e.ticket?.id === ticketId)).toBe(true);
    expect(leakedA).toEqual([]);
    expect(leakedB).toEqual([]);
  });

  it('never emits a message snapshot older than one it emitted; a failure always goes out', async () => {
    const admin = await open(a.admin.token);
    const events = record(admin, companyChannel(a.companyId, 'appMessage'));
    const from = customerNumber();
    const { id } = await injectMessage(t.app, a.admin, whatsappId, { from, body: 'instantâneo' });
    const setAck = (ack: number) => t.app.ctx.db.update(messages).set({ ack }).where(eq(messages.id, id));
    const emitted = () =>
      events
        .filter((e) => e.action === 'update' && e.message?.body === 'instantâneo')
        .map((e) => e.message!.ack);
    await setAck(3);
    await emitMessageUpdates(t.app.ctx, a.companyId, [id]);
    // A snapshot read before that change (as a slower emitter holds one) stays unsent.
    await setAck(1);
    await emitMessageUpdates(t.app.ctx, a.companyId, [id]);
    await setAck(-1);
    await emitMessageUpdates(t.app.ctx, a.companyId, [id]);
    await setAck(4);
    await emitMessageUpdates(t.app.ctx, a.companyId, [id]);
    await until(() => emitted().length >= 3);
    expect(emitted()).toEqual([3, -1, 4]);
  });

  it('stores the acks reported together in one batch: the highest wins, events never go back', async () => {
    const admin = await open(a.admin.token);
    const events = record(admin, companyChannel(a.companyId, 'appMessage'));
    const from = customerNumber();
    const inbound = await injectMessage(t.app, a.admin, whatsappId, { from, body: 'Olá' });
    const [ticket] = await t.app.ctx.db.select().from(tickets).where(eq(tickets.id, inbound.ticketId));
    // Sent messages stored as the driver left them (ack 1), without the simulator and its own acks.
    const sent = async (body: string, wid: string) => {
      const [row] = await t.app.ctx.db
        .insert(messages)
        .values({
          companyId: a.companyId,
          ticketId: inbound.ticketId,
          contactId: ticket!.contactId,
          whatsappId,
          body,
          fromMe: true,
          read: true,
          ack: 1,
          wid,
        })
        .returning({ id: messages.id });
      return row!;
    };
    const tag = customerNumber();
    const ids = { one: `BATCH-A-${tag}`, two: `BATCH-B-${tag}` };
    const [one, two] = [await sent('Lote A', ids.one), await sent('Lote B', ids.two)];
    const since = events.length;
    await Promise.all([
      t.app.pipeline.ack(ref(), ids.one, 2),
      t.app.pipeline.ack(ref(), ids.two, 2),
      t.app.pipeline.ack(ref(), ids.one, 3),
      t.app.pipeline.ack(ref(), ids.one, 2),
      t.app.pipeline.ack(ref(), ids.two, 4),
    ]);
    const rows = await t.app.ctx.db
      .select()
      .from(messages)
      .where(inArray(messages.id, [one.id, two.id]));
    expect(Object.fromEntries(rows.map((r) => [r.id, r.ack]))).toEqual({ [one.id]: 3, [two.id]: 4 });
    await expect.poll(() => events.length - since).toBeGreaterThanOrEqual(2);
    const acksOf = (body: string) =>
      events
        .slice(since)
        .filter((e) => e.action === 'update' && e.message?.body === body && e.message.ack > 1)
        .map((e) => e.message!.ack);
    // Reported in one tick, stored in one batch: one event each, with the highest ack.
    expect(acksOf('Lote A')).toEqual([3]);
    expect(acksOf('Lote B')).toEqual([4]);
    // A late lower ack changes nothing.
    await t.app.pipeline.ack(ref(), ids.one, 2);
    expect((await t.app.ctx.db.select().from(messages).where(eq(messages.id, one.id)))[0]?.ack).toBe(3);
  });

  it('sends ticket events only to the queue members and admins', async () => {
    const inQueue = await open(a.agent.token);
    const got = record(inQueue, companyChannel(a.companyId, 'appMessage'));
    const otherQueueAgent = await createUser(t.app, a.companyId, {
      queueIds: [await createQueue(t.app, a.companyId)],
    });
    const outsider = await open(otherQueueAgent.token);
    const leaked = record(outsider, companyChannel(a.companyId, 'appMessage'));
    const from = customerNumber();
    const { ticketId } = await injectMessage(t.app, a.admin, whatsappId, { from, body: 'fila' });
    await t.app.ctx.db.update(tickets).set({ queueId: a.queueId }).where(eq(tickets.id, ticketId));
    await injectMessage(t.app, a.admin, whatsappId, { from, body: 'na fila' });
    await new Promise((r) => setTimeout(r, 100));
    expect(got.map((e) => e.message?.body)).toEqual(['fila', 'na fila']);
    expect(leaked.map((e) => e.message?.body)).toEqual(['fila']);
  });
});

describe('routing', () => {
  it('puts a new ticket of a connection with exactly one queue in that queue', async () => {
    const single = await inject('POST', '/api/whatsapp', a.admin, {
      name: `Uma fila ${Date.now()}`,
      provider: 'simulator',
      queueIds: [a.queueId],
    });
    const stored = await injectMessage(t.app, a.admin, single.json().id, {
      from: customerNumber(),
      body: 'oi',
    });
    const [row] = await t.app.ctx.db.select().from(tickets).where(eq(tickets.id, stored.ticketId));
    expect(row?.queueId).toBe(a.queueId);
    const none = await injectMessage(t.app, a.admin, whatsappId, { from: customerNumber(), body: 'oi' });
    const [unrouted] = await t.app.ctx.db.select().from(tickets).where(eq(tickets.id, none.ticketId));
    expect(unrouted?.queueId).toBeNull();
  });
});

describe('contact numbers', () => {
  it('recognises a Brazilian mobile number with and without the ninth digit as one contact', async () => {
    const first = await t.app.pipeline.ingest(ref(), inbound('5511987654321', 'com nove'));
    const second = await t.app.pipeline.ingest(ref(), inbound('551187654321', 'sem nove'));
    expect(second?.ticket.contactId).toBe(first?.ticket.contactId);
    expect(second?.ticket.id).toBe(first?.ticket.id);
  });
});
