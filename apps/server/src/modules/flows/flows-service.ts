import {
  checkFlowGraph,
  FLOW_LIMITS,
  type Flow,
  type FlowCreateBody,
  type FlowGraph,
  type FlowsPage,
  type FlowWithGraph,
  parsePatch,
  type TypedFlowNode,
  ZFlowUpdateBody,
} from '@zapdesk/shared';
import { and, asc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { flowRuns, flows, queues, tickets } from '../../db/schema/index.js';
import { AppError, orNotFound } from '../../lib/app-error.js';
import { pickColumns } from '../../lib/columns.js';
import { assertUrlAllowed } from '../../lib/outbound-url.js';
import { containsTerm, readPage, type SearchPageQuery } from '../../lib/search-page.js';
import { decryptSecret, encryptSecret, maskSecret } from '../../lib/secrets.js';

/** Flows per page of GET /flowbuilder. */
export const FLOWS_PAGE_SIZE = 20;

/**
 * True when the flow's graph names a queue the company no longer has: a ticket node's queue
 * (`data.data.id`) or an OpenAI node's `queueId`. One SQL expression, evaluated per row of the page.
 */
const brokenSql: SQL<boolean> = sql<boolean>`exists (
  select 1 from jsonb_array_elements(coalesce(${flows.graph} -> 'nodes', '[]'::jsonb)) as n
  where (
    case
      when n ->> 'type' = 'ticket' then n -> 'data' -> 'data' ->> 'id'
      when n ->> 'type' = 'openai' then n -> 'data' -> 'typebotIntegration' ->> 'queueId'
    end
  ) ~ '^[0-9]{1,9}$'
  and not exists (
    select 1 from ${queues} q
    where q.company_id = ${flows.companyId}
      and q.id = (case
        when n ->> 'type' = 'ticket' then n -> 'data' -> 'data' ->> 'id'
        else n -> 'data' -> 'typebotIntegration' ->> 'queueId'
      end)::int
  )
)`;

const listColumns = {
  ...pickColumns(flows, ['id', 'name', 'active', 'createdAt', 'updatedAt']),
  broken: brokenSql,
};

interface FlowRow {
  id: number;
  name: string;
  active: boolean;
  broken: boolean;
  createdAt: Date;
  updatedAt: Date;
}

function toFlow(row: FlowRow): Flow {
  return {
    id: row.id,
    name: row.name,
    active: row.active,
    broken: Boolean(row.broken),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function findFlow(ctx: AppContext, companyId: number, id: number): Promise<Flow | undefined> {
  const [row] = await ctx.db
    .select(listColumns)
    .from(flows)
    .where(and(eq(flows.companyId, companyId), eq(flows.id, id)));
  return row ? toFlow(row as FlowRow) : undefined;
}

/** One flow of the company. @throws ERR_NOT_FOUND (also another company's id). */
export async function getFlow(ctx: AppContext, companyId: number, id: number): Promise<Flow> {
  const found = await findFlow(ctx, companyId, id);
  return orNotFound(found);
}

/**
 * GET /flowbuilder (document 3 section 7 "Flow builder"): the company's flows by name, filtered by
 * `searchParam` (part of the name, any case), 20 a page, each flagged `broken` when its graph
 * names a deleted queue.
 */
export async function listFlows(
  ctx: AppContext,
  companyId: number,
  query: SearchPageQuery,
): Promise<FlowsPage> {
  const { page, hasMore } = await readPage(query.pageNumber, FLOWS_PAGE_SIZE, ({ limit, offset }) =>
    ctx.db
      .select(listColumns)
      .from(flows)
      .where(and(eq(flows.companyId, companyId), containsTerm(query.searchParam, flows.name)))
      .orderBy(asc(flows.name), asc(flows.id))
      .limit(limit)
      .offset(offset),
  );
  return { flows: page.map((row) => toFlow(row as FlowRow)), hasMore };
}

/** POST /flowbuilder: a new active flow with no graph yet. */
export async function createFlow(ctx: AppContext, companyId: number, body: FlowCreateBody): Promise<Flow> {
  const [row] = await ctx.db.insert(flows).values({ companyId, name: body.name }).returning({ id: flows.id });
  return getFlow(ctx, companyId, row!.id);
}

/** PUT /flowbuilder: renames (and/or switches `active`) flow `flowId`. @throws ERR_NOT_FOUND. */
export async function updateFlow(ctx: AppContext, companyId: number, input: unknown): Promise<Flow> {
  const { flowId, ...patch } = parsePatch(ZFlowUpdateBody, input);
  if (flowId === undefined)
    throw new AppError('ERR_VALIDATION', { extra: { field: 'flowId', message: 'required' } });
  const [row] = await ctx.db
    .update(flows)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(flows.companyId, companyId), eq(flows.id, flowId)))
    .returning({ id: flows.id });
  if (!row) throw new AppError('ERR_NOT_FOUND');
  return getFlow(ctx, companyId, flowId);
}

/**
 * DELETE /flowbuilder/:id: the flow, its campaigns and its runs; the tickets its live runs held go
 * to the agents (bot off). @throws ERR_NOT_FOUND.
 */
export async function deleteFlow(ctx: AppContext, companyId: number, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const live = tx
      .select({ ticketId: flowRuns.ticketId })
      .from(flowRuns)
      .where(and(eq(flowRuns.companyId, companyId), eq(flowRuns.flowId, id), ne(flowRuns.status, 'ended')));
    await tx
      .update(tickets)
      .set({ useIntegration: false })
      .where(
        and(eq(tickets.companyId, companyId), inArray(tickets.id, live), sql`${tickets.userId} is null`),
      );
    const [row] = await tx
      .delete(flows)
      .where(and(eq(flows.companyId, companyId), eq(flows.id, id)))
      .returning({ id: flows.id });
    if (!row) throw new AppError('ERR_NOT_FOUND');
  });
}

