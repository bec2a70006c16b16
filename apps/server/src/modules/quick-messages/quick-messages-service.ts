import {
  type ChannelPayloads,
  parsePatch,
  type QuickMessage,
  type QuickMessageBody,
  type QuickMessagesPage,
  ZQuickMessageBody,
} from '@zapdesk/shared';
import { and, asc, eq, or, type SQL, sql } from 'drizzle-orm';
import type { MediaStore } from '../../channels/media-store.js';
import { inspectUpload, type UploadedFile } from '../../channels/outbound-upload.js';
import type { AppContext } from '../../context.js';
import { quickMessages } from '../../db/schema/index.js';
import { AppError, orNotFound } from '../../lib/app-error.js';
import { pickColumns } from '../../lib/columns.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { type AuthContext, isAdmin } from '../../lib/guards.js';
import { containsTerm, readPage, type SearchPageQuery } from '../../lib/search-page.js';
import { swapStoredMedia } from '../../lib/stored-media.js';

/** Quick messages per page of GET /quick-messages. */
export const QUICK_MESSAGES_PAGE_SIZE = 20;

const columns = {
  ...pickColumns(quickMessages, ['id', 'shortcode', 'message', 'mediaPath', 'mediaName']),
  isMedia: sql<boolean>`(${quickMessages.mediaPath} is not null)`,
  ...pickColumns(quickMessages, ['geral', 'userId']),
};

/** What the caller sees: admins every quick message of the company; others the company-wide and their own. */
function visible(auth: AuthContext): SQL | undefined {
  return and(
    eq(quickMessages.companyId, auth.companyId),
    isAdmin(auth) ? undefined : or(eq(quickMessages.geral, true), eq(quickMessages.userId, auth.userId)),
  );
}

/**
 * Emits `company-{id}-quickmessage` (document 2 section 7 Realtime) to those who may see the quick
 * message: the whole company when it is company-wide (`geral`), else its owner and the admins. When
 * an update made a company-wide message private, the others get `delete`.
 */
function emit(
  ctx: AppContext,
  companyId: number,
  record: QuickMessage,
  action: 'create' | 'update' | 'delete',
  before?: QuickMessage,
): void {
  const payload: ChannelPayloads['quickmessage'] =
    action === 'delete' ? { action, id: record.id } : { action, record };
  const owners = record.userId === null ? [] : [record.userId];
  if (record.geral) ctx.realtime.toCompany(companyId, 'quickmessage', payload);
  else ctx.realtime.toUsersAndAdmins(companyId, owners, 'quickmessage', payload);
  if (before?.geral && !record.geral) {
    ctx.realtime.toCompanyExceptUsersAndAdmins(companyId, owners, 'quickmessage', {
      action: 'delete',
      id: record.id,
    });
  }
}

/**
 * GET /quick-messages/list: the company-wide quick messages and the caller's own, by shortcode,
 * unpaged (the composer's picker).
 */
export async function listComposerQuickMessages(ctx: AppContext, auth: AuthContext): Promise<QuickMessage[]> {
  return ctx.db
    .select(columns)
    .from(quickMessages)
    .where(
      and(
        eq(quickMessages.companyId, auth.companyId),
        or(eq(quickMessages.geral, true), eq(quickMessages.userId, auth.userId)),
      ),
    )
    .orderBy(asc(quickMessages.shortcode));
}

/**
 * GET /quick-messages (document 2 section 7): the visible quick messages by shortcode, filtered by
 * `searchParam` on shortcode and message, 20 a page (`records`, `hasMore`).
 */
export async function listQuickMessages(
  ctx: AppContext,
  auth: AuthContext,
  query: SearchPageQuery,
): Promise<QuickMessagesPage> {
  const { page, hasMore } = await readPage(query.pageNumber, QUICK_MESSAGES_PAGE_SIZE, ({ limit, offset }) =>
    ctx.db
      .select(columns)
      .from(quickMessages)
      .where(
        and(visible(auth), containsTerm(query.searchParam, quickMessages.shortcode, quickMessages.message)),
      )
      .orderBy(asc(quickMessages.shortcode), asc(quickMessages.id))
      .limit(limit)
      .offset(offset),
  );
  return { records: page, hasMore };
}

/** GET /quick-messages/:id: a visible quick message. @throws ERR_NOT_FOUND. */
export async function getQuickMessage(ctx: AppContext, auth: AuthContext, id: number): Promise<QuickMessage> {
  const [row] = await ctx.db
    .select(columns)
    .from(quickMessages)
    .where(and(visible(auth), eq(quickMessages.id, id)));
  return orNotFound(row);
}

