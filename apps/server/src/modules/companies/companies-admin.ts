import {
  type CompaniesPage,
  type CompanyBody,
  type CompanyRow,
  PAGE_SIZE,
  parsePatch,
  RECURRENCE_MONTHS,
  ZCompanyBody,
} from '@zapdesk/shared';
import { asc, count, eq, type SQL, sql } from 'drizzle-orm';
import type { MediaStore } from '../../channels/media-store.js';
import type { AppContext } from '../../context.js';
import { companies, plans, users, whatsapps } from '../../db/schema/index.js';
import { AppError } from '../../lib/app-error.js';
import { isUniqueViolation, pgErrorCode } from '../../lib/db-errors.js';
import type { AuthContext } from '../../lib/guards.js';
import { containsTerm, type SearchPageQuery } from '../../lib/search-page.js';
import { hashPassword } from '../users/users-service.js';
import type { SessionControl } from '../whatsapp/whatsapp-service.js';
import { insertCompany, toCompany } from './companies-service.js';

const userCount = sql<number>`(select count(*)::int from ${users} where ${users.companyId} = ${companies.id})`;

function toRow(row: {
  company: typeof companies.$inferSelect;
  plan: typeof plans.$inferSelect | null;
  userCount: number;
}): CompanyRow {
  return { ...toCompany(row.company, row.plan), userCount: Number(row.userCount) };
}

function selectRows(ctx: AppContext, where?: SQL) {
  return ctx.db
    .select({ company: companies, plan: plans, userCount })
    .from(companies)
    .leftJoin(plans, eq(plans.id, companies.planId))
    .where(where);
}

async function findRow(ctx: AppContext, id: number): Promise<CompanyRow> {
  const [row] = await selectRows(ctx, eq(companies.id, id));
  if (!row) throw new AppError('ERR_NO_COMPANY_FOUND');
  return toRow(row);
}

/** A foreign-key error on planId: the plan does not exist. */
function rethrow(error: unknown): never {
  if (pgErrorCode(error) === '23503') throw new AppError('ERR_NO_PLAN_FOUND');
  if (isUniqueViolation(error)) throw new AppError('ERR_EMAIL_ALREADY_EXISTS');
  throw error;
}

/**
 * GET /companies (super user, document 3 section 7): a page of companies by name, `searchParam`
 * on name and e-mail, PAGE_SIZE a page, with plan and number of users.
 */
export async function listCompanies(ctx: AppContext, query: SearchPageQuery): Promise<CompaniesPage> {
  const where = containsTerm(query.searchParam, companies.name, companies.email);
  const offset = (query.pageNumber - 1) * PAGE_SIZE;
  const [rows, [total]] = await Promise.all([
    selectRows(ctx, where).orderBy(asc(companies.name), asc(companies.id)).limit(PAGE_SIZE).offset(offset),
    ctx.db.select({ value: count() }).from(companies).where(where),
  ]);
  const totalCount = total?.value ?? 0;
  return { companies: rows.map(toRow), count: totalCount, hasMore: offset + rows.length < totalCount };
}

/** GET /companies/list (super user): every company by name (the settings tab's table). */
export async function allCompanies(ctx: AppContext): Promise<CompanyRow[]> {
  return (await selectRows(ctx).orderBy(asc(companies.name), asc(companies.id))).map(toRow);
}

/** GET /companies/:id as the super user's row. @throws ERR_NO_COMPANY_FOUND. */
export const getCompanyRow = findRow;

/**
 * POST /companies (super user): a company on an existing plan with the default settings; with an
 * e-mail and `password`, its first admin (named after the company) signs in with them.
 * @throws ERR_NO_PLAN_FOUND, ERR_EMAIL_ALREADY_EXISTS, ERR_VALIDATION.
 */
export async function createCompanyAdmin(ctx: AppContext, input: CompanyBody): Promise<CompanyRow> {
  const { password, ...body } = ZCompanyBody.parse(input);
  const passwordHash = password && body.email ? await hashPassword(password) : undefined;
  const id = await ctx.db
    .transaction(async (tx) => {
      const companyId = await insertCompany(tx, {
        ...body,
        dueDate: body.dueDate ? new Date(body.dueDate) : null,
      });
      if (passwordHash && body.email) {
        await tx.insert(users).values({
          companyId,
          name: body.name,
          email: body.email.toLowerCase(),
          passwordHash,
          profile: 'admin',
        });
      }
      return companyId;
    })
    .catch(rethrow);
  return findRow(ctx, id);
}

