import { ZTicketsPage } from '@zapdesk/shared';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { protocolOf } from '../../automation/message-variables.js';
import { messages, settings, tags, tickets, users } from '../../db/schema/index.js';
import { a, t, useConnectionSuite, whatsappId } from '../../test/connection-suite.js';
import {
  bearer,
  createConnectedTenant,
  createQueue,
  createSimulatorConnection,
  createTenant,
  createUser,
  customerNumber,
  injectAs,
  injectMessage,
  type TestUser,
} from '../../test/factories.js';
import { AUTOMATIC_MESSAGES } from './tickets-service.js';

useConnectionSuite();
const inject = injectAs(() => t.app);

const list = async (user: TestUser, query = '') =>
  ZTicketsPage.parse((await inject('GET', `/api/tickets?${query}`, user)).json());
const put = (user: TestUser, id: number, payload: object) =>
  t.app.inject({ method: 'PUT', url: `/api/tickets/${id}`, headers: bearer(user), payload });
const setSetting = (key: string, value: string) =>
  t.app.ctx.db
    .update(settings)
    .set({ value })
    .where(and(eq(settings.companyId, a.companyId), eq(settings.key, key)));
const newTicket = async (body = 'Olá', queueId: number | null = null) => {
  const from = customerNumber();
  const { ticketId } = await injectMessage(t.app, a.admin, whatsappId, {
    from,
    body,
    name: `Cliente ${from.slice(-4)}`,
  });
  if (queueId !== null) await t.app.ctx.db.update(tickets).set({ queueId }).where(eq(tickets.id, ticketId));
  return { ticketId, from };
};

