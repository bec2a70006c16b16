import {
  FILE_LIST_MAX_OPTIONS,
  type FileListBody,
  type FileListOption,
  type FileListRecord,
  type FileListsPage,
  parsePatch,
  ZFileListBody,
} from '@zapdesk/shared';
import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { MediaStore } from '../../channels/media-store.js';
import { inspectUpload, type UploadedFile } from '../../channels/outbound-upload.js';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { fileListOptions, fileLists } from '../../db/schema/index.js';
import { AppError } from '../../lib/app-error.js';
import { pickColumns } from '../../lib/columns.js';
import type { AuthContext } from '../../lib/guards.js';
import { containsTerm, readPage, type SearchPageQuery } from '../../lib/search-page.js';

/** File lists per page of GET /files. */
export const FILE_LISTS_PAGE_SIZE = 20;

const listColumns = pickColumns(fileLists, ['id', 'name', 'message', 'userId']);
const optionColumns = pickColumns(fileListOptions, ['id', 'fileListId', 'name', 'path', 'mediaType']);

type ListRow = Omit<FileListRecord, 'options'>;

/** Attaches each list's options (by id) to the rows. */
async function withOptions(ctx: AppContext, companyId: number, rows: ListRow[]): Promise<FileListRecord[]> {
  if (rows.length === 0) return [];
  const options = await ctx.db
    .select(optionColumns)
    .from(fileListOptions)
    .where(
      and(
        eq(fileListOptions.companyId, companyId),
        inArray(
          fileListOptions.fileListId,
          rows.map((r) => r.id),
        ),
      ),
    )
    .orderBy(asc(fileListOptions.id));
  return rows.map((row) => ({
    ...row,
    options: options
      .filter((o) => o.fileListId === row.id)
      .map(({ fileListId: _, ...option }) => option as FileListOption),
  }));
}

/** Reads list `id` again, emits it (`file` channel, `action`) to the company and answers it. */
async function emitFresh(
  ctx: AppContext,
  companyId: number,
  id: number,
  action: 'create' | 'update',
): Promise<FileListRecord> {
  const fileList = await getFileList(ctx, companyId, id);
  ctx.realtime.toCompany(companyId, 'file', { action, fileList });
  return fileList;
}

/** Adds empty option slots (no file yet) named `names` to list `fileListId` inside `tx`. */
async function addEmptyOptions(
  tx: Tx,
  companyId: number,
  fileListId: number,
  names: string[],
): Promise<void> {
  if (names.length) {
    await tx.insert(fileListOptions).values(names.map((name) => ({ companyId, fileListId, name })));
  }
}

async function removeStored(media: MediaStore, companyId: number, names: (string | null)[]): Promise<void> {
  for (const name of names) await media.remove(companyId, name);
}

/**
 * GET /files (document 2 section 8): the company's file lists by name, filtered by `searchParam`
 * on the name, 20 a page, each with its options: `{ files, hasMore }`.
 */
export async function listFileLists(
  ctx: AppContext,
  auth: AuthContext,
  query: SearchPageQuery,
): Promise<FileListsPage> {
  const { page, hasMore } = await readPage(query.pageNumber, FILE_LISTS_PAGE_SIZE, ({ limit, offset }) =>
    ctx.db
      .select(listColumns)
      .from(fileLists)
      .where(and(eq(fileLists.companyId, auth.companyId), containsTerm(query.searchParam, fileLists.name)))
      .orderBy(asc(fileLists.name), asc(fileLists.id))
      .limit(limit)
      .offset(offset),
  );
  return { files: await withOptions(ctx, auth.companyId, page), hasMore };
}

/**
 * A company's file list with its options (GET /files/:id; also for other modules by company id).
 * @throws ERR_NOT_FOUND when the list is missing or another company's.
 */
export async function getFileList(ctx: AppContext, companyId: number, id: number): Promise<FileListRecord> {
  const [row] = await ctx.db
    .select(listColumns)
    .from(fileLists)
    .where(and(eq(fileLists.companyId, companyId), eq(fileLists.id, id)));
  if (!row) throw new AppError('ERR_NOT_FOUND');
  return (await withOptions(ctx, companyId, [row]))[0]!;
}

