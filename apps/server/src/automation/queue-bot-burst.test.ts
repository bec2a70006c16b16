/**
 * The chatbot after a crash: a backlog of new customers is greeted at the rate the
 * machine allows, each customer's messages answered in order, and a bot job the killed process
 * left active runs again as soon as the same node starts.
 */
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queues, tickets } from '../db/schema/index.js';
import { customerNumber, injectMessage } from '../test/factories.js';
import { openBotTenant } from '../test/queue-bot-fixture.js';
import { buildSecondNode, createTestApp, type TestApp } from '../test/test-app.js';
import { QUEUE_BOT_JOB } from './jobs.js';

// One app per test: the first turns its workers on.
let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

/** A tenant with queues 'Suporte' and 'Vendas' on one simulator connection with a greeting. */
const setup = () => openBotTenant(t.app, { greetingMessage: 'Olá! Escolha um setor:' });

describe('queue chatbot after a crash', () => {
  it('greets a backlog of new customers in parallel and answers each one in order', async () => {
    const s = await setup();
    await t.app.ctx.db
      .update(queues)
      .set({ greetingMessage: 'Bem-vindo a Vendas' })
      .where(eq(queues.id, s.sales));
    const menu = 'Olá! Escolha um setor:\n\n*1* - Suporte\n*2* - Vendas';
    // Ten customers already have the menu open.
    const pickers = Array.from({ length: 10 }, () => customerNumber());
    const ticketOf = new Map<string, number>();
    for (const from of pickers) {
      const { ticketId } = await injectMessage(t.app, s.admin, s.whatsappId, { from, body: 'Oi' });
      ticketOf.set(from, ticketId);
    }
    await t.app.jobs.drain();
    // Then, while no worker ran (the node was down): 40 new customers say hello, and each of the ten
    // answers something wrong, then '2'.
    const greeters = Array.from({ length: 40 }, () => customerNumber());
    for (const from of greeters) await injectMessage(t.app, s.admin, s.whatsappId, { from, body: 'Oi' });
    for (const from of pickers) {
      await injectMessage(t.app, s.admin, s.whatsappId, { from, body: '9' });
      await injectMessage(t.app, s.admin, s.whatsappId, { from, body: '2' });
    }
    const before = t.app.jobs.counters;
    const botPollsBefore = t.app.jobs.timedPollsOf(QUEUE_BOT_JOB);

    await t.app.jobs.work();
    await t.app.jobs.idle();
    const after = t.app.jobs.counters;

    for (const from of greeters) {
      expect(t.app.simulator.outbox(s.whatsappId, from).map((m) => m.body)).toEqual([menu]);
    }
    for (const from of pickers) {
      // '9' repeats the menu, then '2' picks Vendas: the second job waited for the first (the other
      // way round, '2' would end the menu and '9' would get no answer).
      expect(t.app.simulator.outbox(s.whatsappId, from).map((m) => m.body)).toEqual([
        menu,
        menu,
        'Bem-vindo a Vendas',
      ]);
      const [ticket] = await t.app.ctx.db
        .select({ queueId: tickets.queueId })
        .from(tickets)
        .where(and(eq(tickets.companyId, s.companyId), eq(tickets.id, ticketOf.get(from)!)));
      expect(ticket?.queueId).toBe(s.sales);
    }
    expect(after.ran - before.ran).toBe(60);
    // No poll interval spent while the bot's jobs were due (the idle kinds poll every interval, more
    // than once when the machine is slow); about one claim per job plus the empty ones: the first
    // claim of each kind's worker loop (most kinds have nothing queued here) and the few below.
    expect(t.app.jobs.timedPollsOf(QUEUE_BOT_JOB) - botPollsBefore).toBe(0);
    // Each timed poll of an idle kind claims once more, and a finished job wakes its loop for a claim
    // that may find only jobs held behind a running one of the same key (by timing: up to a third of
    // the jobs on a busy Postgres server). Polling per job would add 60 or more.
    const idlePolls = after.timedPolls - before.timedPolls;
    expect(after.claims - before.claims).toBeLessThanOrEqual(60 + t.app.jobs.kinds + idlePolls + 20);
  });

  it('runs again at start a bot job the killed process of the same node left active', async () => {
    const s = await setup();
    const from = customerNumber();
    await injectMessage(t.app, s.admin, s.whatsappId, { from, body: 'Oi' });
    // The process was killed while running the job: active, claimed by this node.
    await t.database.executor.executeSql(
      `update pgboss.job set state = 'active', started_on = now(),
         data = data || jsonb_build_object('_claimedBy', $2::text)
       where name = $1 and state = 'created'`,
      [QUEUE_BOT_JOB, t.config.nodeId],
    );
    expect(await t.app.jobs.drain()).toBe(0);
    expect(t.app.simulator.outbox(s.whatsappId, from)).toEqual([]);

    // Another node starting leaves it alone; the same node starting again runs it now.
    for (const nodeId of [`${t.config.nodeId}-other`, t.config.nodeId]) {
      const node = await buildSecondNode(t, { nodeId, simulator: t.app.simulator });
      try {
        await node.sessions.start(s.companyId, s.whatsappId, { force: false });
        const ran = await node.jobs.drain();
        expect(ran).toBe(nodeId === t.config.nodeId ? 1 : 0);
      } finally {
        await node.close();
      }
    }
    expect(t.app.simulator.outbox(s.whatsappId, from).map((m) => m.body)).toEqual([
      'Olá! Escolha um setor:\n\n*1* - Suporte\n*2* - Vendas',
    ]);
  });
});