describe('visibility', () => {
  it('a user sees its queues, its own, no-queue tickets and, with allTicket, pending of all queues', async () => {
    const otherQueue = await createQueue(t.app, a.companyId);
    const mine = await newTicket('fila do agente', a.queueId);
    const foreign = await newTicket('outra fila', otherQueue);
    const noQueue = await newTicket('sem fila');
    const ids = async (user: TestUser, q = '') => (await list(user, q)).tickets.map((x) => x.id);
    const agentSees = await ids(a.agent);
    expect(agentSees).toEqual(expect.arrayContaining([mine.ticketId, noQueue.ticketId]));
    expect(agentSees).not.toContain(foreign.ticketId);
    const denied = await inject('GET', `/api/tickets/${foreign.ticketId}`, a.agent);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await inject('GET', `/api/messages/${foreign.ticketId}`, a.agent)).statusCode).toBe(403);

    await t.app.ctx.db.update(users).set({ allTicket: 'enabled' }).where(eq(users.id, a.agent.id));
    expect(await ids(a.agent)).toContain(foreign.ticketId);
    expect(await ids(a.agent, 'status=open')).not.toContain(foreign.ticketId);
    await t.app.ctx.db.update(users).set({ allTicket: 'desabled' }).where(eq(users.id, a.agent.id));

    expect(await ids(a.admin)).not.toContain(foreign.ticketId);
    expect(await ids(a.admin, 'showAll=true')).toContain(foreign.ticketId);
    expect(await ids(a.agent, 'showAll=true')).not.toContain(foreign.ticketId);
    expect((await inject('GET', `/api/tickets/${foreign.ticketId}`, a.admin)).statusCode).toBe(200);
  });

  it("hides another user's ticket without a queue from list and detail; unheld ones stay everybody's", async () => {
    const colleague = await createUser(t.app, a.companyId, { queueIds: [a.queueId] });
    const held = await newTicket('sem fila, de um colega');
    const free = await newTicket('sem fila, livre');
    expect((await put(a.admin, held.ticketId, { status: 'open', userId: colleague.id })).statusCode).toBe(
      200,
    );
    const ids = async (user: TestUser, q = '') => (await list(user, q)).tickets.map((x) => x.id);
    const agentSees = await ids(a.agent);
    expect(agentSees).toContain(free.ticketId);
    expect(agentSees).not.toContain(held.ticketId);
    expect(await ids(colleague)).toContain(held.ticketId);
    const detail = (user: TestUser, id: number) => inject('GET', `/api/tickets/${id}`, user);
    expect((await detail(a.agent, held.ticketId)).statusCode).toBe(403);
    expect((await detail(a.agent, free.ticketId)).statusCode).toBe(200);
    expect((await detail(colleague, held.ticketId)).statusCode).toBe(200);
    expect(await ids(a.admin, 'showAll=true')).toContain(held.ticketId);
  });

  it('answers code, the protocol number (creation day in São Paulo and the id), on list and detail', async () => {
    const x = await newTicket('protocolo');
    const [row] = await t.app.ctx.db.select().from(tickets).where(eq(tickets.id, x.ticketId));
    const expected = protocolOf(x.ticketId, row!.createdAt);
    expect(expected).toMatch(/^\d{8}\d+$/);
    expect(Number(expected.slice(8))).toBe(x.ticketId);
    const detail = await inject('GET', `/api/tickets/${x.ticketId}`, a.admin);
    expect(detail.json().code).toBe(expected);
    expect((await list(a.admin, 'showAll=true')).tickets.find((tk) => tk.id === x.ticketId)?.code).toBe(
      expected,
    );
  });

  it('filters by status, queue, user, tags, unread and searches names, numbers and message bodies', async () => {
    const x = await newTicket('procuro um abacaxi amarelo', a.queueId);
    await put(a.admin, x.ticketId, { status: 'open', userId: a.agent.id });
    const page = await list(a.admin, 'showAll=true&searchParam=ABACAXI');
    expect(page.tickets.map((p) => p.id)).toEqual([x.ticketId]);
    expect(
      (await list(a.admin, `showAll=true&searchParam=${x.from.slice(-6)}`)).tickets.map((p) => p.id),
    ).toEqual([x.ticketId]);
    expect(
      (await list(a.admin, `showAll=true&status=open&users=[${a.agent.id}]`)).tickets.map((p) => p.id),
    ).toContain(x.ticketId);
    expect((await list(a.admin, 'showAll=true&status=pending')).tickets.map((p) => p.id)).not.toContain(
      x.ticketId,
    );
    expect(
      (await list(a.admin, `showAll=true&queueIds=[${a.queueId}]`)).tickets.every(
        (p) => p.queueId === a.queueId || p.queueId === null,
      ),
    ).toBe(true);
    expect(
      (await list(a.admin, 'showAll=true&withUnreadMessages=true')).tickets.every(
        (p) => p.unreadMessages > 0,
      ),
    ).toBe(true);
    const bad = await inject('GET', '/api/tickets?queueIds=[x]', a.admin);
    expect(bad.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'queueIds' });
  });

  it('filters by creation and update day in São Paulo time, not UTC', async () => {
    const { ticketId } = await newTicket('Boa noite');
    // 01:30 UTC on the 21st is 22:30 on the 20th in São Paulo (UTC-3).
    await t.app.ctx.db
      .update(tickets)
      .set({ createdAt: new Date('2026-11-21T01:30:00Z'), updatedAt: new Date('2026-11-21T03:30:00Z') })
      .where(eq(tickets.id, ticketId));
    const ids = async (q: string) => (await list(a.admin, `showAll=true&${q}`)).tickets.map((x) => x.id);
    expect(await ids('date=2026-11-20')).toContain(ticketId);
    expect(await ids('date=2026-11-21')).not.toContain(ticketId);
    // 03:30 UTC is 00:30 on the 21st locally.
    expect(await ids('updatedAt=2026-11-21')).toContain(ticketId);
    expect(await ids('updatedAt=2026-11-20')).not.toContain(ticketId);
  });

  it('pages by 40 with hasMore and count', async () => {
    const fresh = await createConnectedTenant(t.app);
    for (let i = 0; i < 45; i++)
      await injectMessage(t.app, fresh.admin, fresh.whatsappId, { from: customerNumber(), body: `m${i}` });
    const first = await list(fresh.admin, 'showAll=true');
    expect(first.tickets).toHaveLength(40);
    expect(first).toMatchObject({ count: 45, hasMore: true });
    const second = await list(fresh.admin, 'showAll=true&pageNumber=2');
    expect(second.tickets).toHaveLength(5);
    expect(second.hasMore).toBe(false);
    expect(new Set([...first.tickets, ...second.tickets].map((x) => x.id)).size).toBe(45);
  });

  it('pages a search whose matches come from contact names and message bodies, without repeats', async () => {
    const fresh = await createConnectedTenant(t.app);
    for (let i = 0; i < 46; i++) {
      // Even tickets match by the contact name, odd ones by a message body, every fifth by both.
      const both = i % 5 === 0;
      await injectMessage(t.app, fresh.admin, fresh.whatsappId, {
        from: customerNumber(),
        name: i % 2 === 0 || both ? `Zebra ${i}` : `Cliente ${i}`,
        body: i % 2 === 1 || both ? `vi uma zebra ${i}` : `oi ${i}`,
      });
    }
    await injectMessage(t.app, fresh.admin, fresh.whatsappId, {
      from: customerNumber(),
      name: 'Outro',
      body: 'nada a ver',
    });
    const first = await list(fresh.admin, 'showAll=true&searchParam=ZEBRA');
    const second = await list(fresh.admin, 'showAll=true&searchParam=zebra&pageNumber=2');
    expect(first.tickets).toHaveLength(40);
    expect(first.hasMore).toBe(true);
    expect(second.tickets).toHaveLength(6);
    expect(second.hasMore).toBe(false);
    const all = [...first.tickets, ...second.tickets];
    expect(new Set(all.map((x) => x.id)).size).toBe(46);
    const times = all.map((x) => x.updatedAt);
    expect([...times].sort().reverse()).toEqual(times);
  });
});

