import {
  type CompanySchedule,
  DEFAULT_COMPANY_SCHEDULES,
  ZCoercedId,
  ZCompanySchedule,
  ZUpdateCompanySchedulesBody,
} from '@zapdesk/shared';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext, ZodApp } from '../../context.js';
import { companies } from '../../db/schema/index.js';
import { AppError } from '../../lib/app-error.js';
import { type AuthContext, adminRoute } from '../../lib/guards.js';

/**
 * PUT /companies/:id/schedules (document 3 sections 3 and 7): replaces the company's working hours
 * (weekday rows with 'HH:mm' times) and answers the stored list. An admin may change only its own
 * company; a super user any.
 * @throws ERR_NO_COMPANY_FOUND for another company's id (non-super) or an unknown company.
 */
export async function updateCompanySchedules(
  ctx: AppContext,
  auth: AuthContext,
  companyId: number,
  schedules: CompanySchedule[],
): Promise<CompanySchedule[]> {
  if (companyId !== auth.companyId && !auth.super) throw new AppError('ERR_NO_COMPANY_FOUND');
  const [row] = await ctx.db
    .update(companies)
    .set({ schedules, updatedAt: new Date() })
    .where(eq(companies.id, companyId))
    .returning({ schedules: companies.schedules });
  if (!row) throw new AppError('ERR_NO_COMPANY_FOUND');
  return row.schedules ?? DEFAULT_COMPANY_SCHEDULES;
}

/** Company working-hours route (the GET comes with GET /companies/:id as `schedules`). */
export function companyScheduleRoutes(app: ZodApp, ctx: AppContext): void {
  app.put(
    '/companies/:id/schedules',
    {
      config: adminRoute,
      schema: {
        tags: ['companies'],
        params: z.object({ id: ZCoercedId }),
        body: ZUpdateCompanySchedulesBody,
        response: { 200: z.object({ schedules: z.array(ZCompanySchedule) }) },
      },
    },
    async (request) => ({
      schedules: await updateCompanySchedules(ctx, request.auth, request.params.id, request.body.schedules),
    }),
  );
}