/** A quick message the caller may change: its own, or any for admins. @throws ERR_NOT_FOUND, ERR_NO_PERMISSION. */
export async function getEditable(ctx: AppContext, auth: AuthContext, id: number): Promise<QuickMessage> {
  const row = await getQuickMessage(ctx, auth, id);
  if (!isAdmin(auth) && row.userId !== auth.userId) throw new AppError('ERR_NO_PERMISSION');
  return row;
}

function rethrowShortcode(error: unknown): never {
  if (isUniqueViolation(error))
    throw new AppError('ERR_NAME_ALREADY_EXISTS', { extra: { field: 'shortcode' } });
  throw error;
}

/**
 * POST /quick-messages: creates the caller's quick message (company-wide when `geral`).
 * @throws ERR_NAME_ALREADY_EXISTS (field shortcode: the caller already has it), ERR_VALIDATION.
 */
export async function createQuickMessage(
  ctx: AppContext,
  auth: AuthContext,
  input: QuickMessageBody,
): Promise<QuickMessage> {
  const body = ZQuickMessageBody.parse(input);
  const [row] = await ctx.db
    .insert(quickMessages)
    .values({ ...body, companyId: auth.companyId, userId: auth.userId })
    .returning(columns)
    .catch(rethrowShortcode);
  emit(ctx, auth.companyId, row!, 'create');
  return row!;
}

/**
 * PUT /quick-messages/:id: edits shortcode, message and `geral` of the caller's own quick message
 * (any of the company's for admins). @throws ERR_NOT_FOUND, ERR_NO_PERMISSION, ERR_NAME_ALREADY_EXISTS.
 */
export async function updateQuickMessage(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  input: Partial<QuickMessageBody>,
): Promise<QuickMessage> {
  const body = parsePatch(ZQuickMessageBody, input);
  const before = await getEditable(ctx, auth, id);
  const [row] = await ctx.db
    .update(quickMessages)
    .set({ ...body, updatedAt: sql`now()` })
    .where(and(eq(quickMessages.companyId, auth.companyId), eq(quickMessages.id, id)))
    .returning(columns)
    .catch(rethrowShortcode);
  emit(ctx, auth.companyId, row!, 'update', before);
  return row!;
}

/** DELETE /quick-messages/:id (own, or any for admins). @throws ERR_NOT_FOUND, ERR_NO_PERMISSION. */
export async function deleteQuickMessage(
  ctx: AppContext,
  media: MediaStore,
  auth: AuthContext,
  id: number,
): Promise<void> {
  const row = await getEditable(ctx, auth, id);
  await ctx.db
    .delete(quickMessages)
    .where(and(eq(quickMessages.companyId, auth.companyId), eq(quickMessages.id, id)));
  await media.remove(auth.companyId, row.mediaPath);
  emit(ctx, auth.companyId, row, 'delete');
}

/**
 * POST /quick-messages/:id/media-upload: stores the file (checked by content with inspectUpload)
 * as the quick message's media, replacing any previous one; `mediaPath` is the stored name served
 * at /api/public/:name. @throws ERR_NOT_FOUND, ERR_NO_PERMISSION, ERR_UNSUPPORTED_MEDIA_TYPE,
 * ERR_PAYLOAD_TOO_LARGE.
 */
export async function uploadQuickMessageMedia(
  ctx: AppContext,
  media: MediaStore,
  auth: AuthContext,
  id: number,
  file: UploadedFile,
): Promise<QuickMessage> {
  const current = await getEditable(ctx, auth, id);
  const inspected = await inspectUpload(file);
  const next = { data: file.data, extension: inspected.ext, name: file.fileName };
  return swapMedia(ctx, media, auth, current, next);
}

/** DELETE /quick-messages/:id/media-upload: removes the media. @throws ERR_NOT_FOUND, ERR_NO_PERMISSION. */
export async function deleteQuickMessageMedia(
  ctx: AppContext,
  media: MediaStore,
  auth: AuthContext,
  id: number,
): Promise<QuickMessage> {
  return swapMedia(ctx, media, auth, await getEditable(ctx, auth, id), null);
}

/** Puts `next` (null: none) in place of the quick message's media and tells who may see it. */
async function swapMedia(
  ctx: AppContext,
  media: MediaStore,
  auth: AuthContext,
  current: QuickMessage,
  next: Parameters<typeof swapStoredMedia>[3],
): Promise<QuickMessage> {
  const row = await swapStoredMedia(media, auth.companyId, current.mediaPath, next, async (fields) => {
    const [updated] = await ctx.db
      .update(quickMessages)
      .set({ ...fields, updatedAt: sql`now()` })
      .where(and(eq(quickMessages.companyId, auth.companyId), eq(quickMessages.id, current.id)))
      .returning(columns);
    return updated!;
  });
  emit(ctx, auth.companyId, row, 'update');
  return row;
}
