import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { flowRuns } from '../../db/schema/index.js';
import { customerNumber, injectMessage, type TenantFixture } from '../../test/factories.js';
import { a, b, flowId, inject, t, useFlowSuite, whatsappId } from '../../test/flow-suite.js';

let ticketId: number;

useFlowSuite({ name: 'Boas-vindas' });
beforeAll(async () => {
  ({ ticketId } = await injectMessage(t.app, a.admin, whatsappId, { from: customerNumber(), body: 'olá' }));
});

const flowRunOf = (user: TenantFixture['admin'], id: number | string = ticketId) =>
  inject('GET', `/api/tickets/${id}/flow-run`, user);

describe('GET /tickets/:id/flow-run', () => {
  it('answers null while the ticket has no run', async () => {
    const res = await flowRunOf(a.admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toBeNull();
  });

  it('names the flow, the node and its type while a run is live', async () => {
    await t.app.ctx.db
      .insert(flowRuns)
      .values({ companyId: a.companyId, ticketId, flowId, nodeId: 'menu', status: 'waitingInput' });
    const res = await flowRunOf(a.admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      flowId,
      flowName: 'Boas-vindas',
      nodeId: 'menu',
      nodeType: 'menu',
      status: 'waitingInput',
    });
  });

  it('gives a null node type for a node no longer in the graph', async () => {
    await t.app.ctx.db.update(flowRuns).set({ nodeId: 'gone' }).where(eq(flowRuns.ticketId, ticketId));
    expect((await flowRunOf(a.admin)).json()).toMatchObject({ nodeId: 'gone', nodeType: null });
  });

  it("answers 404 for another company's ticket and for a bad id", async () => {
    expect((await flowRunOf(b.admin)).statusCode).toBe(404);
    expect((await flowRunOf(a.admin, 'abc')).statusCode).toBe(404);
    expect((await flowRunOf(a.admin, 2_147_483_648)).statusCode).toBe(404);
  });

  it('answers null once the run has ended', async () => {
    await t.app.ctx.db.update(flowRuns).set({ status: 'ended' }).where(eq(flowRuns.ticketId, ticketId));
    const res = await flowRunOf(a.admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toBeNull();
  });
});
