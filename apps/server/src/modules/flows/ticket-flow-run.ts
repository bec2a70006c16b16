import { FLOW_NODE_TYPES, type FlowNodeType, type TicketFlowRun } from '@zapdesk/shared';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { flowRuns, flows } from '../../db/schema/index.js';
import type { AuthContext } from '../../lib/guards.js';
import { getVisibleTicket } from '../tickets/tickets-service.js';

/**
 * GET /tickets/:id/flow-run ("the ticket view shows which flow and node a
 * conversation is in"): the ticket's live flow run — flow id and name, the node it executes next or
 * waits on and its type, the run's status — or null when no run is live (none, or ended).
 * One query after the visibility check (flow_runs_ticket_key).
 * @throws ERR_NO_TICKET_FOUND (unknown or another company's ticket), ERR_NO_PERMISSION (outside the
 * caller's queues), as GET /tickets/:id.
 */
export async function getTicketFlowRun(
  ctx: AppContext,
  auth: AuthContext,
  ticketId: number,
): Promise<TicketFlowRun> {
  await getVisibleTicket(ctx, auth, { id: ticketId });
  const [row] = await ctx.db
    .select({
      flowId: flowRuns.flowId,
      flowName: flows.name,
      nodeId: flowRuns.nodeId,
      nodeType: sql<
        string | null
      >`(select n->>'type' from jsonb_array_elements(coalesce(${flows.graph}->'nodes', '[]'::jsonb)) n where n->>'id' = ${flowRuns.nodeId} limit 1)`,
      status: flowRuns.status,
    })
    .from(flowRuns)
    .innerJoin(flows, eq(flows.id, flowRuns.flowId))
    .where(
      and(
        eq(flowRuns.companyId, auth.companyId),
        eq(flowRuns.ticketId, ticketId),
        ne(flowRuns.status, 'ended'),
      ),
    );
  if (!row || row.status === 'ended') return null;
  const nodeType = FLOW_NODE_TYPES.includes(row.nodeType as FlowNodeType)
    ? (row.nodeType as FlowNodeType)
    : null;
  return { ...row, status: row.status, nodeType };
}
