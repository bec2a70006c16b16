/**
 * Kanban (document 2 sections 2, 6 and 7): the board's tickets with the inbox's visibility, the
 * lane tags of a ticket (add, move in one request, remove), the useKanban plan flag and tenancy.
 */
import { companyChannel, KANBAN_PAGE_SIZE, ZKanbanPage } from '@zapdesk/shared';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { contacts, tags, tickets } from '../../db/schema/index.js';
import { a, t, useConnectionSuite, whatsappId } from '../../test/connection-suite.js';
import {
  createCompanyAdmin,
  createConnectedTenant,
  createQueue,
  createTenant,
  customerNumber,
  injectAs,
  injectMessage,
} from '../../test/factories.js';
import { collectUntilMarker, listenLocally, openSocket, socketReady } from '../../test/sockets.js';

useConnectionSuite();

const inject = injectAs(() => t.app);

/** A new ticket of company A, placed in `queueId` with `status`. */
async function ticketOf(queueId: number | null, status: 'open' | 'pending' | 'closed' = 'pending') {
  const { ticketId } = await injectMessage(t.app, a.admin, whatsappId, {
    from: customerNumber(),
    body: 'oi',
  });
  await t.app.ctx.db.update(tickets).set({ queueId, status, userId: null }).where(eq(tickets.id, ticketId));
  return ticketId;
}

async function tagOf(companyId: number, name: string, kanban: 0 | 1) {
  const [row] = await t.app.ctx.db
    .insert(tags)
    .values({ companyId, name, kanban })
    .returning({ id: tags.id });
  return row!.id;
}

const tagIdsOf = async (ticketId: number) =>
  ((await inject('GET', `/api/tickets/${ticketId}`, a.admin)).json().tags as { id: number }[])
    .map((tag) => tag.id)
    .sort((x, y) => x - y);

describe('GET /ticket/kanban', () => {
  it('lists the live tickets the caller sees, with contact, last message and tags', async () => {
    const otherQueue = await createQueue(t.app, a.companyId);
    const mine = await ticketOf(a.queueId);
    const noQueue = await ticketOf(null, 'open');
    const elsewhere = await ticketOf(otherQueue);
    const closed = await ticketOf(a.queueId, 'closed');
    const lane = await tagOf(a.companyId, 'Lane visível', 1);
    await inject('PUT', `/api/ticket-tags/${mine}/${lane}`, a.admin);

    const agentPage = await inject('GET', '/api/ticket/kanban?showAll=true', a.agent);
    expect(agentPage.statusCode).toBe(200);
    const body = ZKanbanPage.parse(agentPage.json());
    const ids = body.tickets.map((x) => x.id);
    // showAll counts for admins only: the agent sees its queue and tickets without a queue.
    expect(ids).toEqual(expect.arrayContaining([mine, noQueue]));
    expect(ids).not.toContain(elsewhere);
    expect(ids).not.toContain(closed);
    const card = body.tickets.find((x) => x.id === mine)!;
    expect(card).toMatchObject({ lastMessage: 'oi', tags: [{ id: lane, name: 'Lane visível' }] });
    expect(card.contact.number).toMatch(/^55119/);
    expect(body.hasMore).toBe(false);

    const adminIds = (await inject('GET', '/api/ticket/kanban?showAll=true', a.admin))
      .json()
      .tickets.map((x: { id: number }) => x.id);
    expect(adminIds).toEqual(expect.arrayContaining([mine, noQueue, elsewhere]));
    expect(adminIds).not.toContain(closed);

    // queueIds (as JSON) narrows to those queues and tickets without a queue.
    const narrowed = (
      await inject(
        'GET',
        `/api/ticket/kanban?showAll=true&queueIds=${encodeURIComponent(`[${otherQueue}]`)}`,
        a.admin,
      )
    )
      .json()
      .tickets.map((x: { id: number }) => x.id);
    expect(narrowed).toEqual(expect.arrayContaining([elsewhere, noQueue]));
    expect(narrowed).not.toContain(mine);
  });

  it('pages KANBAN_PAGE_SIZE cards, newest first, without gaps or repeats', async () => {
    const c = await createTenant(t.app);
    const rows = Array.from({ length: KANBAN_PAGE_SIZE + 1 }, (_, i) => ({
      companyId: c.companyId,
      name: `Cliente ${i}`,
      number: `5521${String(i).padStart(8, '0')}`,
    }));
    const made = await t.app.ctx.db.insert(contacts).values(rows).returning({ id: contacts.id });
    const ids = (
      await t.app.ctx.db
        .insert(tickets)
        .values(
          made.map((contact) => ({ companyId: c.companyId, contactId: contact.id, status: 'open' as const })),
        )
        .returning({ id: tickets.id })
    ).map((r) => r.id);
    const first = (await inject('GET', '/api/ticket/kanban?showAll=true', c.admin)).json();
    expect(first.tickets).toHaveLength(KANBAN_PAGE_SIZE);
    expect(first.hasMore).toBe(true);
    expect(first.tickets[0].id).toBe(Math.max(...ids));
    const second = (await inject('GET', '/api/ticket/kanban?showAll=true&pageNumber=2', c.admin)).json();
    expect(second).toMatchObject({ hasMore: false });
    const seen = [...first.tickets, ...second.tickets].map((x: { id: number }) => x.id);
    expect(new Set(seen).size).toBe(ids.length);
    expect([...seen].sort((x, y) => x - y)).toEqual([...ids].sort((x, y) => x - y));
  });

  it('answers 400 for a malformed queueIds', async () => {
    const res = await inject('GET', '/api/ticket/kanban?queueIds=%5Bx', a.admin);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('ERR_VALIDATION');
  });
});

