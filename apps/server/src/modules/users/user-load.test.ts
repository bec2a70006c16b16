import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { tickets } from '../../db/schema/index.js';
import { type ConnectedTenant, customerSays, openOneQueueTenant } from '../../test/conversation.js';
import { createTenant, createUser, customerNumber, injectAs, type TestUser } from '../../test/factories.js';
import { listeningTestApp, openSocket, socketReady } from '../../test/sockets.js';

const live = listeningTestApp();
const inject = injectAs(() => live.t.app);

describe('GET /users/load', () => {
  let s: ConnectedTenant;
  let second: TestUser;
  const load = (user: TestUser) => inject('GET', '/api/users/load', user);
  const take = (id: number, userId: number, status: 'open' | 'pending' | 'closed') =>
    live.t.app.ctx.db.update(tickets).set({ userId, status }).where(eq(tickets.id, id));

  beforeAll(async () => {
    s = await openOneQueueTenant(live.t.app);
    second = await createUser(live.t.app, s.companyId, { queueIds: [s.queueId] });
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push(
        (await customerSays(live.t.app, s, customerNumber(), 'Oi', () => live.t.app.jobs.drain())).ticketId,
      );
    }
    await take(ids[0]!, s.agent.id, 'open');
    await take(ids[1]!, s.agent.id, 'open');
    await take(ids[2]!, s.agent.id, 'closed');
    await take(ids[3]!, second.id, 'pending');
    // Another company's open tickets count for nobody here.
    const other = await createTenant(live.t.app);
    expect((await load(other.admin)).json().map((r: { id: number }) => r.id)).not.toContain(s.agent.id);
  });

  it("answers each agent's open tickets, capacity, availability, live socket and queues", async () => {
    expect((await inject('PUT', `/api/users/${s.agent.id}`, s.admin, { maxOpenTickets: 3 })).statusCode).toBe(
      200,
    );
    await inject('PUT', `/api/users/${second.id}`, second, { availability: 'away' });
    const socket = openSocket(live.url, s.agent.token);
    await socketReady(socket);
    try {
      const res = await load(s.admin);
      expect(res.statusCode, res.body).toBe(200);
      const rows = res.json() as { id: number }[];
      const byId = (id: number) => rows.find((r) => r.id === id);
      expect(byId(s.agent.id)).toMatchObject({
        openTickets: 2,
        maxOpenTickets: 3,
        availability: 'online',
        online: true,
        queues: [{ id: s.queueId }],
      });
      expect(byId(second.id)).toMatchObject({ openTickets: 0, availability: 'away', online: false });
      expect(byId(s.admin.id)).toMatchObject({ openTickets: 0, online: false });
    } finally {
      socket.disconnect();
    }
  });

  it('is for admins only', async () => {
    expect((await load(s.agent)).statusCode).toBe(403);
  });
});
