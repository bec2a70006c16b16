import { z } from 'zod';
import { mediaFields, pageOf, timestampFields } from './answers.js';

/**
 * Announcement (document 2 section 3): a platform notice written by the super user. `priority` is
 * 1 high, 2 medium, 3 low; `status` true is active. `mediaPath` is the stored image name, served at
 * GET /announcements/:id/media.
 */
export const ZAnnouncement = z.object({
  id: z.number(),
  title: z.string(),
  text: z.string(),
  priority: z.number(),
  status: z.boolean(),
  ...mediaFields,
  ...timestampFields,
});
export type Announcement = z.infer<typeof ZAnnouncement>;

/** POST /announcements body (document 2 section 5: title and text required, priority 3 by default). */
export const ZAnnouncementBody = z.object({
  title: z.string().trim().min(1, 'required').max(200, 'tooLong'),
  text: z.string().trim().min(1, 'required').max(5000, 'tooLong'),
  priority: z.number().int().min(1).max(3).optional().default(3),
  status: z.boolean().optional().default(true),
});
export type AnnouncementBody = z.input<typeof ZAnnouncementBody>;

/** GET /announcements answer. */
export const ZAnnouncementsPage = pageOf('records', ZAnnouncement);
export type AnnouncementsPage = z.infer<typeof ZAnnouncementsPage>;

/** Announcement images: png and jpeg only (document 2 section 5), at most this many bytes. */
export const ANNOUNCEMENT_MEDIA_MAX_BYTES = 5 * 1024 * 1024;

/** Help (document 2 section 3, document 3): a video help card; `video` is the YouTube video id. */
export const ZHelp = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string(),
  video: z.string(),
});
export type Help = z.infer<typeof ZHelp>;

/** POST /helps body: a title, an optional description and a YouTube video id (letters, digits, - and _). */
export const ZHelpBody = z.object({
  title: z.string().trim().min(1, 'required').max(200, 'tooLong'),
  description: z.string().trim().max(2000, 'tooLong').optional().default(''),
  video: z
    .string()
    .trim()
    .min(1, 'required')
    .max(32, 'tooLong')
    .regex(/^[A-Za-z0-9_-]+$/, 'invalid'),
});
export type HelpBody = z.input<typeof ZHelpBody>;

/** GET /helps answer. */
export const ZHelpsPage = pageOf('records', ZHelp);
export type HelpsPage = z.infer<typeof ZHelpsPage>;
