import {
  ZFlow,
  ZFlowCampaign,
  ZFlowCampaignBody,
  ZFlowCampaignsPage,
  ZFlowCampaignsQuery,
  ZFlowCampaignUpdateBody,
  ZFlowCreateBody,
  ZFlowDuplicateBody,
  ZFlowSaveBody,
  ZFlowsPage,
  ZFlowTestBody,
  ZFlowTestRun,
  ZFlowUpdateBody,
  ZFlowUploadAnswer,
  ZFlowWithGraph,
  ZIdParam,
  ZPageQuery,
  ZTicketFlowRun,
} from '@zapdesk/shared';
import type { FlowEngine } from '../../automation/flows/flow-engine.js';
import type { MediaStore } from '../../channels/media-store.js';
import type { SessionManager } from '../../channels/session-manager.js';
import type { AppContext, ZodApp } from '../../context.js';
import { userRoute } from '../../lib/guards.js';
import { resourceRoutes } from '../common/resource-routes.js';
import { routeTable } from '../common/route-table.js';
import {
  createFlowCampaign,
  deleteFlowCampaign,
  getFlowCampaign,
  listFlowCampaigns,
  updateFlowCampaign,
} from './flow-campaigns-service.js';
import { startFlowTestRun } from './flow-test-run.js';
import { type FlowUploadKind, storeFlowUploads } from './flow-uploads.js';
import {
  createFlow,
  deleteFlow,
  duplicateFlow,
  getFlowGraph,
  listFlows,
  saveFlowGraph,
  updateFlow,
} from './flows-service.js';
import { getTicketFlowRun } from './ticket-flow-run.js';

/**
 * The flow builder and flow campaigns are campaign features of the Flows submenu, an admin menu
 * (document 1 section "Menu": "Flows submenu (/phrase-lists, /flowbuilders): admin"). Reads stay
 * open to any signed-in user of a company whose plan has useCampaigns, since other screens list the
 * flows (the connection modal's welcome flow); every write needs an admin or super user and answers
 * 403 ERR_NO_PERMISSION to an agent.
 */
const flowReadRoute = { auth: 'user', plan: 'useCampaigns' } as const;
const flowWriteRoute = { auth: 'user', role: 'admin', plan: 'useCampaigns' } as const;

/**
 * Flow builder and flow campaigns API (document 3 section 7 "Flow builder", "Flow campaigns"), and
 * the editor's test run on a simulator connection, which needs the flow engine and
 * the connections' sessions.
 */
export function flowRoutes(
  app: ZodApp,
  ctx: AppContext,
  media: MediaStore,
  run: { engine: FlowEngine; sessions: SessionManager },
): void {
  const tags = ['flows'];
  // Any user who may open the ticket, whatever the plan: the ticket view asks it for every ticket.
  const route = routeTable(app, tags, flowWriteRoute);
  route.get(
    '/tickets/:id/flow-run',
    { guard: userRoute, params: ZIdParam, reply: ZTicketFlowRun },
    (request) => getTicketFlowRun(ctx, request.auth, request.params.id),
  );
  resourceRoutes(app, {
    path: '/flowbuilder',
    tags,
    item: ZFlow,
    body: ZFlowCreateBody,
    query: ZPageQuery,
    page: ZFlowsPage,
    list: [flowReadRoute, (auth, query) => listFlows(ctx, auth.companyId, query)],
    create: [flowWriteRoute, (auth, body) => createFlow(ctx, auth.companyId, body)],
    remove: [flowWriteRoute, (auth, id) => deleteFlow(ctx, auth.companyId, id)],
  });
  route.put(
    '/flowbuilder',
    { body: ZFlowUpdateBody.partial().required({ flowId: true }), reply: ZFlow },
    (request) => updateFlow(ctx, request.auth.companyId, request.body),
  );
  route.post(
    '/flowbuilder/duplicate',
    { body: ZFlowDuplicateBody, response: { 201: ZFlow } },
    async (request, reply) =>
      reply.status(201).send(await duplicateFlow(ctx, request.auth.companyId, request.body.flowId)),
  );
  route.get(
    '/flowbuilder/flow/:id',
    { guard: flowReadRoute, params: ZIdParam, reply: ZFlowWithGraph },
    (request) => getFlowGraph(ctx, request.auth.companyId, request.params.id),
  );
  route.post('/flowbuilder/flow', { body: ZFlowSaveBody, reply: ZFlowWithGraph }, (request) =>
    saveFlowGraph(ctx, request.auth.companyId, request.body),
  );
  // A test run talks to a simulator phone (its driver routes are for admins only too).
  route.post(
    '/flowbuilder/:id/test',
    { params: ZIdParam, body: ZFlowTestBody, response: { 201: ZFlowTestRun } },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await startFlowTestRun(
            ctx,
            run.engine,
            run.sessions,
            request.auth.companyId,
            request.params.id,
            request.body,
          ),
        ),
  );
  for (const kind of ['img', 'audio', 'content'] as const satisfies FlowUploadKind[]) {
    route.post(`/flowbuilder/${kind}`, { reply: ZFlowUploadAnswer }, (request) =>
      storeFlowUploads(request, media, request.auth.companyId, kind),
    );
  }

  resourceRoutes(app, {
    path: '/flowcampaign',
    tags,
    item: ZFlowCampaign,
    body: ZFlowCampaignBody,
    query: ZFlowCampaignsQuery,
    page: ZFlowCampaignsPage,
    list: [flowReadRoute, (auth, query) => listFlowCampaigns(ctx, auth.companyId, query)],
    show: [flowReadRoute, (auth, id) => getFlowCampaign(ctx, auth.companyId, id)],
    create: [flowWriteRoute, (auth, body) => createFlowCampaign(ctx, auth.companyId, body)],
    remove: [flowWriteRoute, (auth, id) => deleteFlowCampaign(ctx, auth.companyId, id)],
  });
  route.put('/flowcampaign', { body: ZFlowCampaignUpdateBody, reply: ZFlowCampaign }, (request) => {
    const { id, ...fields } = request.body;
    return updateFlowCampaign(ctx, request.auth.companyId, id, fields);
  });
}