/**
 * POST /flowbuilder/duplicate: a copy of flow `flowId` with its graph, named '<name> (cópia)'
 * (cut to the 50-character limit). @throws ERR_NOT_FOUND.
 */
export async function duplicateFlow(ctx: AppContext, companyId: number, flowId: number): Promise<Flow> {
  const [source] = await ctx.db
    .select({ name: flows.name, active: flows.active, graph: flows.graph })
    .from(flows)
    .where(and(eq(flows.companyId, companyId), eq(flows.id, flowId)));
  if (!source) throw new AppError('ERR_NOT_FOUND');
  const suffix = ' (cópia)';
  const name = `${source.name.slice(0, FLOW_LIMITS.nameMax - suffix.length)}${suffix}`;
  const [row] = await ctx.db
    .insert(flows)
    .values({ companyId, name, active: source.active, graph: source.graph })
    .returning({ id: flows.id });
  return getFlow(ctx, companyId, row!.id);
}

/** The graph as the API answers it: OpenAI API keys masked. */
function maskedGraph(ctx: AppContext, graph: FlowGraph): FlowGraph {
  return {
    nodes: graph.nodes.map((node) => {
      if (node.type !== 'openai') return node;
      const integration = node.data.typebotIntegration as Record<string, unknown>;
      let plain = '';
      try {
        plain = decryptSecret(String(integration.apiKey ?? ''), ctx.secrets.sessionKey);
      } catch {
        plain = '';
      }
      return {
        ...node,
        data: { ...node.data, typebotIntegration: { ...integration, apiKey: maskSecret(plain) } },
      };
    }),
    connections: graph.connections,
  };
}

/**
 * GET /flowbuilder/flow/:id: the flow with its graph in `flow.flow` (null before the first save),
 * OpenAI keys masked. @throws ERR_NOT_FOUND.
 */
export async function getFlowGraph(ctx: AppContext, companyId: number, id: number): Promise<FlowWithGraph> {
  const [row] = await ctx.db
    .select({ ...listColumns, graph: flows.graph })
    .from(flows)
    .where(and(eq(flows.companyId, companyId), eq(flows.id, id)));
  if (!row) throw new AppError('ERR_NOT_FOUND');
  const graph = row.graph && row.graph.nodes.length > 0 ? maskedGraph(ctx, row.graph) : null;
  return { flow: { ...toFlow(row as FlowRow), flow: graph } };
}

/** The stored graph's OpenAI API keys (encrypted) by node id. */
function storedKeys(graph: FlowGraph | null): Map<string, string> {
  const keys = new Map<string, string>();
  for (const node of graph?.nodes ?? []) {
    if (node.type !== 'openai') continue;
    const apiKey = (node.data.typebotIntegration as { apiKey?: unknown } | undefined)?.apiKey;
    if (typeof apiKey === 'string') keys.set(node.id, apiKey);
  }
  return keys;
}

