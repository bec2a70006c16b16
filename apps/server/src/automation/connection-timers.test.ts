import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { userRatings } from '../db/schema/index.js';
import { inject, t, useAppSuite } from '../test/app-suite.js';
import { putSetting, ticketRow } from '../test/conversation.js';
import {
  createQueue,
  createTenant,
  customerNumber,
  injectMessage,
  type TenantFixture,
} from '../test/factories.js';

useAppSuite();

/** The timers the every-minute job runs, with a chosen "now". */
const timers = { run: (now: Date) => t.app.timers.run(now) };

const minutes = (n: number) => new Date(Date.now() + n * 60_000);

async function connection(tenant: TenantFixture, payload: Record<string, unknown>) {
  const res = await inject('POST', '/api/whatsapp', tenant.admin, {
    name: `Timers ${customerNumber()}`,
    provider: 'simulator',
    queueIds: [tenant.queueId],
    ...payload,
  });
  expect(res.statusCode).toBe(201);
  return res.json().id as number;
}

const ticketOf = (id: number) => ticketRow(t.app, id);

const setSetting = (companyId: number, key: string, value: string) =>
  putSetting(t.app, companyId, key, value);

const accept = (tenant: TenantFixture, ticketId: number) =>
  inject('PUT', `/api/tickets/${ticketId}`, tenant.admin, { status: 'open', userId: tenant.admin.id });

/** The tenant's admin closes the ticket. */
const close = (tenant: TenantFixture, ticketId: number) =>
  inject('PUT', `/api/tickets/${ticketId}`, tenant.admin, { status: 'closed' });

describe('connection timers', () => {
  it('closes open tickets inactive for expiresTicket minutes with expiresInactiveMessage', async () => {
    const tenant = await createTenant(t.app);
    const whatsappId = await connection(tenant, {
      expiresTicket: 30,
      expiresInactiveMessage: 'Encerramos por inatividade, {{firstName}}.',
    });
    const from = customerNumber();
    const { ticketId } = await injectMessage(t.app, tenant.admin, whatsappId, {
      from,
      body: 'Oi',
      name: 'Ana Lima',
    });
    await accept(tenant, ticketId);
    // A pending ticket of another customer is not "open": it stays.
    const waiting = await injectMessage(t.app, tenant.admin, whatsappId, {
      from: customerNumber(),
      body: 'Oi',
    });

    expect(await timers.run(minutes(29))).toEqual({ closed: 0, transferred: 0 });
    expect((await ticketOf(ticketId)).status).toBe('open');

    expect((await timers.run(minutes(31))).closed).toBe(1);
    expect(await ticketOf(ticketId)).toMatchObject({ status: 'closed', closedAt: expect.any(Date) });
    expect((await ticketOf(waiting.ticketId)).status).toBe('pending');
    expect(t.app.simulator.outbox(whatsappId, from).map((m) => m.body)).toContain(
      'Encerramos por inatividade, Ana.',
    );
    // Nothing left to close on the next run.
    expect((await timers.run(minutes(32))).closed).toBe(0);
  });

  it('moves waiting tickets to transferQueueId after timeToTransfer minutes, never accepted ones', async () => {
    const tenant = await createTenant(t.app);
    const overflow = await createQueue(t.app, tenant.companyId, 'Plantão');
    await setSetting(tenant.companyId, 'sendMsgTransfTicket', 'enabled');
    const whatsappId = await connection(tenant, { timeToTransfer: 10, transferQueueId: overflow });
    const from = customerNumber();
    const waiting = await injectMessage(t.app, tenant.admin, whatsappId, { from, body: 'Oi' });
    const taken = await injectMessage(t.app, tenant.admin, whatsappId, {
      from: customerNumber(),
      body: 'Oi',
    });
    await accept(tenant, taken.ticketId);

    expect((await timers.run(minutes(9))).transferred).toBe(0);
    expect((await timers.run(minutes(11))).transferred).toBe(1);
    expect(await ticketOf(waiting.ticketId)).toMatchObject({ status: 'pending', queueId: overflow });
    expect(await ticketOf(taken.ticketId)).toMatchObject({ status: 'open', queueId: tenant.queueId });
    expect(t.app.simulator.outbox(whatsappId, from).at(-1)?.body).toContain('*Plantão*');
    // Already in the transfer queue: not moved again.
    expect((await timers.run(minutes(30))).transferred).toBe(0);
  });
});

