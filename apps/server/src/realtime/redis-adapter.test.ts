/**
 * Two server nodes on one database and one Redis: an event emitted by node 1 reaches a socket
 * connected to node 2, and login limits count failed attempts on both. Runs when TEST_REDIS_URL is set (.ci/run sets it when Redis answers).
 */
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { companyChannel } from '@zapdesk/shared';
import type { FastifyInstance } from 'fastify';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTenant,
  createUser,
  TEST_PASSWORD,
  type TenantFixture,
  tokenFor,
} from '../test/factories.js';
import { collectUntilMarker } from '../test/sockets.js';
import { buildSecondNode, createTestApp, type TestApp } from '../test/test-app.js';

const redisUrl = process.env.TEST_REDIS_URL;

describe.runIf(redisUrl)('socket.io across nodes through Redis', () => {
  let node1: TestApp;
  let node2: FastifyInstance;
  let tenant: TenantFixture;
  beforeAll(async () => {
    node1 = await createTestApp({ REDIS_URL: redisUrl! });
    node2 = await buildSecondNode(node1, { nodeId: node1.config.nodeId });
    await node2.listen({ port: 0, host: '127.0.0.1' });
    tenant = await createTenant(node1.app);
  });
  afterAll(async () => {
    await node2.close();
    await node1.close();
  });

  it('delivers an event emitted on node 1 to a socket of node 2', async () => {
    const port = (node2.server.address() as AddressInfo).port;
    const socket = connect(`http://127.0.0.1:${port}`, {
      transports: ['websocket'],
      query: { token: tenant.agent.token },
      forceNew: true,
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('ready', () => resolve());
      socket.once('connect_error', reject);
    });
    const received = new Promise<{ action: string; user: { name: string } }>((resolve) =>
      socket.once(companyChannel(tenant.companyId, 'user'), resolve),
    );
    const res = await node1.app.inject({
      method: 'PUT',
      url: `/api/users/${tenant.agent.id}`,
      headers: bearer(tenant.admin),
      payload: { name: 'Across Nodes' },
    });
    expect(res.statusCode).toBe(200);
    const event = await received;
    expect(event.user.name).toBe('Across Nodes');
    socket.close();
  });

  it('shares the login limits between the nodes', async () => {
    // A fresh address and e-mail: Redis keeps counters across runs for the window.
    const ip = `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;
    const email = `nobody-${crypto.randomUUID()}@example.com`;
    const attempt = (node: FastifyInstance) =>
      node.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: ip,
        payload: { email, password: 'wrong-password' },
      });
    for (let i = 0; i < node1.config.LOGIN_RATE_MAX; i++) {
      expect((await attempt(i % 2 ? node2 : node1.app)).statusCode).toBe(401);
    }
    const refused = await attempt(node2);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: 'ERR_TOO_MANY_REQUESTS', retryAfter: expect.any(Number) });
    // Successes give their points back in Redis: more sign-ins than the limit from one address pass.
    for (let i = 0; i <= node1.config.LOGIN_RATE_MAX; i++) {
      const ok = await (i % 2 ? node2 : node1.app).inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: ip,
        payload: { email: tenant.admin.email, password: TEST_PASSWORD },
      });
      expect(ok.statusCode).toBe(200);
    }
  });

  it("moves a node 2 socket out of a queue's room when node 1 removes its user from the queue", async () => {
    const port = (node2.server.address() as AddressInfo).port;
    const agent = await createUser(node1.app, tenant.companyId, { queueIds: [tenant.queueId] });
    // The admin's earlier sign-ins (login limits) ended its first session: a fresh one.
    const admin = { token: await tokenFor(node1.app, tenant.admin) };
    const socket = connect(`http://127.0.0.1:${port}`, {
      transports: ['websocket'],
      query: { token: agent.token },
      forceNew: true,
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('ready', () => resolve());
      socket.once('connect_error', reject);
    });
    const ticket = { companyId: tenant.companyId, queueId: tenant.queueId, userId: null, status: 'open' };
    const seen = async (act: () => unknown) =>
      (
        await collectUntilMarker<unknown>(
          node1.app,
          [socket],
          companyChannel(tenant.companyId, 'ticket'),
          act,
        )
      )[0]!;
    const emit = () => node1.app.ctx.realtime.toTicket(ticket, 'ticket', { action: 'delete', ticketId: 1 });
    expect(await seen(emit)).toHaveLength(1);
    const put = (queueIds: number[]) =>
      node1.app.inject({
        method: 'PUT',
        url: `/api/users/${agent.id}`,
        headers: bearer(admin),
        payload: { queueIds },
      });
    expect((await put([])).statusCode).toBe(200);
    expect(await seen(emit)).toHaveLength(0);
    expect((await put([tenant.queueId])).statusCode).toBe(200);
    expect(await seen(emit)).toHaveLength(1);
    socket.close();
  });
});
