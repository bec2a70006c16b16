import { companyChannel } from '@zapdesk/shared';
import { eq } from 'drizzle-orm';
import { io as connect, type Socket } from 'socket.io-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema/index.js';
import { inject, sockets, t, url, useListeningAppSuite } from '../test/app-suite.js';
import { createTenantPair, login, type TenantFixture, tokenFor } from '../test/factories.js';
import { collectUntilMarker } from '../test/sockets.js';

let a: TenantFixture;
let b: TenantFixture;

useListeningAppSuite();
beforeAll(async () => {
  ({ a, b } = await createTenantPair(t.app));
});

function open(options: { query?: Record<string, string>; auth?: Record<string, string> }): Socket {
  const socket = connect(url, { transports: ['websocket'], reconnection: false, forceNew: true, ...options });
  sockets.push(socket);
  return socket;
}

function connected(socket: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('ready', () => resolve());
    socket.once('connect_error', reject);
  });
}

function refused(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => reject(new Error('connected')));
    socket.once('connect_error', (error) => resolve(error.message));
  });
}

/**
 * Emits, as the realtime layer does for a change, an 'update' of ticket `id` on company A's ticket
 * channel to the sockets that may see a ticket of `queueId`, `userId` and `status`.
 */
function ticketUpdate(
  ticket: { queueId: number | null; userId: number | null; status: string },
  id: number,
): void {
  t.app.ctx.realtime.toTicket({ companyId: a.companyId, ...ticket }, 'ticket', {
    action: 'update',
    ticket: { id },
  });
}

/** Resolves with the events received on `event` within `ms`. */
function collect<T>(socket: Socket, event: string, ms = 300): Promise<T[]> {
  const got: T[] = [];
  socket.on(event, (payload: T) => got.push(payload));
  return new Promise((resolve) => setTimeout(() => resolve(got), ms));
}

describe('socket.io handshake', () => {
  it('refuses a missing, forged or expired token', async () => {
    expect(await refused(open({}))).toBe('ERR_SESSION_EXPIRED');
    expect(await refused(open({ query: { token: 'not-a-token' } }))).toBe('ERR_SESSION_EXPIRED');
    const expired = await tokenFor(t.app, a.agent, -5);
    expect(await refused(open({ query: { token: expired } }))).toBe('ERR_SESSION_EXPIRED');
  });

  it('accepts the token in query.token or auth.token', async () => {
    await connected(open({ query: { token: a.agent.token } }));
    await connected(open({ auth: { token: a.admin.token } }));
  });
});

describe('status heartbeat', () => {
  it('userStatus marks the user online again (core section 9), only that user of that company', async () => {
    const db = t.app.ctx.db;
    await db.update(users).set({ online: false }).where(eq(users.id, a.agent.id));
    await db.update(users).set({ online: false }).where(eq(users.id, b.agent.id));
    const socket = open({ query: { token: await tokenFor(t.app, a.agent) } });
    await connected(socket);
    const onlineOf = async (id: number) =>
      (await db.select({ online: users.online }).from(users).where(eq(users.id, id)))[0]?.online;
    expect(await onlineOf(a.agent.id)).toBe(false);
    socket.emit('userStatus');
    await expect.poll(() => onlineOf(a.agent.id), { timeout: 3000 }).toBe(true);
    expect(await onlineOf(b.agent.id)).toBe(false);
  });
});

describe('company rooms', () => {
  it('a user event of company A reaches A sockets only', async () => {
    const inA = open({ query: { token: a.agent.token } });
    const inB = open({ query: { token: b.admin.token } });
    await Promise.all([connected(inA), connected(inB)]);
    const channelA = companyChannel(a.companyId, 'user');
    const gotA = collect<{ action: string; user: { name: string } }>(inA, channelA);
    const gotB = collect(inB, channelA);
    const res = await inject('PUT', `/api/users/${a.agent.id}`, a.admin, { name: 'Live Name' });
    expect(res.statusCode).toBe(200);
    expect(
      (await gotA).map((e: { action: string; user: { name: string } }) => [e.action, e.user.name]),
    ).toEqual([['update', 'Live Name']]);
    expect(await gotB).toEqual([]);
  });

  it('a new login of the same user sends the auth event to its older sessions only', async () => {
    const first = await login(t.app, a.agent.email);
    const older = open({ query: { token: first.json().token } });
    const colleague = open({ query: { token: a.admin.token } });
    await Promise.all([connected(older), connected(colleague)]);
    const channel = companyChannel(a.companyId, 'auth');
    const gotOlder = collect(older, channel);
    const gotColleague = collect(colleague, channel);
    const second = await login(t.app, a.agent.email);
    const newer = open({ query: { token: second.json().token } });
    await connected(newer);
    const gotNewer = collect(newer, channel, 100);
    expect(await gotOlder).toEqual([{ action: 'logout', reason: 'duplicate-login', userId: a.agent.id }]);
    expect(await gotColleague).toEqual([]);
    expect(await gotNewer).toEqual([]);
  });
});

