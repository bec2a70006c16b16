import type { PlanFlag } from '@zapdesk/shared';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { companies, plans } from '../db/schema/index.js';

/** Why a company's background work may not run now (a catalogue code, recorded on the skipped item). */
export type EntitlementRefusal =
  | 'ERR_NO_COMPANY_FOUND'
  | 'ERR_SUBSCRIPTION_EXPIRED'
  | 'ERR_PLAN_FEATURE_DISABLED';

/**
 * Whether the company may still do work that needs plan flag `flag` (or none) at run time: the
 * routes' rule (lib/guards.ts, modules/auth/guard.ts) applied by jobs queued earlier, read fresh
 * from the database so a plan change or an expiry after queueing is seen. Answers null when
 * allowed, else the refusal: ERR_NO_COMPANY_FOUND (company gone), ERR_SUBSCRIPTION_EXPIRED
 * (company inactive, or its dueDate has passed), ERR_PLAN_FEATURE_DISABLED (its plan — or no plan —
 * lacks the flag). Never throws for a refusal.
 */
export async function companyRefusal(
  ctx: { db: Database },
  companyId: number,
  flag?: PlanFlag,
): Promise<EntitlementRefusal | null> {
  const [row] = await ctx.db
    .select({ status: companies.status, dueDate: companies.dueDate, plan: plans })
    .from(companies)
    .leftJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, companyId))
    .limit(1);
  return refusalOf(row, flag);
}

/** What companyRefusal needs of a company row and its plan (null: no plan); only `flag` of the plan is read. */
export interface EntitlementRow {
  status: boolean;
  dueDate: Date | null;
  plan: Partial<Record<PlanFlag, boolean>> | null;
}

/**
 * companyRefusal's rule on a company row read by another statement (undefined: the company is gone),
 * for work that reads the company along with what it locks.
 */
export function refusalOf(row: EntitlementRow | undefined, flag?: PlanFlag): EntitlementRefusal | null {
  if (!row) return 'ERR_NO_COMPANY_FOUND';
  if (!row.status) return 'ERR_SUBSCRIPTION_EXPIRED';
  if (row.dueDate !== null && row.dueDate.getTime() <= Date.now()) return 'ERR_SUBSCRIPTION_EXPIRED';
  if (flag && !row.plan?.[flag]) return 'ERR_PLAN_FEATURE_DISABLED';
  return null;
}