describe('closing messages and ratings', () => {
  it('sends the completion message on close when rating is off', async () => {
    const tenant = await createTenant(t.app);
    const whatsappId = await connection(tenant, { complationMessage: 'Obrigado, {{firstName}}!' });
    const from = customerNumber();
    const { ticketId } = await injectMessage(t.app, tenant.admin, whatsappId, {
      from,
      body: 'Oi',
      name: 'Rui',
    });
    await accept(tenant, ticketId);
    await close(tenant, ticketId);
    expect(t.app.simulator.outbox(whatsappId, from).at(-1)?.body).toBe('Obrigado, Rui!');
  });

  it('asks for a 1..3 rating on close, stores the answer for the attendant, then says goodbye', async () => {
    const tenant = await createTenant(t.app);
    await setSetting(tenant.companyId, 'userRating', 'enabled');
    const whatsappId = await connection(tenant, {
      ratingMessage: 'Como foi o atendimento?',
      complationMessage: 'Até logo!',
    });
    const from = customerNumber();
    const { ticketId } = await injectMessage(t.app, tenant.admin, whatsappId, { from, body: 'Oi' });
    await accept(tenant, ticketId);
    await close(tenant, ticketId);
    expect(t.app.simulator.outbox(whatsappId, from).at(-1)?.body).toBe(
      'Como foi o atendimento?\n\n*1* - Insatisfeito\n*2* - Satisfeito\n*3* - Muito satisfeito',
    );
    expect((await ticketOf(ticketId)).awaitingRating).toBe(true);

    const answer = await injectMessage(t.app, tenant.admin, whatsappId, { from, body: ' 3 ' });
    await t.app.jobs.drain();
    // The answer stays on the closed ticket; it does not reopen it.
    expect(answer.ticketId).toBe(ticketId);
    expect(await ticketOf(ticketId)).toMatchObject({ status: 'closed', awaitingRating: false });
    const ratings = await t.app.ctx.db
      .select()
      .from(userRatings)
      .where(and(eq(userRatings.companyId, tenant.companyId), eq(userRatings.ticketId, ticketId)));
    expect(ratings).toMatchObject([{ userId: tenant.admin.id, rate: 3 }]);
    expect(t.app.simulator.outbox(whatsappId, from).at(-1)?.body).toBe('Até logo!');

    // After the rating, a new message opens the conversation again (pending, no second rating).
    const again = await injectMessage(t.app, tenant.admin, whatsappId, { from, body: '2' });
    await t.app.jobs.drain();
    expect(await ticketOf(again.ticketId)).toMatchObject({ status: 'pending' });
    expect(
      await t.app.ctx.db.select().from(userRatings).where(eq(userRatings.ticketId, ticketId)),
    ).toHaveLength(1);
  });

  it('reopens the ticket when the customer writes something else instead of rating', async () => {
    const tenant = await createTenant(t.app);
    await setSetting(tenant.companyId, 'userRating', 'enabled');
    const whatsappId = await connection(tenant, {});
    const from = customerNumber();
    const { ticketId } = await injectMessage(t.app, tenant.admin, whatsappId, { from, body: 'Oi' });
    await accept(tenant, ticketId);
    await close(tenant, ticketId);
    await injectMessage(t.app, tenant.admin, whatsappId, { from, body: 'Esqueci de perguntar uma coisa' });
    await t.app.jobs.drain();
    expect(await ticketOf(ticketId)).toMatchObject({
      status: 'pending',
      awaitingRating: false,
      userId: null,
    });
    expect(await t.app.ctx.db.select().from(userRatings).where(eq(userRatings.ticketId, ticketId))).toEqual(
      [],
    );
  });
});
