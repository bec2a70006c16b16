import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { companyChannel, DEFAULT_QUEUE_SCHEDULES } from '@zapdesk/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { InboundPipeline } from '../channels/inbound-pipeline.js';
import { MediaStore } from '../channels/media-store.js';
import { pushSubscriptions, ticketEvents, ticketSlas, tickets } from '../db/schema/index.js';
import { LocalStorage } from '../lib/storage/local-storage.js';
import { PUSH_SEND_JOB } from '../modules/push/push-notifier.js';
import {
  type ConnectedTenant,
  customerSays,
  flushJobs,
  openOneQueueTenant,
  putSetting,
  ticketRow,
} from '../test/conversation.js';
import {
  bearer,
  createQueue,
  createTenant,
  createUser,
  customerNumber,
  inboundMessage,
  type TestUser,
} from '../test/factories.js';
import { collectUntilMarker, listeningTestApp, socketSet } from '../test/sockets.js';
import { SLA_ALERT_JOB, SLA_PLAN_JOB, warningMinutes } from './service-levels.js';

// A push service on loopback (http, which OUTBOUND_ALLOW_PRIVATE_URLS allows) records the paths pushed to.
const live = listeningTestApp({ OUTBOUND_ALLOW_PRIVATE_URLS: 'true' });
const pushedPaths: string[] = [];
const pushService = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    pushedPaths.push(req.url ?? '/');
    res.statusCode = 201;
    res.end();
  });
});
let pushBase = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => pushService.listen(0, '127.0.0.1', resolve));
  pushBase = `http://127.0.0.1:${(pushService.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => pushService.close(resolve)));
const MINUTE = 60_000;

describe('service levels', () => {
  let s: ConnectedTenant;
  const sockets = socketSet(() => live.url);
  const app = () => live.t.app;
  const run = () => app().jobs.drain();
  const api = (user: TestUser, method: 'GET' | 'PUT' | 'POST', path: string, payload?: object) =>
    app().inject({ method, url: `/api${path}`, headers: bearer(user), ...(payload ? { payload } : {}) });
  const setTargets = async (queueId: number, first: number | null, resolution: number | null) => {
    const res = await api(s.admin, 'PUT', `/queue/${queueId}`, {
      slaFirstResponseMinutes: first,
      slaResolutionMinutes: resolution,
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const targetsOf = (ticketId: number) =>
    app()
      .ctx.db.select()
      .from(ticketSlas)
      .where(eq(ticketSlas.ticketId, ticketId))
      .orderBy(ticketSlas.openedAt, ticketSlas.target);
  /** The alert jobs still waiting, as `action@seconds after the opening` (to 5 s: pg-boss adds the delay to its own clock). */
  const alertJobs = async (openedAt: Date) => {
    const { rows } = await live.t.database.executor.executeSql(
      `select data->>'action' as action, start_after from pgboss.job
       where name = $1 and state = 'created' and (data->>'companyId')::int = $2 order by start_after`,
      [SLA_ALERT_JOB, s.companyId],
    );
    return rows.map(
      (r) =>
        `${r.action}@${Math.round((new Date(String(r.start_after)).getTime() - openedAt.getTime()) / 5000) * 5}`,
    );
  };

  beforeEach(async () => {
    s = await openOneQueueTenant(app());
    // Jobs of earlier tests' companies stay out of the way.
    await app().ctx.db.execute(sql`delete from pgboss.job where name in (${SLA_ALERT_JOB}, ${SLA_PLAN_JOB})`);
  });
  afterEach(() => sockets.closeAll());

  it('validates the targets and the warning setting, and answers them on the queue routes', async () => {
    for (const [field, value] of [
      ['slaFirstResponseMinutes', 0],
      ['slaFirstResponseMinutes', 525_601],
      ['slaResolutionMinutes', -5],
      ['slaResolutionMinutes', 1.5],
      ['slaResolutionMinutes', '10'],
    ] as const) {
      const res = await api(s.admin, 'PUT', `/queue/${s.queueId}`, { [field]: value });
      expect(res.statusCode, `${field}=${value}`).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field });
    }
    const low = await api(s.admin, 'PUT', `/queue/${s.queueId}`, { slaFirstResponseMinutes: 0 });
    expect(low.json().message).toBe('outOfRange');
    const created = await api(s.admin, 'POST', '/queue', {
      name: 'Suporte',
      color: '#123456',
      slaFirstResponseMinutes: 1,
      slaResolutionMinutes: 525_600,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ slaFirstResponseMinutes: 1, slaResolutionMinutes: 525_600 });
    const shown = await api(s.agent, 'GET', `/queue/${created.json().id}`);
    expect(shown.json()).toMatchObject({ slaFirstResponseMinutes: 1, slaResolutionMinutes: 525_600 });
    // A PUT naming one target keeps the other; null removes it.
    const put = await api(s.admin, 'PUT', `/queue/${created.json().id}`, { slaFirstResponseMinutes: null });
    expect(put.json()).toMatchObject({ slaFirstResponseMinutes: null, slaResolutionMinutes: 525_600 });
    const plain = await api(s.admin, 'GET', `/queue/${s.queueId}`);
    expect(plain.json()).toMatchObject({ slaFirstResponseMinutes: null, slaResolutionMinutes: null });
    // Another company's queue is not found.
    const other = await createTenant(app());
    const foreign = await api(s.admin, 'PUT', `/queue/${other.queueId}`, { slaFirstResponseMinutes: 10 });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('ERR_NO_QUEUE_FOUND');

    for (const value of ['0', '100', 'abc']) {
      expect((await api(s.admin, 'PUT', '/settings/slaWarningPercent', { value })).statusCode, value).toBe(
        400,
      );
    }
    expect((await api(s.admin, 'PUT', '/settings/slaWarningPercent', { value: '50' })).statusCode).toBe(200);
  });

  it('sets wall-clock due times when a ticket opens in a queue with targets, and clears them when met', async () => {
    await setTargets(s.queueId, 30, 240);
    const from = customerNumber();
    const { ticketId } = await customerSays(app(), s, from, 'Oi', run);
    const created = (await ticketRow(app(), ticketId)).createdAt;
    // The message's transaction queued a plan run, which the drained jobs ran: no sweep is needed.
    expect(await app().sla.plan(s.companyId)).toBe(0);
    const shown = await api(s.agent, 'GET', `/tickets/${ticketId}`);
    expect(shown.json()).toMatchObject({
      firstResponseDueAt: new Date(created.getTime() + 30 * MINUTE).toISOString(),
      resolutionDueAt: new Date(created.getTime() + 240 * MINUTE).toISOString(),
    });
    const listed = await api(s.agent, 'GET', '/tickets?status=pending');
    expect(listed.json().tickets.find((x: { id: number }) => x.id === ticketId)).toMatchObject({
      firstResponseDueAt: new Date(created.getTime() + 30 * MINUTE).toISOString(),
    });
    // A warning at 80 % (24 of 30 minutes, 192 of 240) and a breach at each due time.
    expect((await alertJobs(created)).sort()).toEqual(
      ['warning@1440', 'breach@1800', 'warning@11520', 'breach@14400'].sort(),
    );

    // The agent's first reply meets the first response; closing meets the resolution.
    expect((await api(s.agent, 'PUT', `/tickets/${ticketId}`, { status: 'open' })).statusCode).toBe(200);
    expect((await api(s.agent, 'POST', `/messages/${ticketId}`, { body: 'Olá' })).statusCode).toBe(201);
    let row = await ticketRow(app(), ticketId);
    expect(row.firstResponseDueAt).toBeNull();
    expect(row.resolutionDueAt).not.toBeNull();
    expect((await api(s.agent, 'PUT', `/tickets/${ticketId}`, { status: 'closed' })).statusCode).toBe(200);
    row = await ticketRow(app(), ticketId);
    expect(row.resolutionDueAt).toBeNull();
    const targets = await targetsOf(ticketId);
    expect(targets.map((x) => [x.target, x.metAt !== null])).toEqual([
      ['first_response', true],
      ['resolution', true],
    ]);

    // The customer writes again: the new opening's clock starts at the reopening.
    await customerSays(app(), s, from, 'Voltei', run);
    await app().sla.plan(s.companyId);
    const [reopened] = await app()
      .ctx.db.select({ at: ticketEvents.at })
      .from(ticketEvents)
      .where(and(eq(ticketEvents.ticketId, ticketId), eq(ticketEvents.kind, 'reopened')));
    row = await ticketRow(app(), ticketId);
    expect(row.firstResponseDueAt?.getTime()).toBe(reopened!.at.getTime() + 30 * MINUTE);
    expect(row.resolutionDueAt?.getTime()).toBe(reopened!.at.getTime() + 240 * MINUTE);
    expect(await targetsOf(ticketId)).toHaveLength(4);
  });

  it('plans the tickets a batch of the inbound pipeline opens with one run per company, without the sweep', async () => {
    await setTargets(s.queueId, 30, null);
    const other = await openOneQueueTenant(app());
    const otherTargets = await api(other.admin, 'PUT', `/queue/${other.queueId}`, {
      slaFirstResponseMinutes: 45,
    });
    expect(otherTargets.statusCode).toBe(200);
    // A pipeline of one lane and a wide window: the four arrivals share one group commit.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-sla-'));
    const p = new InboundPipeline(app().ctx, new MediaStore(new LocalStorage(dir)), app().jobs, {
      lanes: 1,
      windowMs: 30,
    });
    const arrivals = [
      [s, customerNumber()],
      [s, customerNumber()],
      [s, customerNumber()],
      [other, customerNumber()],
    ] as const;
    const results = await Promise.all(
      arrivals.map(([tenant, from]) =>
        p.ingest({ id: tenant.whatsappId, companyId: tenant.companyId }, inboundMessage(from, 'Oi')),
      ),
    );
    fs.rmSync(dir, { recursive: true, force: true });
    expect(p.stats).toMatchObject({ batches: 1, messages: 4, retriedAlone: 0 });
    const { rows: queued } = await live.t.database.executor.executeSql(
      `select (data->>'companyId')::int as company from pgboss.job where name = $1 and state = 'created'
       order by 1`,
      [SLA_PLAN_JOB],
    );
    expect(queued.map((r) => Number(r.company))).toEqual(
      [s.companyId, other.companyId].sort((x, y) => x - y),
    );
    await run();
    for (const [index, result] of results.entries()) {
      const minutes = index < 3 ? 30 : 45;
      const row = await ticketRow(app(), result!.ticket.id);
      expect(row.firstResponseDueAt?.getTime()).toBe(row.createdAt.getTime() + minutes * MINUTE);
      expect(row.resolutionDueAt).toBeNull();
    }
    // Nothing was left for the every-minute sweep.
    expect(await app().sla.plan()).toBe(0);
  });

  it('plans a ticket opened by an agent in a queue, and one transferred into a queue, from its opening', async () => {
    const targeted = await createQueue(app(), s.companyId);
    await setTargets(targeted, 15, null);
    const { ticketId } = await customerSays(app(), s, customerNumber(), 'Oi', run);
    await run();
    // The first queue has no targets: nothing to plan.
    expect(await targetsOf(ticketId)).toEqual([]);
    const opened = (await ticketRow(app(), ticketId)).createdAt;
    const moved = await api(s.admin, 'PUT', `/tickets/${ticketId}`, { queueId: targeted });
    expect(moved.statusCode, moved.body).toBe(200);
    await run();
    let row = await ticketRow(app(), ticketId);
    expect(row.firstResponseDueAt?.getTime()).toBe(opened.getTime() + 15 * MINUTE);
    expect(row.resolutionDueAt).toBeNull();
    // Back to a queue without targets: no due time; the target of the opening is dropped.
    expect((await api(s.admin, 'PUT', `/tickets/${ticketId}`, { queueId: s.queueId })).statusCode).toBe(200);
    await run();
    row = await ticketRow(app(), ticketId);
    expect(row.firstResponseDueAt).toBeNull();
    expect(await targetsOf(ticketId)).toEqual([]);

    // POST /tickets in a queue with targets.
    const contact = await app().ctx.db.execute<{ id: number }>(
      sql`insert into contacts (company_id, name, number) values (${s.companyId}, 'Ana', ${customerNumber()}) returning id`,
    );
    const made = await api(s.admin, 'POST', '/tickets', {
      contactId: contact.rows[0]!.id,
      queueId: targeted,
      whatsappId: s.whatsappId,
      status: 'pending',
    });
    expect(made.statusCode, made.body).toBe(201);
    await run();
    const mine = await ticketRow(app(), made.json().id);
    expect(mine.firstResponseDueAt?.getTime()).toBe(mine.createdAt.getTime() + 15 * MINUTE);
  });

  it('counts only the attendance hours when the company uses queue hours', async () => {
    // Monday to Friday 08:00–18:00, weekends closed.
    const weekdays = DEFAULT_QUEUE_SCHEDULES.map((d) =>
      d.weekdayEn === 'saturday' ? { ...d, startTime: '00:00', endTime: '00:00' } : d,
    );
    const res = await api(s.admin, 'PUT', `/queue/${s.queueId}`, {
      schedules: weekdays,
      slaFirstResponseMinutes: 120,
    });
    expect(res.statusCode, res.body).toBe(200);
    await putSetting(app(), s.companyId, 'scheduleType', 'queue');
    const { ticketId } = await customerSays(app(), s, customerNumber(), 'Oi', run);
    // The opening is moved to Friday 2026-11-27 17:30 in São Paulo (UTC-3).
    const friday = new Date('2026-11-27T20:30:00Z');
    await app().ctx.db.update(tickets).set({ createdAt: friday }).where(eq(tickets.id, ticketId));
    await app().ctx.db.update(ticketEvents).set({ at: friday }).where(eq(ticketEvents.ticketId, ticketId));
    await app()
      .ctx.db.update(ticketSlas)
      .set({ openedAt: friday, dueAt: null })
      .where(eq(ticketSlas.ticketId, ticketId));
    await app().sla.plan(s.companyId);
    // 31 minutes on Friday (to 18:00:59), 89 on Monday from 08:00: Monday 09:29.
    expect((await ticketRow(app(), ticketId)).firstResponseDueAt?.toISOString()).toBe(
      '2026-11-30T12:29:00.000Z',
    );
    // Without attendance hours the same opening is due two hours later, wall-clock.
    await putSetting(app(), s.companyId, 'scheduleType', 'disabled');
    await app().ctx.db.update(ticketSlas).set({ dueAt: null }).where(eq(ticketSlas.ticketId, ticketId));
    await app().sla.plan(s.companyId);
    expect((await ticketRow(app(), ticketId)).firstResponseDueAt?.toISOString()).toBe(
      '2026-11-27T22:30:00.000Z',
    );
  });

  it('warns and reports the breach to the agent and the admins, by socket and push, once', async () => {
    await setTargets(s.queueId, 10, null);
    const bystander = await createUser(app(), s.companyId, { queueIds: [s.queueId] });
    const { ticketId } = await customerSays(app(), s, customerNumber(), 'Oi', run);
    expect((await api(s.agent, 'PUT', `/tickets/${ticketId}`, { status: 'open' })).statusCode).toBe(200);
    // The plan run the message's transaction queued was drained with it.
    for (const user of [s.agent, s.admin]) {
      const ecdh = crypto.createECDH('prime256v1');
      ecdh.generateKeys();
      await app()
        .ctx.db.insert(pushSubscriptions)
        .values({
          companyId: s.companyId,
          userId: user.id,
          endpoint: `${pushBase}/${user.id}`,
          p256dh: ecdh.getPublicKey().toString('base64url'),
          auth: crypto.randomBytes(16).toString('base64url'),
        });
    }
    const [agent, admin, other] = await Promise.all(
      [s.agent, s.admin, bystander].map((u) => sockets.online(u)),
    );
    const channel = companyChannel(s.companyId, 'sla');
    const alerts = (await collectUntilMarker<{ action: string; ticketId: number; target: string }>(
      app(),
      [agent!, admin!, other!] as Socket[],
      channel,
      async () => {
        await flushJobs(live.t, SLA_ALERT_JOB);
        await app().push.settled();
      },
    )) as { action: string; ticketId: number; target: string }[][];
    // Both jobs are due by the flush and may run side by side: each user gets each alert once.
    for (const got of [alerts[0]!, alerts[1]!]) {
      expect(got.map((x) => `${x.action}:${x.target}:${x.ticketId}`).sort()).toEqual([
        `breach:first_response:${ticketId}`,
        `warning:first_response:${ticketId}`,
      ]);
    }
    expect(alerts[2]).toEqual([]);
    const [target] = await targetsOf(ticketId);
    expect(target!.warnedAt).not.toBeNull();
    expect(target!.breachedAt).not.toBeNull();
    // The push-send jobs run on the live workers, which may still be delivering the last one.
    await vi.waitFor(
      () =>
        expect(pushedPaths.filter((p) => p === `/${s.agent.id}` || p === `/${s.admin.id}`)).toHaveLength(4),
      { timeout: 15_000, interval: 50 },
    );
    const { rows } = await live.t.database.executor.executeSql(
      `select data->'payload'->>'title' as title, (data->>'userId')::int as user_id from pgboss.job
       where name = $1 and (data->>'companyId')::int = $2 order by created_on, id`,
      [PUSH_SEND_JOB, s.companyId],
    );
    const pushes = rows.map((r) => `${r.user_id}:${String(r.title).split(':')[0]}`).sort();
    expect(pushes).toEqual(
      [
        `${s.agent.id}:Prazo perto do fim`,
        `${s.admin.id}:Prazo perto do fim`,
        `${s.agent.id}:Prazo estourado`,
        `${s.admin.id}:Prazo estourado`,
      ].sort(),
    );
    // A job that runs again finds the breach recorded and tells nobody.
    const again = await app().sla.alert({
      companyId: s.companyId,
      slaId: target!.id,
      action: 'breach',
      dueAt: target!.dueAt!.toISOString(),
    });
    expect(again).toBe(false);
    expect(warningMinutes(10, 80)).toBe(8);
  });

  it('sorts the list by the nearest due time, tickets without one last, page after page by cursor', async () => {
    const db = app().ctx.db;
    const base = Date.parse('2026-12-01T12:00:00Z');
    const expected: { id: number; key: number }[] = [];
    for (let i = 0; i < 50; i++) {
      const contact = await db.execute<{ id: number }>(
        sql`insert into contacts (company_id, name, number) values (${s.companyId}, ${`c${i}`}, ${customerNumber()}) returning id`,
      );
      // Some share a due time (the id breaks the tie), a fifth have none.
      const first = i % 5 === 0 ? null : new Date(base + ((i * 7) % 13) * MINUTE);
      const resolution = i % 5 === 0 ? null : i % 2 ? new Date(base + ((i * 3) % 11) * MINUTE) : null;
      const [row] = await db
        .insert(tickets)
        .values({
          companyId: s.companyId,
          contactId: contact.rows[0]!.id,
          whatsappId: s.whatsappId,
          status: 'pending',
          firstResponseDueAt: first,
          resolutionDueAt: resolution,
        })
        .returning({ id: tickets.id });
      const keys = [first, resolution].filter((d): d is Date => d !== null).map((d) => d.getTime());
      expected.push({ id: row!.id, key: keys.length ? Math.min(...keys) : Number.POSITIVE_INFINITY });
    }
    expected.sort((x, y) => x.key - y.key || x.id - y.id);
    const seen: number[] = [];
    let cursor = '';
    for (let page = 0; page < 5; page++) {
      const res = await api(
        s.admin,
        'GET',
        `/tickets?status=pending&showAll=true&sortBy=due${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      seen.push(...body.tickets.map((x: { id: number }) => x.id));
      if (!body.hasMore) break;
      cursor = body.nextCursor;
    }
    expect(seen).toEqual(expected.map((x) => x.id));
    // Page numbers give the same order.
    const second = await api(s.admin, 'GET', '/tickets?status=pending&showAll=true&sortBy=due&pageNumber=2');
    expect(second.json().tickets.map((x: { id: number }) => x.id)).toEqual(
      expected.slice(40).map((x) => x.id),
    );
    expect((await api(s.admin, 'GET', '/tickets?sortBy=soon')).statusCode).toBe(400);
  });

  it('sends nothing when the jobs fire after the target was met', async () => {
    await setTargets(s.queueId, 10, null);
    const { ticketId } = await customerSays(app(), s, customerNumber(), 'Oi', run);
    expect((await api(s.agent, 'PUT', `/tickets/${ticketId}`, { status: 'open' })).statusCode).toBe(200);
    // The plan run the message's transaction queued was drained with it.
    expect(await alertJobs(await ticketRow(app(), ticketId).then((r) => r.createdAt))).toHaveLength(2);
    expect((await api(s.agent, 'POST', `/messages/${ticketId}`, { body: 'Olá' })).statusCode).toBe(201);
    const agent = await sockets.online(s.agent);
    const [got] = await collectUntilMarker(app(), [agent], companyChannel(s.companyId, 'sla'), () =>
      flushJobs(live.t, SLA_ALERT_JOB),
    );
    expect(got).toEqual([]);
    const [target] = await targetsOf(ticketId);
    expect(target).toMatchObject({ warnedAt: null, breachedAt: null });
    expect(target!.metAt).not.toBeNull();
  });
});
