import { and, asc, eq, sql } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ticketEvents, tickets } from '../../db/schema/index.js';
import { inject, t, useAppSuite } from '../../test/app-suite.js';
import { customerSays, openOneQueueTenant, putSetting } from '../../test/conversation.js';
import { createUser, customerNumber } from '../../test/factories.js';
import { listenLocally, openSocket, socketReady } from '../../test/sockets.js';

/**
 * Ticket events (docs/reports.md "Events") are written by the change that causes them: the inbound
 * pipeline's ticket creation and reopening, Accept, automatic assignment, transfers, closing, and the
 * first message an agent writes in each opening of a ticket (greetings and bots' messages are not).
 */
let url: string;
const sockets: Socket[] = [];
useAppSuite();
beforeAll(async () => {
  url = await listenLocally(t.app);
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect();
});

const run = () => t.app.jobs.drain();

/** The ticket's events in order, as `kind:user:queue:hasSeconds`. */
async function eventsOf(ticketId: number): Promise<string[]> {
  const rows = await t.app.ctx.db
    .select()
    .from(ticketEvents)
    .where(eq(ticketEvents.ticketId, ticketId))
    .orderBy(asc(ticketEvents.id));
  return rows.map(
    (e) => `${e.kind}:${e.userId ?? '-'}:${e.queueId ?? '-'}:${e.seconds === null ? 'n' : 's'}`,
  );
}

