import { type Plan, type PlanBody, parsePatch, ZPlanBody } from '@zapdesk/shared';
import { asc, count, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { companies, plans } from '../../db/schema/index.js';
import { AppError } from '../../lib/app-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { toPlan } from '../auth/session-user.js';

function rethrowNameConflict(error: unknown): never {
  if (isUniqueViolation(error)) throw new AppError('ERR_NAME_ALREADY_EXISTS', { extra: { field: 'name' } });
  throw error;
}

/**
 * GET /plans/list (public) and GET /plans/all (document 3 section 7): every plan, cheapest first.
 * Plans are platform-wide; the billing pages read them here.
 */
export async function listPlans(ctx: AppContext): Promise<Plan[]> {
  return (await ctx.db.select().from(plans).orderBy(asc(plans.value), asc(plans.id))).map(toPlan);
}

/** GET /plans/:id. @throws ERR_NO_PLAN_FOUND. */
export async function getPlan(ctx: AppContext, id: number): Promise<Plan> {
  const [row] = await ctx.db.select().from(plans).where(eq(plans.id, id));
  if (!row) throw new AppError('ERR_NO_PLAN_FOUND');
  return toPlan(row);
}

/** POST /plans (super user). @throws ERR_VALIDATION, ERR_NAME_ALREADY_EXISTS. */
export async function createPlan(ctx: AppContext, input: PlanBody): Promise<Plan> {
  const [row] = await ctx.db
    .insert(plans)
    .values(ZPlanBody.parse(input))
    .returning()
    .catch(rethrowNameConflict);
  return toPlan(row!);
}

/**
 * PUT /plans/:id (super user): changes only the fields named. New limits and flags apply to every
 * company of the plan at once (the guard reads the plan on each request); limits are checked when
 * users, connections and queues are created, so lowering one removes nothing.
 * The one place plan limits and flags change (auth caches invalidate here).
 * @throws ERR_NO_PLAN_FOUND, ERR_VALIDATION, ERR_NAME_ALREADY_EXISTS.
 */
export async function updatePlan(ctx: AppContext, id: number, input: Partial<PlanBody>): Promise<Plan> {
  const body = parsePatch(ZPlanBody, input);
  const [row] = await ctx.db
    .update(plans)
    .set({ ...body, updatedAt: sql`now()` })
    .where(eq(plans.id, id))
    .returning()
    .catch(rethrowNameConflict);
  if (!row) throw new AppError('ERR_NO_PLAN_FOUND');
  return toPlan(row);
}

/**
 * DELETE /plans/:id (super user): only a plan no company uses. The plan row
 * is locked first, so a company joining it meanwhile either is counted or fails its foreign key.
 * @throws ERR_NO_PLAN_FOUND, ERR_PLAN_IN_USE (409, with `companies`: how many use it).
 */
export async function deletePlan(ctx: AppContext, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [plan] = await tx.select({ id: plans.id }).from(plans).where(eq(plans.id, id)).for('update');
    if (!plan) throw new AppError('ERR_NO_PLAN_FOUND');
    const [using] = await tx.select({ value: count() }).from(companies).where(eq(companies.planId, id));
    if ((using?.value ?? 0) > 0)
      throw new AppError('ERR_PLAN_IN_USE', { extra: { companies: using!.value } });
    await tx.delete(plans).where(eq(plans.id, id));
  });
}
