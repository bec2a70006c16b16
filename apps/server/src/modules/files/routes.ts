import {
  FILE_LIST_MAX_OPTIONS,
  withoutBidiControls,
  ZFileList,
  ZFileListBody,
  ZFileListsPage,
  ZIdParam,
  ZPageQuery,
} from '@zapdesk/shared';
import type { MediaStore } from '../../channels/media-store.js';
import { MEDIA_LIMITS } from '../../channels/outbound-upload.js';
import type { AppContext, ZodApp } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { userRoute } from '../../lib/guards.js';
import { resourceRoutes } from '../common/resource-routes.js';
import { routeTable } from '../common/route-table.js';
import {
  attachUploads,
  createFileList,
  deleteFileList,
  discardUploads,
  getFileList,
  listFileLists,
  type StoredUpload,
  storeUpload,
  updateFileList,
} from './files-service.js';

/** Largest single file of a list upload: the largest media kind (documents, 100 MB). */
const MAX_FILE_BYTES = Math.max(...Object.values(MEDIA_LIMITS));

/**
 * File lists (document 2 sections 6 and 8): GET /files (page `{ files, hasMore }`), GET/PUT/DELETE
 * /files/:id, POST /files and the multipart POST /files/uploadList/:id. Open to every user of the
 * company (core side menu: /files has no role condition).
 */
export function fileRoutes(app: ZodApp, ctx: AppContext, media: MediaStore): void {
  const tags = ['files'];
  resourceRoutes(app, {
    path: '/files',
    tags,
    item: ZFileList,
    body: ZFileListBody,
    updateBody: ZFileListBody.partial(),
    query: ZPageQuery,
    page: ZFileListsPage,
    list: [userRoute, (auth, query) => listFileLists(ctx, auth, query)],
    show: [userRoute, (auth, id) => getFileList(ctx, auth.companyId, id)],
    create: [userRoute, (auth, body) => createFileList(ctx, auth, body)],
    update: [userRoute, (auth, id, body) => updateFileList(ctx, media, auth, id, body)],
    remove: [userRoute, (auth, id) => deleteFileList(ctx, media, auth, id)],
  });
  const route = routeTable(app, tags, userRoute);
  route.post('/files/uploadList/:id', { params: ZIdParam, reply: ZFileList }, async (request) => {
    await getFileList(ctx, request.auth.companyId, request.params.id);
    if (!request.isMultipart())
      throw new AppError('ERR_VALIDATION', { extra: { field: 'files', message: 'required' } });
    const uploads: StoredUpload[] = [];
    const ids: string[] = [];
    const names: string[] = [];
    try {
      const parts = request.parts({
        limits: { fileSize: MAX_FILE_BYTES + 1, files: FILE_LIST_MAX_OPTIONS, fields: 200 },
      });
      for await (const part of parts) {
        if (part.type === 'file') {
          const data = await part.toBuffer();
          uploads.push(
            await storeUpload(media, request.auth.companyId, {
              data,
              fileName: withoutBidiControls(part.filename),
              mimetype: part.mimetype,
            }),
          );
        } else if (part.fieldname === 'id') ids.push(String(part.value));
        else if (part.fieldname === 'name') names.push(String(part.value));
      }
    } catch (error) {
      await discardUploads(media, request.auth.companyId, uploads);
      const code = (error as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE')
        throw new AppError('ERR_PAYLOAD_TOO_LARGE', { extra: { field: 'files', limit: MAX_FILE_BYTES } });
      if (code === 'FST_FILES_LIMIT')
        throw new AppError('ERR_VALIDATION', {
          extra: { field: 'files', message: 'tooLong', limit: FILE_LIST_MAX_OPTIONS },
        });
      throw error;
    }
    if (uploads.length === 0)
      throw new AppError('ERR_VALIDATION', { extra: { field: 'files', message: 'required' } });
    return attachUploads(ctx, media, request.auth, request.params.id, uploads, { ids, names });
  });
}
