/** The ingest benchmark's setup: the app on a fresh Postgres database, its company and agent sockets. */
import type { AddressInfo } from 'node:net';
import { companyChannel } from '@zapdesk/shared';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { io as connect, type Socket } from 'socket.io-client';
import { SimulatorDriver } from '../../apps/server/src/channels/simulator/simulator-driver.js';
import type { DatabaseHandle } from '../../apps/server/src/db/client.js';
import {
  createCompany,
  createSimulatorConnection,
  createUser,
  type TestUser,
} from '../../apps/server/src/test/factories.js';
import { type OnTeardown, openServerBench } from '../support/app.js';
import type { Params } from './options.js';

/** The app's pool size (apps/server/src/db/client.ts); the INSERT reference uses the same. */
export const APP_POOL_MAX = 10;

/** The app under test, its simulator connection and the agents' sockets. */
export interface Bench {
  app: FastifyInstance;
  database: DatabaseHandle;
  appPool: pg.Pool | undefined;
  ref: pg.Pool;
  companyId: number;
  whatsappId: number;
  driver: SimulatorDriver;
  sockets: Socket[];
  /** Per agent socket, the handler of appMessage create events (replaced by each phase). */
  onMessage: (body: string) => void;
  /** The inbound pipeline's batch counters. */
  pipelineStats: () => { batches: number; messages: number };
}

/**
 * A fresh database on the server, the app listening on loopback, a company with an admin and
 * `params.agents` agents (admins, so they receive every ticket's events), a simulator connection, and
 * one socket.io client per agent. Every resource registers its release with `onTeardown`.
 */
export async function setup(params: Params, onTeardown: OnTeardown): Promise<Bench> {
  const { app, database, ref, url } = await openServerBench(params.serverUrl, 'zapdesk_bench', onTeardown, {
    hexBytes: 6,
    refMax: APP_POOL_MAX,
    tag: 'ingest',
  });
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host) && !host.startsWith('/')) {
    console.warn(`warning: BENCH_DATABASE_URL host '${host}' is not loopback`);
  }
  const appPool = (database.db as unknown as { $client?: unknown }).$client;

  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;

  const companyId = await createCompany(app, {
    plan: { users: params.agents + 1, connections: 1, queues: 1 },
  });
  const owner = await createUser(app, companyId, { profile: 'admin', name: 'Bench admin' });
  const agents: TestUser[] = [];
  for (let i = 0; i < params.agents; i++) {
    // Admins join the company's admins room, which receives every ticket's events.
    agents.push(await createUser(app, companyId, { profile: 'admin', name: `Agent ${i + 1}` }));
  }
  const whatsappId = await createSimulatorConnection(app, owner, 'Bench simulator');
  const driver = app.sessions.get(whatsappId);
  if (!(driver instanceof SimulatorDriver)) throw new Error('the simulator session did not start');

  const bench: Bench = {
    app,
    database,
    appPool: appPool instanceof pg.Pool ? appPool : undefined,
    ref,
    companyId,
    whatsappId,
    driver,
    sockets: [],
    onMessage: () => {},
    pipelineStats: () => app.pipeline.stats,
  };
  const channel = companyChannel(companyId, 'appMessage');
  onTeardown('agent sockets', () => {
    for (const socket of bench.sockets) socket.disconnect();
  });
  await Promise.all(
    agents.map(
      (agent) =>
        new Promise<void>((resolve, reject) => {
          const socket = connect(`http://127.0.0.1:${port}`, {
            query: { token: agent.token },
            transports: ['websocket'],
            reconnection: false,
            forceNew: true,
          });
          bench.sockets.push(socket);
          const timer = setTimeout(() => reject(new Error('socket not ready within 10 s')), 10_000);
          socket.on('connect_error', (error) => {
            clearTimeout(timer);
            reject(error);
          });
          socket.on('ready', () => {
            clearTimeout(timer);
            resolve();
          });
          socket.on(channel, (payload: { action?: string; message?: { body?: unknown } }) => {
            if (payload.action === 'create' && typeof payload.message?.body === 'string') {
              bench.onMessage(payload.message.body);
            }
          });
        }),
    ),
  );
  return bench;
}
