import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { FLOW_STEP_JOB } from '../../automation/flows/flow-engine.js';
import { flowRuns, flows, tickets, whatsapps } from '../../db/schema/index.js';
import {
  bearer,
  createSimulatorConnection,
  customerNumber,
  injectMessage,
  type TenantFixture,
} from '../../test/factories.js';
import { a, b, flowId, inject, t, useFlowSuite, whatsappId } from '../../test/flow-suite.js';

useFlowSuite();

const startTest = (user: TenantFixture['admin'], payload: object, id: number | string = flowId) =>
  t.app.inject({ method: 'POST', url: `/api/flowbuilder/${id}/test`, headers: bearer(user), payload });

/** Runs due jobs, delayed flow steps included, until none is left. */
async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) {
    await t.app.jobs.drain();
    const { rows } = await t.database.executor.executeSql(
      `update pgboss.job set start_after = now() - interval '1 second'
       where name = '${FLOW_STEP_JOB}' and state = 'created' and start_after > now() returning id`,
    );
    if (!rows.length) return;
  }
}

const outbox = (number: string) => t.app.simulator.outbox(whatsappId, number).map((m) => m.body);
const runOf = async (ticketId: number) =>
  (await t.app.ctx.db.select().from(flowRuns).where(eq(flowRuns.ticketId, ticketId)))[0];

describe('POST /flowbuilder/:id/test', () => {
  it('starts the saved flow on the simulator phone: messages reach its outbox, answers move the run', async () => {
    const number = customerNumber();
    const res = await startTest(a.admin, { whatsappId, number: `+${number}` });
    expect(res.statusCode, res.body).toBe(201);
    const answer = res.json();
    expect(answer).toMatchObject({
      ticketId: expect.any(Number),
      contactId: expect.any(Number),
      sinceMessageId: 0,
    });
    await flush();
    expect(outbox(number)).toEqual(['Olá! Este é um teste.', expect.stringContaining('Escolha:')]);
    expect(await runOf(answer.ticketId)).toMatchObject({ flowId, nodeId: 'menu', status: 'waitingInput' });
    const [ticket] = await t.app.ctx.db.select().from(tickets).where(eq(tickets.id, answer.ticketId));
    expect(ticket).toMatchObject({
      status: 'pending',
      userId: null,
      useIntegration: true,
      contactId: answer.contactId,
    });

    // The customer answers on the same ticket, as any run.
    const reply = await injectMessage(t.app, a.admin, whatsappId, { from: number, body: '1' });
    expect(reply.ticketId).toBe(answer.ticketId);
    await flush();
    expect(outbox(number).at(-1)).toBe('Vendas, um momento.');
    expect((await runOf(answer.ticketId))?.status).toBe('ended');
  });

  it('ends the running test and starts over on the same ticket, even taken by an agent', async () => {
    const number = customerNumber();
    const first = (await startTest(a.admin, { whatsappId, number })).json();
    await flush();
    const stepBefore = (await runOf(first.ticketId))!.step;
    await t.app.ctx.db
      .update(tickets)
      .set({ status: 'open', userId: a.admin.id })
      .where(eq(tickets.id, first.ticketId));
    const again = await startTest(a.admin, { whatsappId, number });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().ticketId).toBe(first.ticketId);
    expect(again.json().sinceMessageId).toBeGreaterThan(0);
    const run = await runOf(first.ticketId);
    expect(run).toMatchObject({ nodeId: '1', status: 'running' });
    expect(run!.step).toBeGreaterThan(stepBefore);
    await flush();
    expect(outbox(number).filter((body) => body.startsWith('Olá!'))).toHaveLength(2);
    const [ticket] = await t.app.ctx.db.select().from(tickets).where(eq(tickets.id, first.ticketId));
    expect(ticket).toMatchObject({ status: 'pending', userId: null });
  });

  it('a start replaces a run whose steps have not run yet: the flow speaks once', async () => {
    const number = customerNumber();
    const first = (await startTest(a.admin, { whatsappId, number })).json();
    const second = (await startTest(a.admin, { whatsappId, number })).json();
    expect(second.ticketId).toBe(first.ticketId);
    await flush();
    expect(outbox(number)).toEqual(['Olá! Este é um teste.', expect.stringContaining('Escolha:')]);
  });

  it('uses the ticket of a phone that already wrote, and runs an inactive flow', async () => {
    const number = customerNumber();
    const { ticketId } = await injectMessage(t.app, a.admin, whatsappId, { from: number, body: 'olá' });
    await t.app.jobs.drain();
    await t.app.ctx.db.update(flows).set({ active: false }).where(eq(flows.id, flowId));
    try {
      const res = await startTest(a.admin, { whatsappId, number });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().ticketId).toBe(ticketId);
      await flush();
      expect(outbox(number)).toContain('Olá! Este é um teste.');
    } finally {
      await t.app.ctx.db.update(flows).set({ active: true }).where(eq(flows.id, flowId));
    }
  });

  it("answers 404 for another company's flow or connection and for bad ids", async () => {
    const number = customerNumber();
    const bConnection = await createSimulatorConnection(t.app, b.admin);
    expect((await startTest(b.admin, { whatsappId: bConnection, number })).statusCode).toBe(404);
    const other = await startTest(a.admin, { whatsappId: bConnection, number });
    expect(other.statusCode).toBe(404);
    expect(other.json().error).toBe('ERR_NO_WAPP_FOUND');
    expect((await startTest(a.admin, { whatsappId, number }, 'abc')).statusCode).toBe(404);
    expect((await startTest(a.admin, { whatsappId, number }, 2_147_483_648)).statusCode).toBe(404);
    expect(outbox(number)).toEqual([]);
  });

  it('refuses a connection that is not a simulator, a flow without a start node, and agents', async () => {
    const number = customerNumber();
    const [cloud] = await t.app.ctx.db
      .insert(whatsapps)
      .values({ companyId: a.companyId, name: `Cloud ${number}`, provider: 'cloud' })
      .returning({ id: whatsapps.id });
    const wrong = await startTest(a.admin, { whatsappId: cloud!.id, number });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('ERR_WRONG_PROVIDER');

    const empty = await inject('POST', '/api/flowbuilder', a.admin, { name: 'Vazio' });
    const blank = await startTest(a.admin, { whatsappId, number }, empty.json().id);
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ error: 'ERR_FLOW_INVALID', reason: 'startNode' });

    expect((await startTest(a.agent, { whatsappId, number })).statusCode).toBe(403);
    const short = await startTest(a.admin, { whatsappId, number: '123' });
    expect(short.statusCode).toBe(400);
    expect(short.json().error).toBe('ERR_VALIDATION');
    const open = await t.app.ctx.db
      .select()
      .from(tickets)
      .where(and(eq(tickets.companyId, a.companyId), eq(tickets.whatsappId, cloud!.id)));
    expect(open).toEqual([]);
  });
});
