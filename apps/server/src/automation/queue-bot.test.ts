import { WEEKDAYS_EN } from '@zapdesk/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, queueOptions, queues } from '../db/schema/index.js';
import { customerSays, putSetting, ticketRow } from '../test/conversation.js';
import { createQueue, createTenant, customerNumber, injectAs, injectMessage } from '../test/factories.js';
import { type BotTenant, openBotTenant } from '../test/queue-bot-fixture.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

let t: TestApp;
const inject = injectAs(() => t.app);
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const ALWAYS_OPEN = WEEKDAYS_EN.map((weekdayEn) => ({
  weekday: weekdayEn,
  weekdayEn,
  startTime: '00:00',
  endTime: '23:59',
}));
const ALWAYS_CLOSED = ALWAYS_OPEN.map((row) => ({ ...row, startTime: '00:00', endTime: '00:00' }));

type Setup = BotTenant;

/** A tenant with queues 'Suporte' and 'Vendas' on one simulator connection with a greeting. */
const setup = (connection: Record<string, unknown> = {}): Promise<Setup> =>
  openBotTenant(t.app, { greetingMessage: '{{ms}}, {{firstName}}! Escolha um setor:', ...connection });

const setSetting = (companyId: number, key: string, value: string) =>
  putSetting(t.app, companyId, key, value);

/** The customer writes; queued bot work runs; answers what the business sent back to this number. */
const say = (s: Setup, from: string, body: string) =>
  customerSays(t.app, s, from, body, () => t.app.jobs.drain());

const ticketOf = (id: number) => ticketRow(t.app, id);