describe('ticket rooms', () => {
  it('a user with allTicket enabled receives pending tickets of every queue; others only their queues', async () => {
    const { createQueue, createUser } = await import('../test/factories.js');
    const otherQueue = await createQueue(t.app, a.companyId);
    const watcher = await createUser(t.app, a.companyId, { queueIds: [a.queueId] });
    await t.app.ctx.db.update(users).set({ allTicket: 'enabled' }).where(eq(users.id, watcher.id));
    const plain = await createUser(t.app, a.companyId, { queueIds: [a.queueId] });
    const withAll = open({ query: { token: watcher.token } });
    const without = open({ query: { token: plain.token } });
    await Promise.all([connected(withAll), connected(without)]);
    const channel = companyChannel(a.companyId, 'ticket');
    const gotAll = collect<{ ticket: { id: number } }>(withAll, channel);
    const gotPlain = collect<{ ticket: { id: number } }>(without, channel);
    ticketUpdate({ queueId: otherQueue, userId: null, status: 'pending' }, 4242);
    ticketUpdate({ queueId: otherQueue, userId: null, status: 'open' }, 4343);
    expect((await gotAll).map((e) => e.ticket.id)).toEqual([4242]);
    expect(await gotPlain).toEqual([]);
  });
});

describe('ended sessions', () => {
  /** Resolves with the server's disconnect reason. */
  const disconnected = (socket: Socket) =>
    new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));

  it('a handshake with the token of an ended session is refused', async () => {
    const { createUser } = await import('../test/factories.js');
    const user = await createUser(t.app, a.companyId);
    await connected(open({ query: { token: user.token } }));
    const out = await inject('DELETE', '/api/auth/logout', user);
    expect(out.statusCode).toBe(204);
    expect(await refused(open({ query: { token: user.token } }))).toBe('ERR_SESSION_EXPIRED');
  });

  it('a connected socket of an ended session is told to log out and disconnected; other sessions stay', async () => {
    const { createUser } = await import('../test/factories.js');
    const user = await createUser(t.app, a.companyId);
    const otherToken = await tokenFor(t.app, user);
    const ending = open({ query: { token: user.token } });
    const staying = open({ query: { token: otherToken } });
    await Promise.all([connected(ending), connected(staying)]);
    const channel = companyChannel(a.companyId, 'auth');
    const told = new Promise((resolve) => ending.once(channel, resolve));
    const gone = disconnected(ending);
    const out = await inject('DELETE', '/api/auth/logout', user);
    expect(out.statusCode).toBe(204);
    expect(await told).toEqual({ action: 'logout', reason: 'logout', userId: user.id });
    expect(await gone).toBe('io server disconnect');
    expect(staying.connected).toBe(true);
  });

  it("an admin's password change disconnects every socket of the user", async () => {
    const { createUser } = await import('../test/factories.js');
    const user = await createUser(t.app, a.companyId);
    const socket = open({ query: { token: user.token } });
    await connected(socket);
    const gone = disconnected(socket);
    const put = await inject('PUT', `/api/users/${user.id}`, a.admin, { password: 'changed-secret-9' });
    expect(put.statusCode).toBe(200);
    expect(await gone).toBe('io server disconnect');
    expect(await refused(open({ query: { token: user.token } }))).toBe('ERR_SESSION_EXPIRED');
  });
});

describe('tickets without a queue', () => {
  it('reach every user while nobody holds them, then only the holder and admins', async () => {
    const { createUser } = await import('../test/factories.js');
    const holder = await createUser(t.app, a.companyId, { queueIds: [a.queueId] });
    const other = await createUser(t.app, a.companyId, { queueIds: [a.queueId] });
    const sockets = [holder, other, a.admin].map((u) => open({ query: { token: u.token } }));
    await Promise.all(sockets.map(connected));
    const [holderSocket, otherSocket, adminSocket] = sockets as [Socket, Socket, Socket];
    const channel = companyChannel(a.companyId, 'ticket');
    const emitBoth = () => {
      ticketUpdate({ queueId: null, userId: null, status: 'pending' }, 5001);
      ticketUpdate({ queueId: null, userId: holder.id, status: 'open' }, 5002);
    };
    const ids = (events: { ticket?: { id: number } }[] = []) => events.map((e) => e.ticket?.id);
    const [gotHolder, gotOther, gotAdmin] = await collectUntilMarker<{ ticket: { id: number } }>(
      t.app,
      [holderSocket, otherSocket, adminSocket],
      channel,
      emitBoth,
    );
    expect(ids(gotHolder)).toEqual([5001, 5002]);
    expect(ids(gotAdmin)).toEqual([5001, 5002]);
    expect(ids(gotOther)).toEqual([5001]);
  });
});
