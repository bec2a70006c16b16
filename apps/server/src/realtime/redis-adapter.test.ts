/**
 * Two server nodes on one database and one Redis: an event emitted by node 1 reaches a socket
 * connected to node 2. Runs when TEST_REDIS_URL is set (.ci/run sets it when Redis answers).
 */
import type { AddressInfo } from 'node:net';
import { companyChannel } from '@zapdesk/shared';
import type { FastifyInstance } from 'fastify';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { bearer, createTenant, type TenantFixture } from '../test/factories.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

const redisUrl = process.env.TEST_REDIS_URL;

describe.runIf(redisUrl)('socket.io across nodes through Redis', () => {
  let node1: TestApp;
  let node2: FastifyInstance;
  let tenant: TenantFixture;
  beforeAll(async () => {
    node1 = await createTestApp({ REDIS_URL: redisUrl! });
    node2 = await buildApp({
      config: node1.config,
      database: node1.database,
      secrets: node1.app.ctx.secrets,
      logger: false,
    });
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
});