describe('ticket events', () => {
  it('follow a ticket from the inbound pipeline through accept, replies, transfer, close and reopen', async () => {
    const s = await openOneQueueTenant(t.app);
    await putSetting(t.app, s.companyId, 'sendGreetingAccepted', 'enabled');
    const other = await createUser(t.app, s.companyId, { queueIds: [s.queueId] });
    const from = customerNumber();
    const { ticketId } = await customerSays(t.app, s, from, 'Oi', run);
    const q = s.queueId;
    expect(await eventsOf(ticketId)).toEqual([`created:-:${q}:n`]);
    const [ticket] = await t.app.ctx.db.select().from(tickets).where(eq(tickets.id, ticketId));
    const [created] = await t.app.ctx.db
      .select()
      .from(ticketEvents)
      .where(eq(ticketEvents.ticketId, ticketId));
    expect(created).toMatchObject({
      companyId: s.companyId,
      whatsappId: s.whatsappId,
      at: ticket!.createdAt,
    });

    // Accept sends the greeting in the agent's name: an assignment, not a reply.
    expect((await inject('PUT', `/api/tickets/${ticketId}`, s.agent, { status: 'open' })).statusCode).toBe(
      200,
    );
    expect(await eventsOf(ticketId)).toEqual([`created:-:${q}:n`, `assigned:${s.agent.id}:${q}:s`]);

    // The agent's first message is the first reply, once; the second is not.
    for (const body of ['Olá', 'Tudo bem?']) {
      expect((await inject('POST', `/api/messages/${ticketId}`, s.agent, { body })).statusCode).toBe(201);
    }
    const transfer = await inject('PUT', `/api/tickets/${ticketId}`, s.admin, { userId: other.id });
    expect(transfer.statusCode).toBe(200);
    expect((await inject('POST', `/api/messages/${ticketId}`, other, { body: 'Assumi' })).statusCode).toBe(
      201,
    );
    expect((await inject('PUT', `/api/tickets/${ticketId}`, other, { status: 'closed' })).statusCode).toBe(
      200,
    );
    expect(await eventsOf(ticketId)).toEqual([
      `created:-:${q}:n`,
      `assigned:${s.agent.id}:${q}:s`,
      `first_reply:${s.agent.id}:${q}:s`,
      `transferred:${other.id}:${q}:n`,
      `resolved:${other.id}:${q}:s`,
    ]);

    // The customer writes again: the pipeline reopens it; a new opening gets its own first reply.
    const again = await customerSays(t.app, s, from, 'Voltei', run);
    expect(again.ticketId).toBe(ticketId);
    expect(
      (await inject('POST', `/api/messages/${ticketId}`, s.admin, { body: 'Oi de novo' })).statusCode,
    ).toBe(201);
    expect(
      (await inject('POST', `/api/messages/${ticketId}`, s.agent, { body: 'Eu também' })).statusCode,
    ).toBe(201);
    expect((await eventsOf(ticketId)).slice(5)).toEqual([
      `reopened:-:${q}:n`,
      `first_reply:${s.admin.id}:${q}:s`,
    ]);
  });

  it('records one first reply when two agents answer at once', async () => {
    const s = await openOneQueueTenant(t.app);
    const { ticketId } = await customerSays(t.app, s, customerNumber(), 'Oi', run);
    const answers = await Promise.all(
      [s.agent, s.admin, s.agent, s.admin].map((user, i) =>
        inject('POST', `/api/messages/${ticketId}`, user, { body: `resposta ${i}` }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
    const replies = (await eventsOf(ticketId)).filter((e) => e.startsWith('first_reply'));
    expect(replies).toHaveLength(1);
  });

  it('records automatic assignment as an assignment and bots messages as no reply', async () => {
    const s = await openOneQueueTenant(t.app);
    await putSetting(t.app, s.companyId, 'sendGreetingAccepted', 'enabled');
    const res = await inject('PUT', `/api/queue/${s.queueId}`, s.admin, { autoAssignment: 'round_robin' });
    expect(res.statusCode).toBe(200);
    const socket = openSocket(url, s.agent.token);
    sockets.push(socket);
    await socketReady(socket);
    const { ticketId } = await customerSays(t.app, s, customerNumber(), 'Oi', run);
    expect((await t.app.ctx.db.select().from(tickets).where(eq(tickets.id, ticketId)))[0]!.userId).toBe(
      s.agent.id,
    );
    expect(await eventsOf(ticketId)).toEqual([
      `created:-:${s.queueId}:n`,
      `assigned:${s.agent.id}:${s.queueId}:s`,
    ]);
  });

  it('records a ticket an agent opens itself as created and assigned in one statement', async () => {
    const s = await openOneQueueTenant(t.app);
    const contact = await inject('POST', '/api/contacts', s.admin, {
      name: 'Cliente',
      number: customerNumber(),
    });
    const res = await inject('POST', '/api/tickets', s.agent, {
      contactId: contact.json().id,
      whatsappId: s.whatsappId,
      queueId: s.queueId,
      status: 'open',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(await eventsOf(res.json().id)).toEqual([
      `created:-:${s.queueId}:n`,
      `assigned:${s.agent.id}:${s.queueId}:s`,
    ]);
  });

  it('backfills tickets without events from their times and messages, once', async () => {
    const s = await openOneQueueTenant(t.app);
    const { ticketId } = await customerSays(t.app, s, customerNumber(), 'Oi', run);
    expect((await inject('PUT', `/api/tickets/${ticketId}`, s.agent, { status: 'open' })).statusCode).toBe(
      200,
    );
    expect((await inject('POST', `/api/messages/${ticketId}`, s.agent, { body: 'Olá' })).statusCode).toBe(
      201,
    );
    expect((await inject('PUT', `/api/tickets/${ticketId}`, s.agent, { status: 'closed' })).statusCode).toBe(
      200,
    );
    const kept = await eventsOf(ticketId);
    // As before the table existed: the events are gone; the backfill derives them again.
    await t.app.ctx.db.delete(ticketEvents).where(eq(ticketEvents.ticketId, ticketId));
    const backfill = async () =>
      Number((await t.app.ctx.db.execute(sql`select ticket_events_backfill() as n`)).rows[0]!.n);
    expect(await backfill()).toBe(4);
    expect(await eventsOf(ticketId)).toEqual(kept);
    const [row] = await t.app.ctx.db.select().from(tickets).where(eq(tickets.id, ticketId));
    const resolved = await t.app.ctx.db
      .select()
      .from(ticketEvents)
      .where(and(eq(ticketEvents.ticketId, ticketId), eq(ticketEvents.kind, 'resolved')));
    expect(resolved[0]!.at).toEqual(row!.closedAt);
    expect(await backfill()).toBe(0);
    expect(await eventsOf(ticketId)).toEqual(kept);
  });
});
