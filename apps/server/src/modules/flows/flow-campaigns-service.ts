import {
  type FlowCampaign,
  type FlowCampaignBody,
  type FlowCampaignsPage,
  parsePatch,
  ZFlowCampaignBody,
} from '@zapdesk/shared';
import { and, asc, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { flowCampaigns, flows, whatsapps } from '../../db/schema/index.js';
import { AppError } from '../../lib/app-error.js';
import { pickColumns } from '../../lib/columns.js';
import { containsTerm, readPage, type SearchPageQuery } from '../../lib/search-page.js';

/** Flow campaigns per page of GET /flowcampaign. */
export const FLOW_CAMPAIGNS_PAGE_SIZE = 20;

const columns = {
  ...pickColumns(flowCampaigns, [
    'id',
    'name',
    'flowId',
    'whatsappId',
    'phrase',
    'status',
    'createdAt',
    'updatedAt',
  ]),
  flowName: flows.name,
  whatsappName: whatsapps.name,
};

interface Row {
  id: number;
  name: string;
  flowId: number;
  whatsappId: number;
  phrase: string;
  status: boolean;
  createdAt: Date;
  updatedAt: Date;
  flowName: string | null;
  whatsappName: string | null;
}

function toCampaign(row: Row): FlowCampaign {
  return {
    id: row.id,
    name: row.name,
    flowId: row.flowId,
    whatsappId: row.whatsappId,
    phrase: row.phrase,
    status: row.status,
    flow: row.flowName === null ? null : { id: row.flowId, name: row.flowName },
    whatsapp: row.whatsappName === null ? null : { id: row.whatsappId, name: row.whatsappName },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function select(ctx: AppContext) {
  return ctx.db
    .select(columns)
    .from(flowCampaigns)
    .leftJoin(flows, eq(flows.id, flowCampaigns.flowId))
    .leftJoin(whatsapps, eq(whatsapps.id, flowCampaigns.whatsappId));
}

/** GET /flowcampaign/:id. @throws ERR_NOT_FOUND (also another company's id). */
export async function getFlowCampaign(ctx: AppContext, companyId: number, id: number): Promise<FlowCampaign> {
  const [row] = await select(ctx).where(
    and(eq(flowCampaigns.companyId, companyId), eq(flowCampaigns.id, id)),
  );
  if (!row) throw new AppError('ERR_NOT_FOUND');
  return toCampaign(row as Row);
}

/**
 * GET /flowcampaign (document 3 section 7 "Flow campaigns"): the company's flow campaigns by name
 * in `flow`, filtered by `searchParam` (name or phrase) and `flowId`, 20 a page.
 */
export async function listFlowCampaigns(
  ctx: AppContext,
  companyId: number,
  query: SearchPageQuery & { flowId?: number },
): Promise<FlowCampaignsPage> {
  const { page, hasMore } = await readPage(query.pageNumber, FLOW_CAMPAIGNS_PAGE_SIZE, ({ limit, offset }) =>
    select(ctx)
      .where(
        and(
          eq(flowCampaigns.companyId, companyId),
          query.flowId ? eq(flowCampaigns.flowId, query.flowId) : undefined,
          containsTerm(query.searchParam, flowCampaigns.name, flowCampaigns.phrase),
        ),
      )
      .orderBy(asc(flowCampaigns.name), asc(flowCampaigns.id))
      .limit(limit)
      .offset(offset),
  );
  return { flow: page.map((row) => toCampaign(row as Row)), hasMore };
}

/** @throws ERR_NOT_FOUND (field flowId), ERR_NO_WAPP_FOUND (field whatsappId): not the company's. */
async function assertReferences(
  ctx: AppContext,
  companyId: number,
  refs: { flowId?: number; whatsappId?: number },
): Promise<void> {
  if (refs.flowId !== undefined) {
    const [flow] = await ctx.db
      .select({ id: flows.id })
      .from(flows)
      .where(and(eq(flows.companyId, companyId), eq(flows.id, refs.flowId)));
    if (!flow) throw new AppError('ERR_NOT_FOUND', { extra: { field: 'flowId' } });
  }
  if (refs.whatsappId !== undefined) {
    const [whatsapp] = await ctx.db
      .select({ id: whatsapps.id })
      .from(whatsapps)
      .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, refs.whatsappId)));
    if (!whatsapp) throw new AppError('ERR_NO_WAPP_FOUND', { extra: { field: 'whatsappId' } });
  }
}

/** POST /flowcampaign: a flow campaign (active unless `status` is false). @throws as assertReferences. */
export async function createFlowCampaign(
  ctx: AppContext,
  companyId: number,
  body: FlowCampaignBody,
): Promise<FlowCampaign> {
  const values = ZFlowCampaignBody.parse(body);
  await assertReferences(ctx, companyId, values);
  const [row] = await ctx.db
    .insert(flowCampaigns)
    .values({ ...values, companyId })
    .returning({ id: flowCampaigns.id });
  return getFlowCampaign(ctx, companyId, row!.id);
}

/**
 * PUT /flowcampaign (body `id` and any fields; also PUT /flowcampaign/:id): changes the fields the
 * body names. @throws ERR_NOT_FOUND, ERR_NO_WAPP_FOUND.
 */
export async function updateFlowCampaign(
  ctx: AppContext,
  companyId: number,
  id: number,
  input: unknown,
): Promise<FlowCampaign> {
  await getFlowCampaign(ctx, companyId, id);
  const patch = parsePatch(ZFlowCampaignBody, input);
  await assertReferences(ctx, companyId, patch);
  await ctx.db
    .update(flowCampaigns)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(flowCampaigns.companyId, companyId), eq(flowCampaigns.id, id)));
  return getFlowCampaign(ctx, companyId, id);
}

/** DELETE /flowcampaign/:id. @throws ERR_NOT_FOUND. */
export async function deleteFlowCampaign(ctx: AppContext, companyId: number, id: number): Promise<void> {
  const [row] = await ctx.db
    .delete(flowCampaigns)
    .where(and(eq(flowCampaigns.companyId, companyId), eq(flowCampaigns.id, id)))
    .returning({ id: flowCampaigns.id });
  if (!row) throw new AppError('ERR_NOT_FOUND');
}
