import {
  type Company,
  classicFeatureMap,
  classicModules,
  DEFAULT_COMPANY_SCHEDULES,
  FREE_TRIAL_PLAN_NAME,
  type ListPlanResponse,
  type Recurrence,
  SIGNUP_TRIAL_DAYS,
  type SignupBody,
  ZSignupBody,
} from '@zapdesk/shared';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { insertCompany } from '../../db/company-rows.js';
import { companies, plans, users } from '../../db/schema/index.js';
import { AppError, orNotFound } from '../../lib/app-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import type { AuthContext } from '../../lib/guards.js';
import { toPlan } from '../auth/session-user.js';
import { hashPassword } from '../users/users-service.js';

export { insertCompany, type NewCompany } from '../../db/company-rows.js';

/**
 * POST /companies/cadastro (document 3 sections 5 and 9): a company on the free-trial plan with one
 * admin. The server sets dueDate (now + 7 days), status true, recurrence MENSAL, campaigns enabled
 * and the plan; those fields in the request are ignored.
 * @throws ERR_USER_CREATION_DISABLED, ERR_NO_PLAN_FOUND (no 'Teste Gratis' plan),
 *   ERR_EMAIL_ALREADY_EXISTS.
 */
export async function signup(ctx: AppContext, input: SignupBody) {
  if (!ctx.config.SIGNUP_ENABLED) throw new AppError('ERR_USER_CREATION_DISABLED');
  const body = ZSignupBody.parse(input);
  const [trial] = await ctx.db
    .select({ id: plans.id })
    .from(plans)
    .where(eq(plans.name, FREE_TRIAL_PLAN_NAME));
  if (!trial) throw new AppError('ERR_NO_PLAN_FOUND');
  const passwordHash = await hashPassword(body.password);
  const dueDate = new Date(Date.now() + SIGNUP_TRIAL_DAYS * 86_400_000);
  return ctx.db
    .transaction(async (tx) => {
      const companyId = await insertCompany(tx, {
        name: body.name,
        email: body.email.toLowerCase(),
        phone: body.phone || null,
        planId: trial.id,
        dueDate,
        recurrence: 'MENSAL',
        status: true,
        campaignsEnabled: true,
      });
      const [user] = await tx
        .insert(users)
        .values({
          companyId,
          name: body.name,
          email: body.email.toLowerCase(),
          passwordHash,
          profile: 'admin',
        })
        .returning({ id: users.id });
      return { companyId, userId: user!.id, dueDate: dueDate.toISOString() };
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error)) throw new AppError('ERR_EMAIL_ALREADY_EXISTS');
      throw error;
    });
}

/** A company the caller may see: its own, or any for a super user. @throws ERR_NO_COMPANY_FOUND. */
async function visibleCompany(ctx: AppContext, auth: AuthContext, companyId: number) {
  if (companyId !== auth.companyId && !auth.super) throw new AppError('ERR_NO_COMPANY_FOUND');
  const [row] = await ctx.db
    .select({ company: companies, plan: plans })
    .from(companies)
    .leftJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, companyId));
  return orNotFound(row, 'ERR_NO_COMPANY_FOUND');
}

/** GET /companies/:id. */
export async function getCompany(ctx: AppContext, auth: AuthContext, companyId: number): Promise<Company> {
  const { company, plan } = await visibleCompany(ctx, auth, companyId);
  return toCompany(company, plan);
}

/** A company row (and its plan's row, null when it has none) as the API answers it. */
export function toCompany(
  company: typeof companies.$inferSelect,
  plan: typeof plans.$inferSelect | null,
): Company {
  return {
    id: company.id,
    name: company.name,
    email: company.email,
    phone: company.phone,
    planId: company.planId,
    plan: plan ? toPlan(plan) : null,
    status: company.status,
    campaignsEnabled: company.campaignsEnabled,
    dueDate: company.dueDate?.toISOString() ?? null,
    recurrence: (company.recurrence as Recurrence | null) ?? null,
    createdAt: company.createdAt.toISOString(),
    schedules: company.schedules ?? DEFAULT_COMPANY_SCHEDULES,
  };
}

/**
 * GET /companies/listPlan/:companyId: the plan with its flags and the due date, plus the classic
 * client's feature map and module toggles derived from the flags (docs/compatibility.md).
 * @throws ERR_NO_COMPANY_FOUND for another company (unless super), ERR_NO_PLAN_FOUND.
 */
export async function getCompanyPlan(
  ctx: AppContext,
  auth: AuthContext,
  companyId: number,
): Promise<ListPlanResponse> {
  const { company, plan } = await visibleCompany(ctx, auth, companyId);
  if (!plan) throw new AppError('ERR_NO_PLAN_FOUND');
  return {
    id: company.id,
    dueDate: company.dueDate?.toISOString() ?? null,
    plan: toPlan(plan),
    effectiveFeatures: classicFeatureMap(plan),
    effectiveModules: classicModules(plan),
  };
}
