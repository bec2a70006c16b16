import { type Help, type HelpBody, type HelpsPage, parsePatch, ZHelpBody } from '@zapdesk/shared';
import { asc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { helps } from '../../db/schema/index.js';
import { AppError, orNotFound } from '../../lib/app-error.js';
import { containsTerm, readPage, type SearchPageQuery } from '../../lib/search-page.js';

/** Helps per page of GET /helps. */
export const HELPS_PAGE_SIZE = 40;

const columns = { id: helps.id, title: helps.title, description: helps.description, video: helps.video };

/**
 * GET /helps (document 2 section 7, document 3 Helps): help cards by title, `searchParam` on title
 * and description, 40 a page (`records`, `hasMore`). Helps are platform-wide.
 */
export async function listHelps(ctx: AppContext, query: SearchPageQuery): Promise<HelpsPage> {
  const { page, hasMore } = await readPage(query.pageNumber, HELPS_PAGE_SIZE, ({ limit, offset }) =>
    ctx.db
      .select(columns)
      .from(helps)
      .where(containsTerm(query.searchParam, helps.title, helps.description))
      .orderBy(asc(helps.title), asc(helps.id))
      .limit(limit)
      .offset(offset),
  );
  return { records: page, hasMore };
}

/** GET /helps/list: every help card by title (the /helps grid). */
export function allHelps(ctx: AppContext): Promise<Help[]> {
  return ctx.db.select(columns).from(helps).orderBy(asc(helps.title), asc(helps.id));
}

/** POST /helps (super user). @throws ERR_VALIDATION. */
export async function createHelp(ctx: AppContext, input: HelpBody): Promise<Help> {
  const [row] = await ctx.db.insert(helps).values(ZHelpBody.parse(input)).returning(columns);
  return row!;
}

/** PUT /helps/:id (super user): changes only the fields named. @throws ERR_NOT_FOUND, ERR_VALIDATION. */
export async function updateHelp(ctx: AppContext, id: number, input: Partial<HelpBody>): Promise<Help> {
  const body = parsePatch(ZHelpBody, input);
  const [row] = await ctx.db
    .update(helps)
    .set({ ...body, updatedAt: sql`now()` })
    .where(eq(helps.id, id))
    .returning(columns);
  return orNotFound(row);
}

/** DELETE /helps/:id (super user). @throws ERR_NOT_FOUND. */
export async function deleteHelp(ctx: AppContext, id: number): Promise<void> {
  const rows = await ctx.db.delete(helps).where(eq(helps.id, id)).returning({ id: helps.id });
  if (!rows.length) throw new AppError('ERR_NOT_FOUND');
}
