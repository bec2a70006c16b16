import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowRuns } from '../../db/schema/index.js';
import { customerNumber, injectAs, injectMessage, type TenantFixture } from '../../test/factories.js';
import { createFlowFixture } from '../../test/flow-fixture.js';
import type { TestApp } from '../../test/test-app.js';

let t: TestApp;
const inject = injectAs(() => t.app);
let a: TenantFixture;
let b: TenantFixture;
let ticketId: number;
let flowId: number;

beforeAll(async () => {
  let whatsappId: number;
  ({ t, a, b, whatsappId, flowId } = await createFlowFixture({ name: 'Boas-vindas' }));
  ({ ticketId } = await injectMessage(t.app, a.admin, whatsappId, { from: customerNumber(), body: 'olá' }));
});
afterAll(async () => {
  await t?.close();
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
