import {
  ANNOUNCEMENT_MEDIA_MAX_BYTES,
  type Announcement,
  type AnnouncementBody,
  type AnnouncementsPage,
  type ChannelPayloads,
  parsePatch,
  ZAnnouncementBody,
} from '@zapdesk/shared';
import { and, asc, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import type { MediaStore } from '../../channels/media-store.js';
import type { UploadedFile } from '../../channels/outbound-upload.js';
import type { AppContext } from '../../context.js';
import { announcements, companies } from '../../db/schema/index.js';
import { AppError, orNotFound } from '../../lib/app-error.js';
import type { AuthContext } from '../../lib/guards.js';
import { containsTerm, readPage, type SearchPageQuery } from '../../lib/search-page.js';
import { swapStoredMedia } from '../../lib/stored-media.js';

/** Announcements per page of GET /announcements. */
export const ANNOUNCEMENTS_PAGE_SIZE = 20;

const columns = getTableColumns(announcements);
type Row = { companyId: number; createdAt: Date; updatedAt: Date } & Omit<
  Announcement,
  'createdAt' | 'updatedAt'
>;

const toAnnouncement = ({ companyId: _company, ...row }: Row): Announcement => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** Non-super users see active announcements only; the super user sees every one. */
const visible = (auth: AuthContext) => (auth.super ? undefined : eq(announcements.status, true));

/**
 * Emits `company-{id}-announcement` to every company's sockets (announcements are platform-wide):
 * an active announcement as `create`/`update` with the record, an inactive or deleted one as
 * `delete` with its id, so that no user keeps or sees an announcement they may no longer read.
 */
async function emit(ctx: AppContext, action: 'create' | 'update' | 'delete', row: Announcement) {
  const payload: ChannelPayloads['announcement'] =
    action !== 'delete' && row.status ? { action, record: row } : { action: 'delete', id: row.id };
  const all = await ctx.db.select({ id: companies.id }).from(companies);
  for (const company of all) ctx.realtime.toCompany(company.id, 'announcement', payload);
}

/**
 * GET /announcements (document 2 section 7, core top bar): highest priority first (1 high), then
 * newest, 20 a page (`records`, `hasMore`), filtered by `searchParam` on title and text. The super
 * user gets every announcement; others only the active ones.
 */
export async function listAnnouncements(
  ctx: AppContext,
  auth: AuthContext,
  query: SearchPageQuery,
): Promise<AnnouncementsPage> {
  const { page, hasMore } = await readPage(query.pageNumber, ANNOUNCEMENTS_PAGE_SIZE, ({ limit, offset }) =>
    ctx.db
      .select(columns)
      .from(announcements)
      .where(and(visible(auth), containsTerm(query.searchParam, announcements.title, announcements.text)))
      .orderBy(asc(announcements.priority), desc(announcements.createdAt), desc(announcements.id))
      .limit(limit)
      .offset(offset),
  );
  return { records: page.map(toAnnouncement), hasMore };
}

async function findRow(ctx: AppContext, auth: AuthContext, id: number): Promise<Row> {
  const [row] = await ctx.db
    .select(columns)
    .from(announcements)
    .where(and(visible(auth), eq(announcements.id, id)));
  return orNotFound(row);
}

/** GET /announcements/:id: an announcement the caller may read. @throws ERR_NOT_FOUND. */
export async function getAnnouncement(ctx: AppContext, auth: AuthContext, id: number): Promise<Announcement> {
  return toAnnouncement(await findRow(ctx, auth, id));
}

/**
 * GET /announcements/:id/media: where the stored image of an announcement the caller may read is
 * (the author's company and the stored name). @throws ERR_NOT_FOUND when it has none.
 */
export async function locateAnnouncementMedia(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
): Promise<{ companyId: number; name: string }> {
  const row = await findRow(ctx, auth, id);
  if (!row.mediaPath) throw new AppError('ERR_NOT_FOUND');
  return { companyId: row.companyId, name: row.mediaPath };
}

/** POST /announcements (super user): creates it in the author's company. @throws ERR_VALIDATION. */
export async function createAnnouncement(
  ctx: AppContext,
  auth: AuthContext,
  input: AnnouncementBody,
): Promise<Announcement> {
  const body = ZAnnouncementBody.parse(input);
  const [row] = await ctx.db
    .insert(announcements)
    .values({ ...body, companyId: auth.companyId })
    .returning(columns);
  const record = toAnnouncement(row!);
  await emit(ctx, 'create', record);
  return record;
}

/** Writes `fields` (and a new updatedAt) onto announcement `id`; answers it as the API does. */
async function writeAnnouncement(
  ctx: AppContext,
  id: number,
  fields: Partial<typeof announcements.$inferInsert>,
): Promise<Announcement> {
  const [row] = await ctx.db
    .update(announcements)
    .set({ ...fields, updatedAt: sql`now()` })
    .where(eq(announcements.id, id))
    .returning(columns);
  return toAnnouncement(row!);
}

/** PUT /announcements/:id (super user): changes only the fields named. @throws ERR_NOT_FOUND, ERR_VALIDATION. */
export async function updateAnnouncement(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  input: Partial<AnnouncementBody>,
): Promise<Announcement> {
  const body = parsePatch(ZAnnouncementBody, input);
  await findRow(ctx, auth, id);
  const record = await writeAnnouncement(ctx, id, body);
  await emit(ctx, 'update', record);
  return record;
}

/** DELETE /announcements/:id (super user), with its image. @throws ERR_NOT_FOUND. */
export async function deleteAnnouncement(
  ctx: AppContext,
  media: MediaStore,
  auth: AuthContext,
  id: number,
): Promise<void> {
  const row = await findRow(ctx, auth, id);
  await ctx.db.delete(announcements).where(eq(announcements.id, id));
  await media.remove(row.companyId, row.mediaPath);
  await emit(ctx, 'delete', toAnnouncement(row));
}

/**
 * POST /announcements/:id/media-upload (super user): stores a png or jpeg image (checked by its
 * content, at most ANNOUNCEMENT_MEDIA_MAX_BYTES) as the announcement's image, replacing any
 * previous one. @throws ERR_NOT_FOUND, ERR_UNSUPPORTED_MEDIA_TYPE (field file), ERR_PAYLOAD_TOO_LARGE.
 */
export async function uploadAnnouncementMedia(
  ctx: AppContext,
  media: MediaStore,
  auth: AuthContext,
  id: number,
  file: UploadedFile,
): Promise<Announcement> {
  const current = await findRow(ctx, auth, id);
  if (file.data.length > ANNOUNCEMENT_MEDIA_MAX_BYTES) {
    throw new AppError('ERR_PAYLOAD_TOO_LARGE', {
      extra: { field: 'file', limit: ANNOUNCEMENT_MEDIA_MAX_BYTES },
    });
  }
  const detected = await fileTypeFromBuffer(file.data);
  if (detected?.mime !== 'image/png' && detected?.mime !== 'image/jpeg') {
    throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', {
      extra: { field: 'file', accepted: 'png, jpg, jpeg' },
    });
  }
  const next = { data: file.data, extension: detected.ext, name: file.fileName };
  const record = await swapStoredMedia(media, current.companyId, current.mediaPath, next, (fields) =>
    writeAnnouncement(ctx, id, fields),
  );
  await emit(ctx, 'update', record);
  return record;
}

/** DELETE /announcements/:id/media-upload (super user): removes the image. @throws ERR_NOT_FOUND. */
export async function deleteAnnouncementMedia(
  ctx: AppContext,
  media: MediaStore,
  auth: AuthContext,
  id: number,
): Promise<Announcement> {
  const current = await findRow(ctx, auth, id);
  const record = await swapStoredMedia(media, current.companyId, current.mediaPath, null, (fields) =>
    writeAnnouncement(ctx, id, fields),
  );
  await emit(ctx, 'update', record);
  return record;
}
