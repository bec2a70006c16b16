import type { FlowGraph } from '@zapdesk/shared';
import { bearer, createSimulatorConnection, createTenantPair, type TenantFixture } from './factories.js';
import { createTestApp, type TestApp } from './test-app.js';

type FlowNode = FlowGraph['nodes'][number];

/** A flow-builder node of `type` with its `data`, at the origin. */
export const flowNode = (id: string, type: FlowNode['type'], data: FlowNode['data']): FlowNode => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data,
});

/** A flow-builder connection from `source`'s handle `sourceHandle` ('a', or 'a<option>' on a menu). */
export const flowEdge = (source: string, target: string, sourceHandle = 'a') => ({
  id: `e-${source}-${sourceHandle}-${target}`,
  source,
  sourceHandle,
  target,
  targetHandle: null,
});

/** Hello → menu 'Escolha:' (1 → 'Vendas, um momento.'). */
export const MENU_FLOW_GRAPH = {
  nodes: [
    flowNode('1', 'start', { label: 'Inicio do fluxo' }),
    flowNode('hello', 'message', { label: 'Olá! Este é um teste.' }),
    flowNode('menu', 'menu', { message: 'Escolha:', arrayOption: [{ number: 1, value: 'Vendas' }] }),
    flowNode('sales', 'message', { label: 'Vendas, um momento.' }),
  ],
  connections: [flowEdge('1', 'hello'), flowEdge('hello', 'menu'), flowEdge('menu', 'sales', 'a1')],
} satisfies FlowGraph;

/** What the flow tests start from. */
export interface FlowFixture {
  t: TestApp;
  /** Company A (owns the connection and the flow) and company B. */
  a: TenantFixture;
  b: TenantFixture;
  /** A's simulator connection. */
  whatsappId: number;
  /** A's flow. */
  flowId: number;
}

/**
 * A test app with two companies, a simulator connection of A, and A's flow `name` (default 'Teste')
 * with `graph` (default MENU_FLOW_GRAPH), created and saved through the flow builder's routes.
 * @throws when a route refuses the flow.
 */
export async function createFlowFixture(
  options: { name?: string; graph?: FlowGraph } = {},
): Promise<FlowFixture> {
  const t = await createTestApp();
  const { a, b } = await createTenantPair(t.app);
  const whatsappId = await createSimulatorConnection(t.app, a.admin);
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/flowbuilder',
    headers: bearer(a.admin),
    payload: { name: options.name ?? 'Teste' },
  });
  if (created.statusCode >= 300) throw new Error(`flow not created: ${created.body}`);
  const flowId: number = created.json().id;
  const saved = await t.app.inject({
    method: 'POST',
    url: '/api/flowbuilder/flow',
    headers: bearer(a.admin),
    payload: { idFlow: flowId, ...(options.graph ?? MENU_FLOW_GRAPH) },
  });
  if (saved.statusCode !== 200) throw new Error(`flow not saved: ${saved.body}`);
  return { t, a, b, whatsappId, flowId };
}