/** One uploaded file of a list, ready to send: see getFileListFiles. */
export interface FileListFile {
  /** The option's display name (falls back to the stored name when empty). */
  name: string;
  /** Stored media name (served to the company's users at /api/public/:storedName). */
  storedName: string;
  /** Size in bytes. */
  size: number;
  /** MIME type found in the content (e.g. 'image/png', 'application/pdf'). */
  mediaType: string;
}

/**
 * The files of a company's file list that are uploaded and present in the storage, in option order: what a
 * campaign attaches (`fileListId`). Options still without a file are skipped.
 * @throws ERR_NOT_FOUND when the list is missing or another company's.
 */
export async function getFileListFiles(
  ctx: AppContext,
  media: MediaStore,
  companyId: number,
  fileListId: number,
): Promise<FileListFile[]> {
  const list = await getFileList(ctx, companyId, fileListId);
  const files: FileListFile[] = [];
  for (const option of list.options) {
    if (!option.path || !option.mediaType) continue;
    const stat = await media.stat(companyId, option.path);
    if (!stat) continue;
    files.push({
      name: option.name || option.path,
      storedName: option.path,
      size: stat.size,
      mediaType: option.mediaType,
    });
  }
  return files;
}

/**
 * POST /files: creates a file list of the caller with empty option slots (files come with
 * POST /files/uploadList/:id). @throws ERR_VALIDATION.
 */
export async function createFileList(
  ctx: AppContext,
  auth: AuthContext,
  input: FileListBody,
): Promise<FileListRecord> {
  const body = ZFileListBody.parse(input);
  const id = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(fileLists)
      .values({ companyId: auth.companyId, userId: auth.userId, name: body.name, message: body.message })
      .returning({ id: fileLists.id });
    await addEmptyOptions(
      tx,
      auth.companyId,
      row!.id,
      body.options.map((o) => o.name),
    );
    return row!.id;
  });
  return emitFresh(ctx, auth.companyId, id, 'create');
}

/**
 * PUT /files/:id: changes name and message; `options`, when given, replace the set: named ids are
 * kept (renamed), entries without id are added as empty slots, the rest are removed with their
 * stored files. @throws ERR_NOT_FOUND, ERR_VALIDATION (an option id not of this list).
 */
export async function updateFileList(
  ctx: AppContext,
  media: MediaStore,
  auth: AuthContext,
  id: number,
  input: Partial<FileListBody>,
): Promise<FileListRecord> {
  const body = parsePatch(ZFileListBody, input);
  const before = await getFileList(ctx, auth.companyId, id);
  const removed: (string | null)[] = [];
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(fileLists)
      .set({
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.message !== undefined ? { message: body.message } : {}),
        updatedAt: sql`now()`,
      })
      .where(and(eq(fileLists.companyId, auth.companyId), eq(fileLists.id, id)));
    if (!body.options) return;
    const known = new Set(before.options.map((o) => o.id));
    const keep = body.options.filter((o) => o.id !== undefined);
    const bad = keep.find((o) => !known.has(o.id!));
    if (bad) throw new AppError('ERR_VALIDATION', { extra: { field: 'options', message: 'invalid' } });
    const keepIds = keep.map((o) => o.id!);
    removed.push(...before.options.filter((o) => !keepIds.includes(o.id)).map((o) => o.path));
    await tx
      .delete(fileListOptions)
      .where(
        and(
          eq(fileListOptions.fileListId, id),
          keepIds.length ? notInArray(fileListOptions.id, keepIds) : undefined,
        ),
      );
    for (const option of keep) {
      await tx
        .update(fileListOptions)
        .set({ name: option.name, updatedAt: sql`now()` })
        .where(and(eq(fileListOptions.fileListId, id), eq(fileListOptions.id, option.id!)));
    }
    const added = body.options.filter((o) => o.id === undefined).map((o) => o.name);
    await addEmptyOptions(tx, auth.companyId, id, added);
  });
  await removeStored(media, auth.companyId, removed);
  return emitFresh(ctx, auth.companyId, id, 'update');
}

