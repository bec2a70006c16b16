import { z } from 'zod';
import { pageOf } from './answers.js';
import { boundedString, ZId } from './common.js';

/** Most files a file list holds (document 2 section 6 "File list"; docs/automation.md "File lists"). */
export const FILE_LIST_MAX_OPTIONS = 20;

/**
 * One file of a file list (document 2 section 6): its display `name`, the stored `path` (a media
 * name served to the company's users at /api/public/:path; null until uploaded) and `mediaType`
 * (the MIME type found in the file's content; null until uploaded).
 */
export const ZFileListOption = z.object({
  id: z.number(),
  name: z.string(),
  path: z.string().nullable(),
  mediaType: z.string().nullable(),
});
export type FileListOption = z.infer<typeof ZFileListOption>;

/** A file list: a named set of files with a message (document 2 section 6). */
export const ZFileList = z.object({
  id: z.number(),
  name: z.string(),
  message: z.string(),
  userId: z.number().nullable(),
  options: z.array(ZFileListOption),
});
export type FileListRecord = z.infer<typeof ZFileList>;

/** GET /files page (document 2 section 8): `files` and `hasMore`. */
export const ZFileListsPage = pageOf('files', ZFileList);
export type FileListsPage = z.infer<typeof ZFileListsPage>;

/**
 * An option in POST/PUT /files: `id` names an existing option of the list (kept, renamed); an
 * option without `id` is a new, still empty slot its file is uploaded to.
 */
export const ZFileListOptionBody = z.object({
  id: ZId.optional(),
  name: z.string().trim().max(255).default(''),
});

/**
 * POST /files body (document 2 sections 5 and 8): name (3 to 100 characters), message (required,
 * at most 4096) and options. `userId` of the spec is accepted and ignored: the list belongs to the
 * caller. On PUT, `options` given replace the list's set (options left out are removed with their files).
 */
export const ZFileListBody = z.object({
  name: boundedString(3, 100),
  message: boundedString(1, 4096),
  options: z.array(ZFileListOptionBody).max(FILE_LIST_MAX_OPTIONS).default([]),
  userId: z.unknown().optional(),
});
export type FileListBody = z.input<typeof ZFileListBody>;
