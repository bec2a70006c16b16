import { fileTypeFromBuffer } from 'file-type';
import mime from 'mime-types';
import { AppError } from '../lib/app-error.js';
import type { UploadedFile } from '../lib/single-upload.js';

export type { UploadedFile } from '../lib/single-upload.js';

/** Media size limits in bytes by kind (WhatsApp's own limits). */
export const MEDIA_LIMITS = {
  image: 16 * 1024 * 1024,
  audio: 16 * 1024 * 1024,
  video: 64 * 1024 * 1024,
  document: 100 * 1024 * 1024,
};

const DOCUMENT_TYPES = [
  /^application\/pdf$/,
  /^application\/(zip|x-zip-compressed|x-rar-compressed|x-7z-compressed|gzip)$/,
  /^application\/vnd\./,
  /^application\/msword$/,
  /^application\/rtf$/,
  /^text\/(plain|csv)$/,
];

/**
 * Checks an upload by its content (magic bytes), not its declared type: images, audio, video and
 * documents (PDF, office files, archives, plain text and CSV) are accepted within MEDIA_LIMITS.
 * @throws ERR_UNSUPPORTED_MEDIA_TYPE, ERR_PAYLOAD_TOO_LARGE.
 */
export async function inspectUpload(
  file: UploadedFile,
): Promise<{ mediaType: 'image' | 'audio' | 'video' | 'document'; mimetype: string; ext: string }> {
  const detected = await fileTypeFromBuffer(file.data);
  let mimetype = detected?.mime as string | undefined;
  if (!mimetype) {
    const declared = mime.lookup(file.fileName) || file.mimetype;
    if (/^text\/(plain|csv)$/.test(declared)) mimetype = declared;
  }
  if (!mimetype) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', { extra: { field: 'medias' } });
  const kind = mimetype.startsWith('image/')
    ? 'image'
    : mimetype.startsWith('audio/')
      ? 'audio'
      : mimetype.startsWith('video/')
        ? 'video'
        : DOCUMENT_TYPES.some((r) => r.test(mimetype!))
          ? 'document'
          : undefined;
  if (!kind) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', { extra: { field: 'medias' } });
  if (file.data.length > MEDIA_LIMITS[kind]) {
    throw new AppError('ERR_PAYLOAD_TOO_LARGE', { extra: { field: 'medias', limit: MEDIA_LIMITS[kind] } });
  }
  return { mediaType: kind, mimetype, ext: detected?.ext ?? (mime.extension(mimetype) || 'bin') };
}
