import fs from 'node:fs';
import {
  ANNOUNCEMENT_MEDIA_MAX_BYTES,
  ZAnnouncement,
  ZAnnouncementBody,
  ZAnnouncementsPage,
  ZIdParam,
  ZPageQuery,
} from '@zapdesk/shared';
import { type MediaStore, mediaHeaders } from '../../channels/media-store.js';
import type { AppContext, ZodApp } from '../../context.js';
import { superRoute, userRoute } from '../../lib/guards.js';
import { readSingleUpload } from '../../lib/single-upload.js';
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
  app.get(
    '/announcements',
    { config: userRoute, schema: { tags, querystring: ZPageQuery, response: { 200: ZAnnouncementsPage } } },
    (request) => listAnnouncements(ctx, request.auth, request.query),
  );
  app.get(
    '/announcements/:id',
    { config: userRoute, schema: { tags, params: ZIdParam, response: { 200: ZAnnouncement } } },
    (request) => getAnnouncement(ctx, request.auth, request.params.id),
  );
  app.get(
    '/announcements/:id/media',
    { config: userRoute, schema: { tags, params: ZIdParam } },
    async (request, reply) => {
      const { file, name } = await locateAnnouncementMedia(ctx, media, request.auth, request.params.id);
      reply.header('cache-control', 'private, max-age=3600');
      reply.headers(mediaHeaders(name));
      return reply.send(fs.createReadStream(file));
    },
  );
  app.post(
    '/announcements',
    { config: superRoute, schema: { tags, body: ZAnnouncementBody, response: { 201: ZAnnouncement } } },
    async (request, reply) =>
      reply.status(201).send(await createAnnouncement(ctx, request.auth, request.body)),
  );
  app.put(
    '/announcements/:id',
    {
      config: superRoute,
      schema: { tags, params: ZIdParam, body: ZAnnouncementBody.partial(), response: { 200: ZAnnouncement } },
    },
    (request) => updateAnnouncement(ctx, request.auth, request.params.id, request.body),
  );
  app.delete(
    '/announcements/:id',
    { config: superRoute, schema: { tags, params: ZIdParam } },
    async (request, reply) => {
      await deleteAnnouncement(ctx, media, request.auth, request.params.id);
      return reply.status(204).send();
    },
  );
  app.post(
    '/announcements/:id/media-upload',
    { config: superRoute, schema: { tags, params: ZIdParam, response: { 200: ZAnnouncement } } },
    async (request) => {
      await getAnnouncement(ctx, request.auth, request.params.id);
      const file = await readSingleUpload(request, { maxBytes: ANNOUNCEMENT_MEDIA_MAX_BYTES });
      return uploadAnnouncementMedia(ctx, media, request.auth, request.params.id, file);
    },
  );
  app.delete(
    '/announcements/:id/media-upload',
    { config: superRoute, schema: { tags, params: ZIdParam, response: { 200: ZAnnouncement } } },
    (request) => deleteAnnouncementMedia(ctx, media, request.auth, request.params.id),
  );
}