/** DELETE /files/:id: removes the list, its options and their stored files. @throws ERR_NOT_FOUND. */
export async function deleteFileList(
  ctx: AppContext,
  media: MediaStore,
  auth: AuthContext,
  id: number,
): Promise<void> {
  const before = await getFileList(ctx, auth.companyId, id);
  await ctx.db.delete(fileLists).where(and(eq(fileLists.companyId, auth.companyId), eq(fileLists.id, id)));
  await removeStored(
    media,
    auth.companyId,
    before.options.map((o) => o.path),
  );
  ctx.realtime.toCompany(auth.companyId, 'file', { action: 'delete', fileListId: id });
}

/** A file of POST /files/uploadList/:id already checked and stored, with the fields sent for it. */
export interface StoredUpload {
  storedName: string;
  mediaType: string;
  fileName: string;
}

/**
 * Checks one uploaded file (content type and size, see inspectUpload and MEDIA_LIMITS) and stores it
 * in the media store. @throws ERR_UNSUPPORTED_MEDIA_TYPE, ERR_PAYLOAD_TOO_LARGE.
 */
export async function storeUpload(
  media: MediaStore,
  companyId: number,
  file: UploadedFile,
): Promise<StoredUpload> {
  const inspected = await inspectUpload(file);
  const storedName = await media.save(companyId, file.data, inspected.ext);
  return { storedName, mediaType: inspected.mimetype, fileName: file.fileName };
}

/**
 * POST /files/uploadList/:id: attaches stored uploads to the list. The i-th file goes to the option
 * named by the i-th `id` field when it is one of this list's (its previous file is removed), else to
 * a new option named by the i-th `name` field (or the file name). At most FILE_LIST_MAX_OPTIONS
 * options per list. On any error the stored uploads are removed.
 * @throws ERR_NOT_FOUND, ERR_VALIDATION (field files: too many).
 */
export async function attachUploads(
  ctx: AppContext,
  media: MediaStore,
  auth: AuthContext,
  id: number,
  uploads: StoredUpload[],
  fields: { ids: string[]; names: string[] },
): Promise<FileListRecord> {
  const replaced: (string | null)[] = [];
  try {
    const before = await getFileList(ctx, auth.companyId, id);
    const byId = new Map(before.options.map((o) => [o.id, o]));
    let count = before.options.length;
    await ctx.db.transaction(async (tx) => {
      for (const [i, upload] of uploads.entries()) {
        const optionId = Number(fields.ids[i]);
        const name = (fields.names[i] ?? '').trim().slice(0, 255);
        const existing = Number.isInteger(optionId) ? byId.get(optionId) : undefined;
        if (existing) {
          replaced.push(existing.path);
          await tx
            .update(fileListOptions)
            .set({
              path: upload.storedName,
              mediaType: upload.mediaType,
              ...(name ? { name } : {}),
              updatedAt: sql`now()`,
            })
            .where(and(eq(fileListOptions.fileListId, id), eq(fileListOptions.id, existing.id)));
          continue;
        }
        if (++count > FILE_LIST_MAX_OPTIONS) {
          throw new AppError('ERR_VALIDATION', {
            extra: { field: 'files', message: 'tooLong', limit: FILE_LIST_MAX_OPTIONS },
          });
        }
        await tx.insert(fileListOptions).values({
          companyId: auth.companyId,
          fileListId: id,
          name: name || upload.fileName.slice(0, 255),
          path: upload.storedName,
          mediaType: upload.mediaType,
        });
      }
      await tx.update(fileLists).set({ updatedAt: sql`now()` }).where(eq(fileLists.id, id));
    });
  } catch (error) {
    await removeStored(
      media,
      auth.companyId,
      uploads.map((u) => u.storedName),
    );
    throw error;
  }
  await removeStored(media, auth.companyId, replaced);
  return emitFresh(ctx, auth.companyId, id, 'update');
}

/** Removes stored uploads of a request that failed before they were attached. */
export async function discardUploads(
  media: MediaStore,
  companyId: number,
  uploads: StoredUpload[],
): Promise<void> {
  await removeStored(
    media,
    companyId,
    uploads.map((u) => u.storedName),
  );
}
