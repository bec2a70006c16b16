import type { MediaStore } from '../channels/media-store.js';
import type { AppContext, ZodApp } from '../context.js';
import { announcementRoutes } from './announcements/routes.js';
import { helpRoutes } from './helps/routes.js';

/** The platform's notices to every user: announcements and helps. */
export function noticeRoutes(app: ZodApp, ctx: AppContext, media: MediaStore): void {
  announcementRoutes(app, ctx, media);
  helpRoutes(app, ctx);
}
