import type { FlowGraph } from '@zapdesk/shared';
import { boolean, index, integer, jsonb, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { parentRef, timestamps, timestamptz } from './columns.js';
import { companyTable } from './tenant.js';
import { tickets } from './tickets.js';
import { whatsapps } from './whatsapps.js';

/**
 * Flows of the flow builder (document 3 section 3 "Flow"). `graph` holds the nodes and
 * connections exactly as saved (validated by POST /flowbuilder/flow), null until the first save.
 * OpenAI nodes keep their API key encrypted (lib/secrets.ts) inside the graph.
 */
export const flows = companyTable(
  'flows',
  {
    name: text().notNull(),
    active: boolean().notNull().default(true),
    graph: jsonb().$type<FlowGraph>(),
    ...timestamps,
  },
  (t) => [index('flows_company_name_idx').on(t.companyId, t.name)],
);

/**
 * Flow campaigns (document 3 section 3 "Flow campaign"): a trigger `phrase` on connection
 * `whatsappId` that starts flow `flowId` when `status` is on.
 */
export const flowCampaigns = companyTable(
  'flow_campaigns',
  {
    name: text().notNull(),
    flowId: parentRef(() => flows.id),
    whatsappId: parentRef(() => whatsapps.id),
    phrase: text().notNull(),
    status: boolean().notNull().default(true),
    ...timestamps,
  },
  (t) => [
    index('flow_campaigns_company_name_idx').on(t.companyId, t.name),
    index('flow_campaigns_whatsapp_status_idx').on(t.whatsappId, t.status),
    index('flow_campaigns_flow_idx').on(t.flowId),
  ],
);

/**
 * A flow run: where one ticket is in a flow. One row per ticket. `nodeId` is
 * the node to execute next, `contentIndex` the next element of a content node; `status` says
 * whether the run executes (`running`), waits for the customer (`waitingInput`), waits for the
 * clock (`waitingUntil`, until `waitingUntil`) or has ended. `step` counts executed steps: a job
 * carries the step it was queued for, so a job run twice does nothing the second time.
 */
export const flowRuns = companyTable(
  'flow_runs',
  {
    ticketId: parentRef(() => tickets.id),
    flowId: parentRef(() => flows.id),
    nodeId: text().notNull(),
    contentIndex: integer().notNull().default(0),
    status: text({ enum: ['running', 'waitingInput', 'waitingUntil', 'ended'] })
      .notNull()
      .default('running'),
    waitingUntil: timestamptz(),
    variables: jsonb().$type<Record<string, string>>().notNull().default({}),
    /** An outside bot's state on the current node (a Typebot node's session id and choices). */
    botState: jsonb().$type<{ sessionId: string; choices: string[] }>(),
    step: integer().notNull().default(0),
    endedAt: timestamptz(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('flow_runs_ticket_key').on(t.ticketId),
    index('flow_runs_company_flow_idx').on(t.companyId, t.flowId),
  ],
);
