/**
 * What happens to an inbound message before it joins a batch: the group setting that may ignore it
 * and the download of its media.
 */
import type { NormalizedMessage } from '@zapdesk/shared';
import { and, eq } from 'drizzle-orm';
import mime from 'mime-types';
import type { AppContext } from '../../context.js';
import { settings } from '../../db/schema/index.js';
import type { MediaStore } from '../media-store.js';
import type { StoredMedia } from './types.js';

/** Statements of this node that may change a company's settings (the settings cache bypasses then). */
export const SETTINGS_WRITE =
  /^\s*(?:insert\s+into|update|delete\s+from)\s+"?settings"?[\s(;]|^\s*truncate\b/i;

/** Whether the company ignores group messages (its CheckMsgIsGroup setting is enabled), read now. */
export async function readIgnoresGroups(ctx: AppContext, companyId: number): Promise<boolean> {
  const [row] = await ctx.db
    .select({ value: settings.value })
    .from(settings)
    .where(and(eq(settings.companyId, companyId), eq(settings.key, 'CheckMsgIsGroup')));
  return row?.value === 'enabled';
}

/**
 * Downloads a message's media into the media store: its stored name and file name, or, when the
 * download fails (logged), no name and the error ERR_WAPP_DOWNLOAD_MEDIA; all null without media.
 */
export async function storeMedia(
  ctx: AppContext,
  media: MediaStore,
  companyId: number,
  message: NormalizedMessage,
): Promise<StoredMedia> {
  if (!message.media) return { name: null, fileName: null, error: null };
  try {
    const data = await message.media.download();
    const ext = mime.extension(message.media.mimetype) || 'bin';
    const name = await media.save(companyId, data, ext);
    return { name, fileName: message.media.fileName ?? `${message.mediaType}.${ext}`, error: null };
  } catch (error) {
    ctx.log.warn({ err: error, providerId: message.providerId }, 'media download failed');
    return { name: null, fileName: message.media.fileName ?? null, error: 'ERR_WAPP_DOWNLOAD_MEDIA' };
  }
}