/**
 * PUT /companies/:id (super user): changes only the fields named (plan, status, due date,
 * recurrence, name, contacts). A due date in the past locks the company's users out at their next
 * request (the guard's rule); a new plan's limits and flags apply at once.
 * The one place a company's plan, status and due date are edited (auth caches invalidate here).
 * @throws ERR_NO_COMPANY_FOUND, ERR_NO_PLAN_FOUND, ERR_VALIDATION.
 */
export async function updateCompanyAdmin(
  ctx: AppContext,
  id: number,
  input: Partial<CompanyBody>,
): Promise<CompanyRow> {
  const { password: _ignored, dueDate, ...body } = parsePatch(ZCompanyBody, input);
  const [row] = await ctx.db
    .update(companies)
    .set({
      ...body,
      ...(dueDate !== undefined ? { dueDate: dueDate ? new Date(dueDate) : null } : {}),
      updatedAt: sql`now()`,
    })
    .where(eq(companies.id, id))
    .returning({ id: companies.id })
    .catch(rethrow);
  if (!row) throw new AppError('ERR_NO_COMPANY_FOUND');
  return findRow(ctx, id);
}

/**
 * POST /companies/:id/extend (super user): the settings row's Expire action (document 3 sections 4
 * and 9). Moves dueDate forward by the recurrence (MENSAL 1, BIMESTRAL 2, TRIMESTRAL 3, SEMESTRAL
 * 6, ANUAL 12 months; none counts as MENSAL) from the current due date, or from now when there is
 * none. Done in one UPDATE, so two clicks add two periods and never lose one.
 * The one place a due date is extended (auth caches invalidate here). @throws ERR_NO_COMPANY_FOUND.
 */
export async function extendCompanyDueDate(ctx: AppContext, id: number): Promise<CompanyRow> {
  const months = sql`case ${companies.recurrence} ${sql.join(
    Object.entries(RECURRENCE_MONTHS).map(([name, n]) => sql`when ${name} then ${n}::int`),
    sql` `,
  )} else 1 end`;
  const [row] = await ctx.db
    .update(companies)
    .set({
      dueDate: sql`coalesce(${companies.dueDate}, now()) + make_interval(months => ${months})`,
      updatedAt: sql`now()`,
    })
    .where(eq(companies.id, id))
    .returning({ id: companies.id });
  if (!row) throw new AppError('ERR_NO_COMPANY_FOUND');
  return findRow(ctx, id);
}

/**
 * DELETE /companies/:id (super user): stops the company's WhatsApp sessions, deletes the company
 * with everything it owns (cascade), disconnects its users' sockets and deletes its media files. The super user's own
 * company cannot be deleted. The one place companies are deleted (auth caches invalidate here).
 * @throws ERR_NO_COMPANY_FOUND, ERR_NO_PERMISSION (own company).
 */
export async function deleteCompanyAdmin(
  ctx: AppContext,
  sessions: SessionControl,
  media: Pick<MediaStore, 'removeCompany'>,
  auth: AuthContext,
  id: number,
): Promise<void> {
  if (id === auth.companyId) throw new AppError('ERR_NO_PERMISSION');
  const [company] = await ctx.db.select({ id: companies.id }).from(companies).where(eq(companies.id, id));
  if (!company) throw new AppError('ERR_NO_COMPANY_FOUND');
  const connections = await ctx.db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(eq(whatsapps.companyId, id));
  for (const connection of connections) await sessions.stop(id, connection.id, { logout: true });
  const members = await ctx.db.select({ id: users.id }).from(users).where(eq(users.companyId, id));
  const removed = await ctx.db.delete(companies).where(eq(companies.id, id)).returning({ id: companies.id });
  if (!removed.length) throw new AppError('ERR_NO_COMPANY_FOUND');
  for (const member of members) ctx.realtime.endSessions({ companyId: id, userId: member.id }, 'deleted');
  await media
    .removeCompany(id)
    .catch((error) => ctx.log.warn({ err: error, companyId: id }, 'media left on disk'));
}