describe('transitions', () => {
  it('accept assigns the caller and sends the greeting when sendGreetingAccepted is enabled', async () => {
    await setSetting('sendGreetingAccepted', 'enabled');
    const { ticketId, from } = await newTicket('bom dia', a.queueId);
    const res = await put(a.agent, ticketId, { status: 'open', userId: a.agent.id });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'open', userId: a.agent.id });
    const outbox = t.app.simulator.outbox(whatsappId, from);
    expect(outbox.map((o) => o.body)).toEqual([
      AUTOMATIC_MESSAGES.greeting(res.json().contact.name, res.json().user.name),
    ]);
    await setSetting('sendGreetingAccepted', 'disabled');
    const other = await newTicket('boa tarde', a.queueId);
    await put(a.agent, other.ticketId, { status: 'open', userId: a.agent.id });
    expect(t.app.simulator.outbox(whatsappId, other.from)).toEqual([]);
  });

  it('return, transfer with message, resolve and reopen', async () => {
    await setSetting('sendMsgTransfTicket', 'enabled');
    const sales = await createQueue(t.app, a.companyId, 'Vendas');
    const { ticketId, from } = await newTicket('quero comprar', a.queueId);
    await put(a.agent, ticketId, { status: 'open', userId: a.agent.id });
    const back = await put(a.agent, ticketId, { status: 'pending', userId: null });
    expect(back.json()).toMatchObject({ status: 'pending', userId: null });
    await put(a.agent, ticketId, { status: 'open', userId: a.agent.id });
    const moved = await put(a.agent, ticketId, { queueId: sales, userId: null, status: 'pending' });
    expect(moved.json()).toMatchObject({ status: 'pending', queueId: sales, userId: null });
    expect(t.app.simulator.outbox(whatsappId, from).at(-1)?.body).toBe(
      AUTOMATIC_MESSAGES.transferQueue('Vendas'),
    );
    expect((await inject('GET', `/api/tickets/${ticketId}`, a.agent)).statusCode).toBe(403);
    const closed = await put(a.admin, ticketId, { status: 'closed', userId: a.admin.id, queueId: sales });
    expect(closed.json()).toMatchObject({ status: 'closed', unreadMessages: 0 });
    const reopened = await put(a.admin, ticketId, { status: 'open', userId: a.admin.id, queueId: sales });
    expect(reopened.json()).toMatchObject({ status: 'open', userId: a.admin.id });
    await setSetting('sendMsgTransfTicket', 'disabled');
  });

  it('refuses to reopen while another live ticket exists, and POST /tickets reports the live one', async () => {
    const { ticketId, from } = await newTicket('primeiro', a.queueId);
    await put(a.admin, ticketId, { status: 'closed' });
    const second = await injectMessage(t.app, a.admin, whatsappId, { from, body: 'de novo' });
    expect(second.ticketId).toBe(ticketId);
    const live = (await inject('GET', `/api/tickets/${ticketId}`, a.admin)).json();
    const created = await inject('POST', '/api/tickets', a.admin, {
      contactId: live.contactId,
      whatsappId,
      queueId: a.queueId,
    });
    expect(created.statusCode).toBe(409);
    expect(created.json()).toMatchObject({ error: 'ERR_OTHER_OPEN_TICKET', ticket: { id: ticketId } });
  });

  it('POST /tickets starts open on the default connection; DELETE is for admins', async () => {
    const fresh = await createTenant(t.app);
    const noConnection = await inject('POST', '/api/tickets', fresh.admin, { contactId: 1 });
    expect(noConnection.json().error).toBe('ERR_NO_CONTACT_FOUND');
    const conn = await createSimulatorConnection(t.app, fresh.admin);
    const { ticketId } = await injectMessage(t.app, fresh.admin, conn, { from: customerNumber(), body: 'x' });
    const contactId = (await inject('GET', `/api/tickets/${ticketId}`, fresh.admin)).json().contactId;
    await put(fresh.admin, ticketId, { status: 'closed' });
    const created = await inject('POST', '/api/tickets', fresh.agent, { contactId, queueId: fresh.queueId });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ status: 'open', userId: fresh.agent.id, whatsappId: conn });
    expect((await inject('DELETE', `/api/tickets/${created.json().id}`, fresh.agent)).statusCode).toBe(403);
    expect((await inject('DELETE', `/api/tickets/${created.json().id}`, fresh.admin)).statusCode).toBe(204);
  });
});

