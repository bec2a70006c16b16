/**
 * Automatic assignment on two nodes sharing one database and one Redis: many waiting tickets,
 * both nodes assigning at once, agents connected to one node only; the offline hand-back asks every
 * node for the agent's sockets. Runs when TEST_REDIS_URL is set
 * (presence crosses nodes through the Redis adapter); on Postgres when TEST_DATABASE_URL is set.
 */
import { and, count, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, queues, tickets, users } from '../db/schema/index.js';
import { createTenant, createUser, type TenantFixture, type TestUser } from '../test/factories.js';
import { listenLocally, openSocket, socketReady } from '../test/sockets.js';
import { buildSecondNode, createTestApp, type TestApp } from '../test/test-app.js';
import { HAND_BACK_JOB } from './auto-assign.js';

const redisUrl = process.env.TEST_REDIS_URL;
const TICKETS = 200;

describe.runIf(redisUrl)('automatic assignment on two nodes', () => {
  let node1: TestApp;
  let node2: FastifyInstance;
  let tenant: TenantFixture;
  let agents: TestUser[];
  const sockets: Socket[] = [];
  let node2Url = '';
  let url1 = '';

  beforeAll(async () => {
    node1 = await createTestApp({ REDIS_URL: redisUrl! });
    node2 = await buildSecondNode(node1);
    node2Url = await listenLocally(node2);
    url1 = await listenLocally(node1.app);
    tenant = await createTenant(node1.app);
    agents = [tenant.agent];
    for (let i = 0; i < 3; i++)
      agents.push(await createUser(node1.app, tenant.companyId, { queueIds: [tenant.queueId] }));
    for (const agent of agents) {
      const socket = openSocket(node2Url, agent.token);
      sockets.push(socket);
      await socketReady(socket);
    }
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await node2.close();
    await node1.close();
  });

  it(`gives each of ${TICKETS} tickets to exactly one agent and nobody over capacity`, async () => {
    const { db } = node1.app.ctx;
    const { companyId, queueId } = tenant;
    // Capacities 40, 40, 40 and unlimited: the last agent takes what the others cannot.
    await db
      .update(users)
      .set({ maxOpenTickets: 40 })
      .where(
        inArray(
          users.id,
          agents.slice(0, 3).map((a) => a.id),
        ),
      );
    await db.update(queues).set({ autoAssignment: 'least_busy' }).where(eq(queues.id, queueId));
    const contactRows = await db
      .insert(contacts)
      .values(
        Array.from({ length: TICKETS }, (_v, i) => ({
          companyId,
          name: `C${i}`,
          number: `55119${700000 + i}`,
        })),
      )
      .returning({ id: contacts.id });
    await db
      .insert(tickets)
      .values(contactRows.map((c) => ({ companyId, contactId: c.id, queueId, status: 'pending' as const })));

    // Both nodes see the agents online (their sockets are on node 2 only).
    expect(
      (
        await node1.app.ctx.realtime.connectedUsers(
          companyId,
          agents.map((a) => a.id),
        )
      ).size,
    ).toBe(4);

    const runs = await Promise.all(
      [node1.app, node2, node1.app, node2, node1.app, node2].map((node) =>
        node.assigner.run({ companyId, queueId }),
      ),
    );
    // Every assignment counted once across the nodes: no ticket was given twice.
    expect(runs.reduce((a, b) => a + b, 0)).toBe(TICKETS);
    const loads = await db
      .select({ userId: tickets.userId, value: count() })
      .from(tickets)
      .where(and(eq(tickets.companyId, companyId), eq(tickets.status, 'open')))
      .groupBy(tickets.userId);
    const load = (id: number) => loads.find((l) => l.userId === id)?.value ?? 0;
    for (const agent of agents.slice(0, 3)) expect(load(agent.id)).toBeLessThanOrEqual(40);
    expect(loads.reduce((a, l) => a + l.value, 0)).toBe(TICKETS);
    const [left] = await db
      .select({ value: count() })
      .from(tickets)
      .where(and(eq(tickets.companyId, companyId), eq(tickets.status, 'pending')));
    expect(left!.value).toBe(0);

    // Capacity holds under a race too: everybody full, nothing more is given.
    await db.update(users).set({ maxOpenTickets: 40 }).where(eq(users.id, agents[3]!.id));
    const more = await db
      .insert(contacts)
      .values(
        Array.from({ length: 20 }, (_v, i) => ({ companyId, name: `D${i}`, number: `55118${700000 + i}` })),
      )
      .returning({ id: contacts.id });
    await db
      .insert(tickets)
      .values(more.map((c) => ({ companyId, contactId: c.id, queueId, status: 'pending' as const })));
    const extra = await Promise.all(
      [node1.app, node2].map((node) => node.assigner.run({ companyId, queueId })),
    );
    const given = extra.reduce((a, b) => a + b, 0);
    expect(given).toBe(Math.max(0, 40 - load(agents[3]!.id)));
  });

  it("checks an agent's sockets on every node before scheduling or doing the offline hand-back", async () => {
    const { companyId, queueId } = tenant;
    await node1.app.ctx.db
      .update(queues)
      .set({ autoAssignment: 'round_robin' })
      .where(eq(queues.id, queueId));
    const agent = await createUser(node1.app, companyId, { queueIds: [queueId] });
    const waiting = async () => {
      const { rows } = await node1.database.executor.executeSql(
        `select id from pgboss.job where name = $1 and state = 'created' and data->>'userId' = $2`,
        [HAND_BACK_JOB, String(agent.id)],
      );
      return rows.length;
    };
    // Connected to node 2 only: node 1 sees the socket and neither schedules nor gives anything back.
    const socket = openSocket(node2Url, agent.token);
    await socketReady(socket);
    expect(await node1.app.assigner.agentLeft({ companyId, userId: agent.id })).toBe(false);
    expect(await node1.app.assigner.handBack({ companyId, userId: agent.id })).toEqual([]);
    // The last socket closes on node 2: a job waits; the agent comes back on node 1: it is cancelled.
    socket.disconnect();
    await expect.poll(waiting).toBe(1);
    const back = openSocket(url1, agent.token);
    sockets.push(back);
    await socketReady(back);
    await expect.poll(waiting).toBe(0);
  });
});