/**
 * POST /flowbuilder/flow (document 3 section 7): validates the graph (see `checkFlowGraph`; the
 * queues of ticket and OpenAI nodes must be the company's), encrypts OpenAI API keys (a masked key,
 * containing '…', keeps the one stored for that node) and stores it. A Typebot node's URL must pass
 * the outbound-URL policy.
 * @throws ERR_NOT_FOUND, ERR_FLOW_INVALID `{ reason, node, connection, field }`, ERR_URL_NOT_ALLOWED
 *   `{ node, field }`.
 */
export async function saveFlowGraph(
  ctx: AppContext,
  companyId: number,
  body: { idFlow: number } & FlowGraph,
): Promise<FlowWithGraph> {
  const [current] = await ctx.db
    .select({ graph: flows.graph })
    .from(flows)
    .where(and(eq(flows.companyId, companyId), eq(flows.id, body.idFlow)));
  if (!current) throw new AppError('ERR_NOT_FOUND');
  const checked = checkFlowGraph({ nodes: body.nodes, connections: body.connections });
  if (!checked.ok) throw new AppError('ERR_FLOW_INVALID', { extra: { ...checked.problem } });
  await assertQueues(ctx, companyId, checked.nodes);
  for (const node of checked.nodes) {
    if (node.type === 'typebot') {
      await assertUrlAllowed(ctx, node.data.typebotIntegration.urlN8N, 'typebotIntegration.urlN8N', {
        node: node.id,
      });
    }
  }
  const keys = storedKeys(current.graph);
  const nodes = checked.nodes.map((node) => {
    if (node.type !== 'openai') return node;
    const integration = node.data.typebotIntegration;
    const kept = integration.apiKey.includes('…') ? keys.get(node.id) : undefined;
    if (integration.apiKey.includes('…') && !kept) {
      throw new AppError('ERR_FLOW_INVALID', {
        extra: { reason: 'invalidData', node: node.id, field: 'typebotIntegration.apiKey' },
      });
    }
    return {
      ...node,
      data: {
        ...node.data,
        typebotIntegration: {
          ...integration,
          apiKey: kept ?? encryptSecret(integration.apiKey, ctx.secrets.sessionKey),
        },
      },
    };
  });
  const graph = { nodes, connections: checked.connections } as FlowGraph;
  await ctx.db
    .update(flows)
    .set({ graph, updatedAt: new Date() })
    .where(and(eq(flows.companyId, companyId), eq(flows.id, body.idFlow)));
  return getFlowGraph(ctx, companyId, body.idFlow);
}

/** The queue ids a graph's ticket and OpenAI nodes name, with the node naming each. */
export function graphQueueIds(nodes: TypedFlowNode[]): Map<number, string> {
  const ids = new Map<number, string>();
  for (const node of nodes) {
    if (node.type === 'ticket') ids.set(node.data.data.id, node.id);
    if (node.type === 'openai' && node.data.typebotIntegration.queueId !== null) {
      ids.set(node.data.typebotIntegration.queueId, node.id);
    }
  }
  return ids;
}

/** @throws ERR_FLOW_INVALID queueNotFound when a node names a queue the company does not have. */
async function assertQueues(ctx: AppContext, companyId: number, nodes: TypedFlowNode[]): Promise<void> {
  const wanted = graphQueueIds(nodes);
  if (wanted.size === 0) return;
  const found = await ctx.db
    .select({ id: queues.id })
    .from(queues)
    .where(and(eq(queues.companyId, companyId), inArray(queues.id, [...wanted.keys()])));
  const have = new Set(found.map((row) => row.id));
  for (const [id, node] of wanted) {
    if (!have.has(id)) throw new AppError('ERR_FLOW_INVALID', { extra: { reason: 'queueNotFound', node } });
  }
}

/**
 * Checks that `flowId` (when given) is a flow of the company: a connection's welcome flow
 * (`flowIdWelcome`). @throws ERR_NOT_FOUND with `field: 'flowIdWelcome'`.
 */
export async function assertFlowOfCompany(
  db: Tx,
  companyId: number,
  flowId: number | null | undefined,
): Promise<void> {
  if (flowId === null || flowId === undefined) return;
  const [row] = await db
    .select({ id: flows.id })
    .from(flows)
    .where(and(eq(flows.companyId, companyId), eq(flows.id, flowId)));
  if (!row) throw new AppError('ERR_NOT_FOUND', { extra: { field: 'flowIdWelcome' } });
}