describe('reading, notes and tags', () => {
  it('opening the messages zeroes unreadMessages and marks the messages read', async () => {
    const { ticketId } = await newTicket('não lida', a.queueId);
    await injectMessage(t.app, a.admin, whatsappId, {
      from: (await inject('GET', `/api/tickets/${ticketId}`, a.admin)).json().contact.number,
      body: 'outra',
    });
    expect((await inject('GET', `/api/tickets/${ticketId}`, a.agent)).json().unreadMessages).toBe(2);
    const page = await inject('GET', `/api/messages/${ticketId}`, a.agent);
    expect(page.json().ticket.unreadMessages).toBe(0);
    expect(page.json().messages.map((m: { read: boolean }) => m.read)).toEqual([true, true]);
    expect((await inject('GET', `/api/tickets/${ticketId}`, a.agent)).json().unreadMessages).toBe(0);
  });

  it('POST /messages/:ticketId/read reads what arrived while the ticket is open, with receipts and updateUnread', async () => {
    const { ticketId, from } = await newTicket('primeira', a.queueId);
    const open = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(a.agent) });
    expect((await open(`/api/messages/${ticketId}`)).json().ticket.unreadMessages).toBe(0);
    const arrived = await injectMessage(t.app, a.admin, whatsappId, { from, body: 'chegou agora' });
    expect((await open(`/api/tickets/${ticketId}`)).json().unreadMessages).toBe(1);

    const session = t.app.sessions.get(whatsappId)!;
    const receipts = vi.spyOn(session, 'markRead');
    const emitted = vi.spyOn(t.app.ctx.realtime, 'toTicket');
    const read = () => inject('POST', `/api/messages/${ticketId}/read`, a.agent);
    const res = await read();
    expect(res.statusCode).toBe(204);
    expect((await open(`/api/tickets/${ticketId}`)).json().unreadMessages).toBe(0);
    const [row] = await t.app.ctx.db
      .select({ read: messages.read, wid: messages.wid })
      .from(messages)
      .where(eq(messages.id, arrived.id));
    expect(row?.read).toBe(true);
    expect(receipts).toHaveBeenCalledWith(from, [row?.wid]);
    expect(emitted).toHaveBeenCalledWith(expect.objectContaining({ id: ticketId }), 'ticket', {
      action: 'updateUnread',
      ticketId,
    });
    // Nothing new: no statement beyond the check, no event, no receipt.
    receipts.mockClear();
    emitted.mockClear();
    expect((await read()).statusCode).toBe(204);
    expect(receipts).not.toHaveBeenCalled();
    expect(emitted).not.toHaveBeenCalled();
    receipts.mockRestore();
    emitted.mockRestore();

    const foreign = await newTicket('de outra fila', await createQueue(t.app, a.companyId));
    const refused = await inject('POST', `/api/messages/${foreign.ticketId}/read`, a.agent);
    expect(refused.statusCode).toBe(403);
    const invalid = await inject('POST', '/api/messages/3000000000/read', a.agent);
    // An id past int4 is no ticket (ids in paths answer as an unknown path does).
    expect([invalid.statusCode, invalid.json().error]).toEqual([404, 'ERR_NOT_FOUND']);
  });

  it('adds and deletes notes (author or admin) and syncs tags', async () => {
    const { ticketId } = await newTicket('nota', a.queueId);
    const ticket = (await inject('GET', `/api/tickets/${ticketId}`, a.agent)).json();
    const short = await inject('POST', '/api/ticket-notes', a.agent, {
      note: 'x',
      ticketId,
      contactId: ticket.contactId,
    });
    expect(short.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'note', message: 'tooShort' });
    const note = await inject('POST', '/api/ticket-notes', a.agent, {
      note: 'cliente VIP',
      ticketId,
      contactId: ticket.contactId,
    });
    expect(note.statusCode).toBe(201);
    expect(note.json()).toMatchObject({ note: 'cliente VIP', user: { id: a.agent.id } });
    const listed = await inject(
      'GET',
      `/api/ticket-notes/list?ticketId=${ticketId}&contactId=${ticket.contactId}`,
      a.admin,
    );
    expect(listed.json().map((n: { note: string }) => n.note)).toEqual(['cliente VIP']);
    const colleague = await createUser(t.app, a.companyId, { queueIds: [a.queueId] });
    expect((await inject('DELETE', `/api/ticket-notes/${note.json().id}`, colleague)).statusCode).toBe(403);
    expect((await inject('DELETE', `/api/ticket-notes/${note.json().id}`, a.agent)).statusCode).toBe(204);

    const [vip] = await t.app.ctx.db
      .insert(tags)
      .values({ companyId: a.companyId, name: `VIP ${ticketId}`, color: '#f00' })
      .returning();
    const synced = await inject('POST', '/api/tags/sync', a.agent, { ticketId, tags: [{ id: vip!.id }] });
    expect(synced.json().tags).toEqual([{ id: vip!.id, name: `VIP ${ticketId}`, color: '#f00' }]);
    expect((await list(a.admin, `showAll=true&tags=[${vip!.id}]`)).tickets.map((x) => x.id)).toEqual([
      ticketId,
    ]);
    const cleared = await inject('POST', '/api/tags/sync', a.agent, { ticketId, tags: [] });
    expect(cleared.json().tags).toEqual([]);
  });
});
