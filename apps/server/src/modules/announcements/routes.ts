import {
  ANNOUNCEMENT_MEDIA_MAX_BYTES,
  ZAnnouncement,
  ZAnnouncementBody,
  ZAnnouncementsPage,
  ZIdParam,
  ZPageQuery,
} from '@zapdesk/shared';
import type { MediaStore } from '../../channels/media-store.js';
import type { AppContext, ZodApp } from '../../context.js';
import { superRoute, userRoute } from '../../lib/guards.js';
import { sendStoredMedia } from '../common/media-reply.js';
import { mediaUploadRoutes, resourceRoutes } from '../common/resource-routes.js';
import { routeTable } from '../common/route-table.js';
import {
  createAnnouncement,
  deleteAnnouncement,
  deleteAnnouncementMedia,
  getAnnouncement,
  listAnnouncements,
  locateAnnouncementMedia,
  updateAnnouncement,
  uploadAnnouncementMedia,
} from './announcements-service.js';

/**
 * Announcements (document 2 sections 2, 3 and 7; core top bar): every user reads the active ones
 * (the super user all of them); writes and media upload are for the super user only. The image is
 * served at GET /announcements/:id/media to whoever may read the announcement.
 */
export function announcementRoutes(app: ZodApp, ctx: AppContext, media: MediaStore): void {
  const tags = ['announcements'];
  resourceRoutes(app, {
    path: '/announcements',
    tags,
    item: ZAnnouncement,
    body: ZAnnouncementBody,
    updateBody: ZAnnouncementBody.partial(),
    query: ZPageQuery,
    page: ZAnnouncementsPage,
    list: [userRoute, (auth, query) => listAnnouncements(ctx, auth, query)],
    show: [userRoute, (auth, id) => getAnnouncement(ctx, auth, id)],
    create: [superRoute, (auth, body) => createAnnouncement(ctx, auth, body)],
    update: [superRoute, (auth, id, body) => updateAnnouncement(ctx, auth, id, body)],
    remove: [superRoute, (auth, id) => deleteAnnouncement(ctx, media, auth, id)],
  });
  const route = routeTable(app, tags, userRoute);
  route.get('/announcements/:id/media', { params: ZIdParam }, async (request, reply) => {
    const { companyId, name } = await locateAnnouncementMedia(ctx, request.auth, request.params.id);
    return sendStoredMedia(request, reply, media, companyId, name);
  });
  mediaUploadRoutes(app, {
    path: '/announcements/:id',
    tags,
    guard: superRoute,
    item: ZAnnouncement,
    maxBytes: ANNOUNCEMENT_MEDIA_MAX_BYTES,
    check: (auth, id) => getAnnouncement(ctx, auth, id),
    upload: (auth, id, file) => uploadAnnouncementMedia(ctx, media, auth, id, file),
    remove: (auth, id) => deleteAnnouncementMedia(ctx, media, auth, id),
  });
}