describe('ticket lane tags', () => {
  it('moves a card between lanes in one request, keeping the tags that are not lanes', async () => {
    const ticketId = await ticketOf(a.queueId);
    const from = await tagOf(a.companyId, 'Lane de', 1);
    const to = await tagOf(a.companyId, 'Lane para', 1);
    const plain = await tagOf(a.companyId, 'Etiqueta comum', 0);
    expect((await inject('PUT', `/api/ticket-tags/${ticketId}/${from}`, a.agent)).statusCode).toBe(200);
    expect((await inject('PUT', `/api/ticket-tags/${ticketId}/${plain}`, a.agent)).statusCode).toBe(200);
    // Without replace (the spec's call as written), the tag is only added: the positive control.
    const added = await inject('PUT', `/api/ticket-tags/${ticketId}/${to}`, a.agent);
    expect(added.statusCode).toBe(200);
    expect(await tagIdsOf(ticketId)).toEqual([from, to, plain].sort((x, y) => x - y));
    await inject('DELETE', `/api/ticket-tags/${ticketId}`, a.agent);
    expect(await tagIdsOf(ticketId)).toEqual([plain]);

    await inject('PUT', `/api/ticket-tags/${ticketId}/${from}`, a.agent);
    const moved = await inject('PUT', `/api/ticket-tags/${ticketId}/${to}?replace=true`, a.agent);
    expect(moved.statusCode).toBe(200);
    expect(
      moved
        .json()
        .tags.map((x: { id: number }) => x.id)
        .sort(),
    ).toEqual([to, plain].sort());
    expect(await tagIdsOf(ticketId)).toEqual([to, plain].sort((x, y) => x - y));
    // The same move again changes nothing (the tag is kept once).
    expect((await inject('PUT', `/api/ticket-tags/${ticketId}/${to}?replace=true`, a.agent)).statusCode).toBe(
      200,
    );
    expect(await tagIdsOf(ticketId)).toEqual([to, plain].sort((x, y) => x - y));
  });

  it('emits the ticket update to the company sockets that see the ticket', async () => {
    const url = await listenLocally(t.app);
    const socket = openSocket(url, a.agent.token);
    await socketReady(socket);
    try {
      const ticketId = await ticketOf(a.queueId);
      const lane = await tagOf(a.companyId, 'Lane ao vivo', 1);
      const [got] = await collectUntilMarker<{
        action: string;
        ticket?: { id: number; tags: { id: number }[] };
      }>(t.app, [socket], companyChannel(a.companyId, 'ticket'), () =>
        inject('PUT', `/api/ticket-tags/${ticketId}/${lane}?replace=true`, a.admin),
      );
      expect(got).toContainEqual({
        action: 'update',
        ticket: expect.objectContaining({ id: ticketId, tags: [expect.objectContaining({ id: lane })] }),
      });
    } finally {
      socket.close();
    }
  });

  it('refuses a ticket the agent may not open (403) and unknown ids (404)', async () => {
    const otherQueue = await createQueue(t.app, a.companyId);
    const hidden = await ticketOf(otherQueue);
    const lane = await tagOf(a.companyId, 'Lane oculta', 1);
    const refused = await inject('PUT', `/api/ticket-tags/${hidden}/${lane}`, a.agent);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('ERR_NO_PERMISSION');
    expect((await inject('DELETE', `/api/ticket-tags/${hidden}`, a.agent)).statusCode).toBe(403);
    expect((await inject('PUT', `/api/ticket-tags/${hidden}/${lane}`, a.admin)).statusCode).toBe(200);
    const unknownTag = await inject('PUT', `/api/ticket-tags/${hidden}/2147483000`, a.admin);
    expect(unknownTag.statusCode).toBe(404);
    expect(unknownTag.json().error).toBe('ERR_NOT_FOUND');
    expect((await inject('DELETE', '/api/ticket-tags/2147483000', a.admin)).json().error).toBe(
      'ERR_NO_TICKET_FOUND',
    );
  });

  it("answers 404 for another company's tag on the caller's own ticket", async () => {
    const b = await createConnectedTenant(t.app);
    const { ticketId } = await injectMessage(t.app, b.admin, b.whatsappId, {
      from: customerNumber(),
      body: 'oi',
    });
    const foreign = await tagOf(a.companyId, 'Lane de A', 1);
    const own = await tagOf(b.companyId, 'Lane de B', 1);
    const res = await inject('PUT', `/api/ticket-tags/${ticketId}/${foreign}`, b.admin);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('ERR_NOT_FOUND');
    expect((await inject('PUT', `/api/ticket-tags/${ticketId}/${own}`, b.admin)).statusCode).toBe(200);
    const page = (await inject('GET', '/api/ticket/kanban?showAll=true', b.admin)).json();
    expect(page.tickets.map((x: { id: number }) => x.id)).toEqual([ticketId]);
  });
});

describe('plan flag useKanban', () => {
  it('answers 403 ERR_PLAN_FEATURE_DISABLED without the flag and 200 with it', async () => {
    const admin = await createCompanyAdmin(t.app, { plan: { useKanban: false } });
    const calls: ['GET' | 'PUT' | 'DELETE', string][] = [
      ['GET', '/api/ticket/kanban'],
      ['GET', '/api/tags/kanban'],
      ['PUT', '/api/ticket-tags/1/1'],
      ['DELETE', '/api/ticket-tags/1'],
    ];
    for (const [method, url] of calls) {
      const res = await inject(method, url, admin);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error, url).toBe('ERR_PLAN_FEATURE_DISABLED');
    }
    expect((await inject('GET', '/api/ticket/kanban', a.admin)).statusCode).toBe(200);
    expect((await inject('GET', '/api/tags/kanban', a.admin)).statusCode).toBe(200);
  });
});
