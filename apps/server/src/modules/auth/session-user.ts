import { classicFeatureMap, type Plan, type SessionUser } from '@zapdesk/shared';
import { asc, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { companies, plans, settings } from '../../db/schema/index.js';
import { AppError } from '../../lib/app-error.js';
import { findPublicUser } from '../users/user-repository.js';

/** Drops the timestamps of a plan row to the API shape. */
export function toPlan(row: typeof plans.$inferSelect): Plan {
  const { createdAt: _c, updatedAt: _u, ...plan } = row;
  return plan;
}

/**
 * The user as login, refresh and /auth/me answer it: the public user plus its company with due
 * date, status, plan flags and settings, and the classic client's feature map for this user
 * (docs/compatibility.md). @throws ERR_SESSION_EXPIRED (401) when the user is gone.
 */
export async function loadSessionUser(db: Tx, companyId: number, userId: number): Promise<SessionUser> {
  const user = await findPublicUser(db, companyId, userId);
  if (!user) throw new AppError('ERR_SESSION_EXPIRED', { status: 401 });
  const [[company], companySettings] = await Promise.all([
    db
      .select({ company: companies, plan: plans })
      .from(companies)
      .leftJoin(plans, eq(plans.id, companies.planId))
      .where(eq(companies.id, companyId)),
    db
      .select({ key: settings.key, value: settings.value })
      .from(settings)
      .where(eq(settings.companyId, companyId))
      .orderBy(asc(settings.key)),
  ]);
  if (!company) throw new AppError('ERR_SESSION_EXPIRED', { status: 401 });
  return {
    ...user,
    company: {
      id: company.company.id,
      name: company.company.name,
      dueDate: company.company.dueDate?.toISOString() ?? null,
      status: company.company.status,
      settings: companySettings,
      plan: company.plan ? toPlan(company.plan) : null,
    },
    effectiveUserFeatures: classicFeatureMap(company.plan, user.profile),
  };
}
