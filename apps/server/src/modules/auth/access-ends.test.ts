/**
 * Every way a user's access ends reaches its live sockets, not only its HTTP requests: a company
 * whose dueDate passed (core section 4, login gate) and a user moved out of a queue (its tickets'
 * events stop). Logout, password, role change and deletion are in auth.test.ts.
 */
import { companyChannel } from '@zapdesk/shared';
import type { Socket } from 'socket.io-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject, sockets, t, url, useListeningAppSuite } from '../../test/app-suite.js';
import {
  createTenantPair,
  createUser,
  setDueDate,
  type TenantFixture,
  type TestUser,
} from '../../test/factories.js';
import { collectUntilMarker, openSocket, socketReady } from '../../test/sockets.js';
import { SUBSCRIPTION_EXPIRY_JOB } from './subscription-expiry.js';

useListeningAppSuite();

async function connected(user: TestUser): Promise<Socket> {
  const socket = openSocket(url, user.token);
  sockets.push(socket);
  await socketReady(socket);
  return socket;
}

/** Resolves with the connect_error message when a handshake with this token is refused. */
function refused(token: string): Promise<string> {
  const socket = openSocket(url, token);
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect_error', (error) => resolve(error.message));
    socket.once('ready', () => reject(new Error('handshake accepted')));
  });
}

const me = (user: TestUser) => inject('GET', '/api/auth/me', user);

describe('a company whose dueDate passed', () => {
  let a: TenantFixture;
  let b: TenantFixture;
  let superUser: TestUser;
  beforeAll(async () => {
    ({ a, b } = await createTenantPair(t.app));
    superUser = await createUser(t.app, a.companyId, { profile: 'admin', super: true });
  });

  it('refuses requests and handshakes at once, and the expiry job ends the sockets already open', async () => {
    const agentSocket = await connected(a.agent);
    const superSocket = await connected(superUser);
    const otherSocket = await connected(b.agent);
    expect((await me(a.agent)).statusCode).toBe(200);

    await setDueDate(t.app, a.companyId, new Date(Date.now() - 60_000));
    const refusedNow = await me(a.agent);
    expect(refusedNow.statusCode).toBe(401);
    expect(refusedNow.json()).toEqual({ error: 'ERR_SESSION_EXPIRED' });
    expect(await refused(a.agent.token)).toBe('ERR_SESSION_EXPIRED');
    // Super users sign in to expired companies (login gate), and keep working.
    expect((await me(superUser)).statusCode).toBe(200);
    expect((await me(b.agent)).statusCode).toBe(200);

    const told = new Promise((resolve) => agentSocket.once(companyChannel(a.companyId, 'auth'), resolve));
    const dropped = new Promise((resolve) => agentSocket.once('disconnect', resolve));
    const [superGot, otherGot] = await collectUntilMarker(
      t.app,
      [superSocket, otherSocket],
      'disconnect',
      async () => {
        await t.app.jobs.send(SUBSCRIPTION_EXPIRY_JOB, {});
        await t.app.jobs.drain();
      },
    );
    expect(await told).toEqual({ action: 'logout', reason: 'subscription-expired', userId: a.agent.id });
    expect(await dropped).toBe('io server disconnect');
    expect(superGot).toEqual([]);
    expect(otherGot).toEqual([]);
    expect(superSocket.connected && otherSocket.connected).toBe(true);

    // The due date moved forward (the Expire action): a new sign-in works; the ended session stays ended.
    await setDueDate(t.app, a.companyId, new Date(Date.now() + 86_400_000));
    expect((await me(a.agent)).statusCode).toBe(401);
    expect((await me(a.admin)).statusCode).toBe(401);
  });
});

describe("a user's queues change", () => {
  it('its open sockets stop receiving the tickets of a queue it left, and receive them again when added', async () => {
    const { a } = await createTenantPair(t.app);
    const agentSocket = await connected(a.agent);
    const ticket = { companyId: a.companyId, queueId: a.queueId, userId: null, status: 'open' };
    const emitTicket = () =>
      t.app.ctx.realtime.toTicket(ticket, 'ticket', { action: 'delete', ticketId: 1 } as never);
    const seen = async (act: () => unknown) =>
      (await collectUntilMarker(t.app, [agentSocket], companyChannel(a.companyId, 'ticket'), act))[0]!;

    expect(await seen(emitTicket)).toHaveLength(1);
    const put = (queueIds: number[]) => inject('PUT', `/api/users/${a.agent.id}`, a.admin, { queueIds });
    expect((await put([])).statusCode).toBe(200);
    expect(await seen(emitTicket)).toHaveLength(0);
    expect((await put([a.queueId])).statusCode).toBe(200);
    expect(await seen(emitTicket)).toHaveLength(1);
    expect(agentSocket.connected).toBe(true);
  });
});
