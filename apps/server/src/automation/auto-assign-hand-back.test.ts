import { companyChannel } from '@zapdesk/shared';
import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tickets } from '../db/schema/index.js';
import {
  type ConnectedTenant,
  customerSays,
  flushJobs,
  openOneQueueTenant,
  putSetting,
} from '../test/conversation.js';
import { bearer, createUser, customerNumber, type TestUser } from '../test/factories.js';
import { listeningTestApp, socketSet } from '../test/sockets.js';
import { HAND_BACK_JOB } from './auto-assign.js';

const live = listeningTestApp();

describe('offline hand-back of automatic assignment', () => {
  let s: ConnectedTenant;
  let second: TestUser;
  const sockets = socketSet(() => live.url);
  const online = sockets.online;
  const run = () => live.t.app.jobs.drain();
  const api = (user: TestUser, method: 'PUT' | 'POST', path: string, payload: object) =>
    live.t.app.inject({ method, url: `/api${path}`, headers: bearer(user), payload });
  const row = async (id: number) =>
    (await live.t.app.ctx.db.select().from(tickets).where(eq(tickets.id, id)))[0]!;
  const write = async (n: number) => {
    const ids: number[] = [];
    for (let i = 0; i < n; i++)
      ids.push((await customerSays(live.t.app, s, customerNumber(), 'Oi', run)).ticketId);
    return ids;
  };
  /** The agent's hand-back jobs still waiting, with their delay in seconds. */
  const waitingJobs = async (userId: number) => {
    const { rows } = await live.t.database.executor.executeSql(
      `select extract(epoch from (start_after - created_on))::int as delay from pgboss.job
       where name = $1 and state = 'created' and data->>'userId' = $2`,
      [HAND_BACK_JOB, String(userId)],
    );
    return rows.map((r) => Number(r.delay));
  };
  const goOffline = async (socket: Socket, userId: number) => {
    socket.disconnect();
    await expect.poll(() => waitingJobs(userId)).toHaveLength(1);
  };

  beforeEach(async () => {
    s = await openOneQueueTenant(live.t.app);
    second = await createUser(live.t.app, s.companyId, { queueIds: [s.queueId] });
    const res = await api(s.admin, 'PUT', `/queue/${s.queueId}`, { autoAssignment: 'round_robin' });
    expect(res.statusCode).toBe(200);
  });
  afterEach(() => sockets.closeAll());

  it('gives back only the unanswered tickets of assigning queues after the grace, to an available agent', async () => {
    // The greeting on assignment is automatic: it does not count as the agent's answer.
    await putSetting(live.t.app, s.companyId, 'sendGreetingAccepted', 'enabled');
    expect((await api(s.admin, 'PUT', '/settings/autoAssignGraceMinutes', { value: '7' })).statusCode).toBe(
      200,
    );
    const socket = await online(s.agent);
    const [unanswered, answered, elsewhere] = await write(3);
    for (const id of [unanswered!, answered!, elsewhere!]) expect((await row(id)).userId).toBe(s.agent.id);
    // Answered by the agent: theirs to keep.
    expect(
      (await api(s.agent, 'POST', `/messages/${answered}`, { body: 'Olá, já vejo isso' })).statusCode,
    ).toBe(201);
    // A ticket in a queue that does not assign by itself stays too.
    const other = await api(s.admin, 'POST', '/queue', { name: `Manual ${Date.now()}`, color: '#336699' });
    expect(other.statusCode, other.body).toBe(201);
    await live.t.app.ctx.db
      .update(tickets)
      .set({ queueId: other.json().id })
      .where(eq(tickets.id, elsewhere!));

    await goOffline(socket, s.agent.id);
    expect(await waitingJobs(s.agent.id)).toEqual([7 * 60]);
    // Within the grace nothing moves.
    await run();
    expect((await row(unanswered!)).userId).toBe(s.agent.id);

    const watcher = await online(second);
    const events: { action: string; ticket?: { id: number; userId: number | null } }[] = [];
    watcher.on(companyChannel(s.companyId, 'ticket'), (payload) => events.push(payload));
    await flushJobs(live.t, HAND_BACK_JOB, true);
    expect(await row(unanswered!)).toMatchObject({ status: 'open', userId: second.id });
    expect(await row(answered!)).toMatchObject({ status: 'open', userId: s.agent.id });
    expect(await row(elsewhere!)).toMatchObject({ status: 'open', userId: s.agent.id });
    await expect
      .poll(() => events.some((e) => e.ticket?.id === unanswered && e.ticket?.userId === second.id))
      .toBe(true);
  });

  it('does nothing when the agent came back within the grace', async () => {
    const socket = await online(s.agent);
    const [id] = await write(1);
    await goOffline(socket, s.agent.id);
    expect(await waitingJobs(s.agent.id)).toEqual([5 * 60]);
    await online(s.agent);
    await expect.poll(() => waitingJobs(s.agent.id)).toHaveLength(0);
    await online(second);
    await flushJobs(live.t, HAND_BACK_JOB, true);
    expect(await row(id!)).toMatchObject({ status: 'open', userId: s.agent.id });
    // A job that runs anyway (it had started) checks the sockets again.
    expect(await live.t.app.assigner.handBack({ companyId: s.companyId, userId: s.agent.id })).toEqual([]);
    expect((await row(id!)).userId).toBe(s.agent.id);
  });

  it('keeps one waiting job per agent and none while another tab stays open', async () => {
    const first = await online(s.agent);
    const tab = await online(s.agent);
    first.disconnect();
    await goOffline(tab, s.agent.id);
    const again = await online(s.agent);
    await expect.poll(() => waitingJobs(s.agent.id)).toHaveLength(0);
    await goOffline(again, s.agent.id);
    expect(await waitingJobs(s.agent.id)).toHaveLength(1);
  });

  it('schedules nothing for an agent of no assigning queue', async () => {
    await api(s.admin, 'PUT', `/queue/${s.queueId}`, { autoAssignment: 'off' });
    expect(await live.t.app.assigner.agentLeft({ companyId: s.companyId, userId: s.agent.id })).toBe(false);
    await api(s.admin, 'PUT', `/queue/${s.queueId}`, { autoAssignment: 'least_busy' });
    expect(await live.t.app.assigner.agentLeft({ companyId: s.companyId, userId: s.agent.id })).toBe(true);
  });

  it('refuses a grace outside 1..1440 minutes with the field', async () => {
    for (const value of ['0', '1441', 'abc', '1.5', '', '-3']) {
      const res = await api(s.admin, 'PUT', '/settings/autoAssignGraceMinutes', { value });
      expect(res.statusCode, value).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION' });
      expect(JSON.stringify(res.json())).toContain('value');
    }
    for (const value of ['1', '1440']) {
      expect((await api(s.admin, 'PUT', '/settings/autoAssignGraceMinutes', { value })).statusCode).toBe(200);
    }
    expect((await api(s.agent, 'PUT', '/settings/autoAssignGraceMinutes', { value: '9' })).statusCode).toBe(
      403,
    );
  });
});