describe('queue chatbot', () => {
  it('greets with the numbered queue menu, with variables filled, and routes the chosen number', async () => {
    const s = await setup();
    const from = customerNumber();
    const first = await say(s, from, 'Oi');
    expect(first.replies).toHaveLength(1);
    expect(first.replies[0]).toMatch(
      /^(Bom dia|Boa tarde|Boa noite|Boa madrugada), Maria! Escolha um setor:/,
    );
    expect(first.replies[0]).toContain('*1* - Suporte\n*2* - Vendas');
    expect(await ticketOf(first.ticketId)).toMatchObject({ queueId: null, chatbot: true, status: 'pending' });

    const second = await say(s, from, '2');
    expect(await ticketOf(second.ticketId)).toMatchObject({ queueId: s.sales, status: 'pending' });
    // Vendas has no greeting and no options: nothing more to say.
    expect(second.replies).toEqual([]);
    // The sales ticket shows in the pending list filtered by its queue.
    const listed = await inject(
      'GET',
      `/api/tickets?status=pending&queueIds=${JSON.stringify([s.sales])}&showAll=true`,
      s.admin,
    );
    expect(listed.json().tickets.map((x: { id: number }) => x.id)).toContain(first.ticketId);
  });

  it('repeats the menu on an invalid answer and waits for a human after maxUseBotQueues tries', async () => {
    const s = await setup({ maxUseBotQueues: 3 });
    const from = customerNumber();
    await say(s, from, 'Olá');
    const wrong1 = await say(s, from, 'quero falar com alguém');
    expect(wrong1.replies).toHaveLength(1);
    expect(wrong1.replies[0]).toContain('*1* - Suporte');
    const wrong2 = await say(s, from, '9');
    expect(wrong2.replies[0]).toContain('*2* - Vendas');
    const wrong3 = await say(s, from, 'x');
    expect(wrong3.replies).toEqual([]);
    expect(await ticketOf(wrong3.ticketId)).toMatchObject({
      chatbot: false,
      queueId: null,
      amountUsedBotQueues: 3,
    });
    // The bot has given up: later messages get no menu.
    expect((await say(s, from, '1')).replies).toEqual([]);
  });

  it('walks the queue option tree by number and repeats the current level on a wrong answer', async () => {
    const s = await setup();
    const db = t.app.ctx.db;
    const [billing] = await db
      .insert(queueOptions)
      .values({
        companyId: s.companyId,
        queueId: s.support,
        title: 'Financeiro',
        option: '1',
        message: 'Financeiro:',
      })
      .returning();
    await db.insert(queueOptions).values({
      companyId: s.companyId,
      queueId: s.support,
      title: 'Técnico',
      option: '2',
      message: 'Aguarde um técnico.',
    });
    await db.insert(queueOptions).values([
      {
        companyId: s.companyId,
        queueId: s.support,
        parentId: billing!.id,
        title: 'Boleto',
        option: '1',
        message: 'Segunda via enviada.',
      },
      {
        companyId: s.companyId,
        queueId: s.support,
        parentId: billing!.id,
        title: 'Pix',
        option: '2',
        message: 'Chave: 123',
      },
    ]);
    await inject('PUT', `/api/queue/${s.support}`, s.admin, {
      name: 'Suporte',
      color: '#123456',
      greetingMessage: 'Suporte aqui.',
    });
    const from = customerNumber();
    await say(s, from, 'Oi');
    const queue = await say(s, from, '1');
    expect(queue.replies).toEqual(['Suporte aqui.\n\n*1* - Financeiro\n*2* - Técnico']);

    const level1 = await say(s, from, '1');
    expect(level1.replies).toEqual(['Financeiro:\n\n*1* - Boleto\n*2* - Pix']);
    const wrong = await say(s, from, '7');
    expect(wrong.replies).toEqual(['Financeiro:\n\n*1* - Boleto\n*2* - Pix']);
    const leaf = await say(s, from, '2');
    expect(leaf.replies).toEqual(['Chave: 123']);
    const ticket = await ticketOf(leaf.ticketId);
    expect(ticket).toMatchObject({ queueId: s.support, chatbot: false });
    expect((await say(s, from, '1')).replies).toEqual([]);
  });

  it('stops answering once a human accepts the ticket', async () => {
    const s = await setup();
    const from = customerNumber();
    const { ticketId } = await say(s, from, 'Oi');
    const accept = await inject('PUT', `/api/tickets/${ticketId}`, s.admin, {
      status: 'open',
      userId: s.admin.id,
    });
    expect(accept.statusCode).toBe(200);
    expect((await say(s, from, 'não entendi')).replies).toEqual([]);
    expect((await say(s, from, '1')).replies).toEqual([]);
    expect(await ticketOf(ticketId)).toMatchObject({ status: 'open', queueId: null });
  });

  it('sends the out-of-hours message outside company hours (scheduleType company) and no menu', async () => {
    const s = await setup({ outOfHoursMessage: 'Estamos fechados, {{firstName}}.' });
    await setSetting(s.companyId, 'scheduleType', 'company');
    await t.app.ctx.db
      .update(companies)
      .set({ schedules: ALWAYS_CLOSED })
      .where(eq(companies.id, s.companyId));
    const from = customerNumber();
    expect((await say(s, from, 'Oi')).replies).toEqual(['Estamos fechados, Maria.']);

    await t.app.ctx.db.update(companies).set({ schedules: ALWAYS_OPEN }).where(eq(companies.id, s.companyId));
    const other = customerNumber();
    expect((await say(s, other, 'Oi')).replies[0]).toContain('*1* - Suporte');
  });

  it("uses the chosen queue's hours and out-of-hours message when scheduleType is queue", async () => {
    const s = await setup();
    await setSetting(s.companyId, 'scheduleType', 'queue');
    await t.app.ctx.db
      .update(queues)
      .set({ schedules: ALWAYS_CLOSED, outOfHoursMessage: 'Vendas abre amanhã.' })
      .where(and(eq(queues.companyId, s.companyId), eq(queues.id, s.sales)));
    const from = customerNumber();
    await say(s, from, 'Oi');
    expect((await say(s, from, '2')).replies).toEqual(['Vendas abre amanhã.']);
  });

  it('greets on a one-queue connection only when sendGreetingMessageOneQueues is enabled', async () => {
    const tenant = await createTenant(t.app);
    await t.app.ctx.db
      .update(queues)
      .set({ greetingMessage: 'Bem-vindo ao suporte, {{name}}.' })
      .where(eq(queues.id, tenant.queueId));
    const res = await inject('POST', '/api/whatsapp', tenant.admin, {
      name: 'One',
      provider: 'simulator',
      queueIds: [tenant.queueId],
      greetingMessage: '',
    });
    const s: Setup = { ...tenant, whatsappId: res.json().id, support: tenant.queueId, sales: 0 };
    await setSetting(tenant.companyId, 'sendGreetingMessageOneQueues', 'disabled');
    const quiet = await say(s, customerNumber(), 'Oi');
    expect(quiet.replies).toEqual([]);
    expect(await ticketOf(quiet.ticketId)).toMatchObject({ queueId: tenant.queueId });

    await setSetting(tenant.companyId, 'sendGreetingMessageOneQueues', 'enabled');
    const greeted = await say(s, customerNumber(), 'Oi');
    expect(greeted.replies).toEqual(['Bem-vindo ao suporte, Maria Souza.']);
  });

  it("greets every new customer with the connection's greeting, whatever its number of queues", async () => {
    const tenant = await createTenant(t.app);
    await t.app.ctx.db
      .update(queues)
      .set({ greetingMessage: 'Aqui é o suporte.' })
      .where(eq(queues.id, tenant.queueId));
    const connect = async (queueIds: number[]) => {
      const res = await inject('POST', '/api/whatsapp', tenant.admin, {
        name: `C${queueIds.length}`,
        provider: 'simulator',
        queueIds,
        greetingMessage: 'Olá, {{name}}!',
      });
      expect(res.statusCode).toBe(201);
      const s: Setup = { ...tenant, whatsappId: res.json().id, support: tenant.queueId, sales: 0 };
      return s;
    };
    // No queue: the connection's greeting alone, and only on the first message of the ticket.
    const none = await connect([]);
    const from = customerNumber();
    expect((await say(none, from, 'Oi')).replies).toEqual(['Olá, Maria Souza!']);
    expect((await say(none, from, 'Tudo bem?')).replies).toEqual([]);
    // One queue: the connection's greeting, then the queue's own.
    const one = await connect([tenant.queueId]);
    expect((await say(one, customerNumber(), 'Oi')).replies).toEqual([
      'Olá, Maria Souza!',
      'Aqui é o suporte.',
    ]);
    // A queue without a greeting: the connection's greeting only.
    await t.app.ctx.db.update(queues).set({ greetingMessage: '' }).where(eq(queues.id, tenant.queueId));
    expect((await say(one, customerNumber(), 'Oi')).replies).toEqual(['Olá, Maria Souza!']);
  });

  it('refuses a connection with several queues and no greeting (ERR_WAPP_GREETING_REQUIRED)', async () => {
    const tenant = await createTenant(t.app);
    const other = await createQueue(t.app, tenant.companyId);
    const res = await inject('POST', '/api/whatsapp', tenant.admin, {
      name: 'No greeting',
      provider: 'simulator',
      queueIds: [tenant.queueId, other],
      greetingMessage: ' ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_WAPP_GREETING_REQUIRED', field: 'greetingMessage' });
  });

  it('runs on the workers by itself when they are on (no drain)', async () => {
    const own = await createTestApp();
    try {
      const { buildApp } = await import('../app.js');
      const app = await buildApp({
        config: own.config,
        database: own.database,
        secrets: {
          jwtSecret: new TextEncoder().encode(own.config.JWT_SECRET),
          sessionKey: Buffer.alloc(32, 7),
        },
        logger: false,
        jobWorkers: true,
      });
      await app.ready();
      try {
        const previous = t;
        t = { ...own, app };
        try {
          const s = await setup();
          const from = customerNumber();
          await injectMessage(app, s.admin, s.whatsappId, { from, body: 'Oi', name: 'Maria' });
          await expect
            .poll(
              () =>
                app.simulator
                  .outbox(s.whatsappId, from)
                  .map((m) => m.body)
                  .join(),
              { timeout: 10_000 },
            )
            .toContain('*1* - Suporte');
        } finally {
          t = previous;
        }
      } finally {
        await app.close();
      }
    } finally {
      await own.close();
    }
  });
});
