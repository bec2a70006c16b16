import { companyChannel } from '@zapdesk/shared';
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { messages, tickets, users as usersTable, whatsapps } from '../db/schema/index.js';
import { inject, t, useAppSuite } from '../test/app-suite.js';
import {
  type ConnectedTenant,
  customerSays,
  flushJobs,
  openOneQueueTenant,
  putSetting,
} from '../test/conversation.js';
import { bearer, createUser, customerNumber, type TestUser } from '../test/factories.js';
import { flowEdge, flowNode } from '../test/flow-fixture.js';
import { listenLocally, socketSet } from '../test/sockets.js';
import { FLOW_STEP_JOB } from './flows/flow-engine.js';

let url: string;
useAppSuite();
beforeAll(async () => {
  url = await listenLocally(t.app);
});

describe('automatic assignment', () => {
  let s: ConnectedTenant;
  let second: TestUser;
  const sockets = socketSet(() => url);
  const online = sockets.online;
  const run = () => t.app.jobs.drain();
  const setQueue = async (autoAssignment: string) => {
    const res = await inject('PUT', `/api/queue/${s.queueId}`, s.admin, { autoAssignment });
    expect(res.statusCode).toBe(200);
    expect(res.json().autoAssignment).toBe(autoAssignment);
  };
  const putUser = (as: TestUser, id: number, payload: object) =>
    t.app.inject({ method: 'PUT', url: `/api/users/${id}`, headers: bearer(as), payload });
  const row = async (id: number) => (await t.app.ctx.db.select().from(tickets).where(eq(tickets.id, id)))[0]!;
  const write = async (n: number) => {
    const ids: number[] = [];
    for (let i = 0; i < n; i++) {
      ids.push((await customerSays(t.app, s, customerNumber(), 'Oi', run)).ticketId);
    }
    return ids;
  };

  beforeEach(async () => {
    s = await openOneQueueTenant(t.app);
    second = await createUser(t.app, s.companyId, { queueIds: [s.queueId] });
  });
  afterEach(() => sockets.closeAll());

  it('is off by default: tickets wait for Accept', async () => {
    await online(s.agent);
    const [id] = await write(1);
    expect((await row(id!)).status).toBe('pending');
  });

  it('round robin gives each of two online agents two of four tickets, as an accept', async () => {
    await putSetting(t.app, s.companyId, 'sendGreetingAccepted', 'enabled');
    await setQueue('round_robin');
    const socket = await online(s.agent);
    await online(second);
    const events: { action: string; ticket?: { id: number; userId: number | null; status: string } }[] = [];
    socket.on(companyChannel(s.companyId, 'ticket'), (payload) => events.push(payload));
    const ids = await write(4);
    const rows = await Promise.all(ids.map(row));
    expect(rows.map((r) => r.status)).toEqual(['open', 'open', 'open', 'open']);
    expect(rows.every((r) => r.acceptedAt !== null)).toBe(true);
    const users = rows.map((r) => r.userId);
    expect(users.filter((u) => u === s.agent.id)).toHaveLength(2);
    expect(users.filter((u) => u === second.id)).toHaveLength(2);
    expect(users[0]).not.toBe(users[1]);
    // The agent's socket was told, as on Accept, and the customer greeted in the agent's name.
    const mine = ids.filter((_id, i) => users[i] === s.agent.id);
    await expect
      .poll(() => events.filter((e) => e.ticket?.status === 'open' && e.ticket.userId === s.agent.id).length)
      .toBeGreaterThanOrEqual(2);
    const sent = await t.app.ctx.db
      .select({ body: messages.body, ticketId: messages.ticketId })
      .from(messages)
      .where(and(eq(messages.companyId, s.companyId), eq(messages.fromMe, true)));
    const [agent] = await t.app.ctx.db.select().from(usersTable).where(eq(usersTable.id, s.agent.id));
    const greeted = sent.filter((m) => m.body.includes(`meu nome é *${agent!.name}*`));
    expect(greeted.map((m) => m.ticketId)).toEqual(mine);
  });

  it('least busy gives the next ticket to the agent with fewer open tickets', async () => {
    await setQueue('least_busy');
    await online(s.agent);
    const [first] = await write(1);
    expect((await row(first!)).userId).toBe(s.agent.id);
    await online(second);
    const [next] = await write(1);
    expect((await row(next!)).userId).toBe(second.id);
  });

  it('keeps agents within maxOpenTickets and assigns the oldest waiting ticket when one closes', async () => {
    await setQueue('round_robin');
    expect((await putUser(s.admin, s.agent.id, { maxOpenTickets: 1 })).statusCode).toBe(200);
    await online(s.agent);
    const ids = await write(3);
    const rows = await Promise.all(ids.map(row));
    expect(rows.map((r) => r.status)).toEqual(['open', 'pending', 'pending']);
    const res = await inject('PUT', `/api/tickets/${ids[0]}`, s.agent, { status: 'closed' });
    expect(res.statusCode).toBe(200);
    await run();
    expect((await row(ids[1]!)).userId).toBe(s.agent.id);
    expect((await row(ids[2]!)).status).toBe('pending');
    // More room: the last one follows at once.
    expect((await putUser(s.admin, s.agent.id, { maxOpenTickets: 0 })).statusCode).toBe(200);
    await run();
    expect((await row(ids[2]!)).userId).toBe(s.agent.id);
  });

  it('skips agents who are away or not connected, and assigns when they come back', async () => {
    await setQueue('round_robin');
    const [id] = await write(1);
    expect((await row(id!)).status).toBe('pending');
    expect((await putUser(s.agent, s.agent.id, { availability: 'away' })).json().availability).toBe('away');
    await online(s.agent);
    await run();
    expect((await row(id!)).status).toBe('pending');
    expect((await putUser(s.agent, s.agent.id, { availability: 'online' })).statusCode).toBe(200);
    await run();
    expect((await row(id!)).userId).toBe(s.agent.id);
  });

  it('assigns a waiting ticket when an agent connects', async () => {
    await setQueue('round_robin');
    const [id] = await write(1);
    expect((await row(id!)).status).toBe('pending');
    await online(second);
    await expect
      .poll(async () => {
        await run();
        return (await row(id!)).userId;
      })
      .toBe(second.id);
  });

  it('assigns a ticket returned to the queue to another available agent', async () => {
    await setQueue('round_robin');
    await online(s.agent);
    const [id] = await write(1);
    const holder = (await row(id!)).userId!;
    await online(second);
    const res = await inject('PUT', `/api/tickets/${id}`, s.admin, { status: 'pending', userId: null });
    expect(res.statusCode).toBe(200);
    await run();
    const after = await row(id!);
    expect(after.status).toBe('open');
    expect(after.userId).not.toBeNull();
    expect([s.agent.id, second.id]).toContain(holder);
  });

  it('refuses bad input with the field, and capacity from non-admins', async () => {
    for (const maxOpenTickets of [-1, 1001, 1.5]) {
      const res = await putUser(s.admin, s.agent.id, { maxOpenTickets });
      expect(res.statusCode).toBe(400);
      expect(JSON.stringify(res.json())).toContain('maxOpenTickets');
    }
    expect((await putUser(s.admin, s.agent.id, { maxOpenTickets: 1000 })).statusCode).toBe(200);
    expect((await putUser(s.agent, s.agent.id, { maxOpenTickets: 3 })).statusCode).toBe(403);
    expect((await putUser(s.agent, s.agent.id, { availability: 'busy' })).statusCode).toBe(400);
    const res = await inject('PUT', `/api/queue/${s.queueId}`, s.admin, { autoAssignment: 'random' });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain('autoAssignment');
  });

  it('hands out the waiting tickets when a queue is switched on', async () => {
    await online(s.agent);
    const [id] = await write(1);
    expect((await row(id!)).status).toBe('pending');
    await setQueue('least_busy');
    await run();
    expect((await row(id!)).userId).toBe(s.agent.id);
  });

  it("gives a deleted agent's open tickets to the queue's other agents", async () => {
    await setQueue('round_robin');
    await online(second);
    const [id] = await write(1);
    expect((await row(id!)).userId).toBe(second.id);
    await online(s.agent);
    await run();
    const res = await inject('DELETE', `/api/users/${second.id}`, s.admin);
    expect(res.statusCode).toBe(204);
    await run();
    const after = await row(id!);
    expect(after.status).toBe('open');
    expect(after.userId).toBe(s.agent.id);
  });

  it('assigns the ticket a flow hands to the queue when its run ends', async () => {
    await setQueue('round_robin');
    await online(s.agent);
    await run();
    const api = async (url: string, payload: object) => {
      const res = await t.app.inject({ method: 'POST', url, headers: bearer(s.admin), payload });
      expect(res.statusCode, res.body).toBeLessThan(300);
      return res.json();
    };
    const flow = await api('/api/flowbuilder', { name: 'Atendimento' });
    await api('/api/flowbuilder/flow', {
      idFlow: flow.id,
      nodes: [
        flowNode('1', 'start', { label: 'Inicio do fluxo' }),
        flowNode('hello', 'message', { label: 'Olá!' }),
        flowNode('queue', 'ticket', { data: { id: s.queueId, name: 'Fila' } }),
      ],
      connections: [flowEdge('1', 'hello'), flowEdge('hello', 'queue')],
    });
    await api('/api/flowcampaign', {
      name: 'Oi',
      flowId: flow.id,
      whatsappId: s.whatsappId,
      phrase: 'atendimento',
    });
    const { ticketId } = await customerSays(t.app, s, customerNumber(), 'atendimento', () =>
      flushJobs(t, FLOW_STEP_JOB, true),
    );
    const after = await row(ticketId);
    expect(after).toMatchObject({ status: 'open', userId: s.agent.id });
  });

  it('assigns the next ticket when an inactive one of the agent expires', async () => {
    await setQueue('round_robin');
    expect((await putUser(s.admin, s.agent.id, { maxOpenTickets: 1 })).statusCode).toBe(200);
    await online(s.agent);
    const [first, next] = await write(2);
    expect((await row(next!)).status).toBe('pending');
    await t.app.ctx.db.update(whatsapps).set({ expiresTicket: 5 }).where(eq(whatsapps.id, s.whatsappId));
    await t.app.ctx.db
      .update(tickets)
      .set({ updatedAt: new Date(Date.now() - 10 * 60_000) })
      .where(eq(tickets.id, first!));
    expect((await t.app.timers.run()).closed).toBe(1);
    await run();
    expect((await row(next!)).userId).toBe(s.agent.id);
  });
});
