import { FLOW_LIMITS } from '@zapdesk/shared';
import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import type { MediaStore } from '../../channels/media-store.js';
import { AppError } from '../../lib/app-error.js';

/** The flow builder's upload endpoints: img (images), audio (audio and mp4 video), content (all). */
export type FlowUploadKind = 'img' | 'audio' | 'content';

/** Most files in one upload request. */
export const FLOW_UPLOAD_MAX_FILES = 10;

interface Accepted {
  ext: string;
  maxBytes: number;
}

/** Accepted content types (by magic bytes) and their limits (document 3 section 5 "Uploads"). */
const IMAGE: Record<string, Accepted> = {
  'image/png': { ext: 'png', maxBytes: FLOW_LIMITS.imageMaxBytes },
  'image/jpeg': { ext: 'jpg', maxBytes: FLOW_LIMITS.imageMaxBytes },
};
const AUDIO: Record<string, Accepted> = {
  'audio/ogg': { ext: 'ogg', maxBytes: FLOW_LIMITS.audioMaxBytes },
  'audio/opus': { ext: 'opus', maxBytes: FLOW_LIMITS.audioMaxBytes },
  'audio/ogg; codecs=opus': { ext: 'opus', maxBytes: FLOW_LIMITS.audioMaxBytes },
  'audio/mpeg': { ext: 'mp3', maxBytes: FLOW_LIMITS.audioMaxBytes },
};
const VIDEO: Record<string, Accepted> = {
  'video/mp4': { ext: 'mp4', maxBytes: FLOW_LIMITS.videoMaxBytes },
};
const ACCEPTED: Record<FlowUploadKind, Record<string, Accepted>> = {
  img: IMAGE,
  audio: { ...AUDIO, ...VIDEO },
  content: { ...IMAGE, ...AUDIO, ...VIDEO },
};

/**
 * Reads the files of a multipart upload (field `medias`, other fields ignored), checks each by
 * its content against the endpoint's types and limits (image 2 MB png/jpg; audio 5 MB ogg, mp3,
 * opus; video 20 MB mp4) and stores them in the company's media (served at /api/public/:name to
 * the company's users only). @returns the stored names, in upload order.
 * @throws ERR_VALIDATION (field `medias`) without files or past FLOW_UPLOAD_MAX_FILES;
 *   ERR_UNSUPPORTED_MEDIA_TYPE; ERR_PAYLOAD_TOO_LARGE `{ limit }` in bytes (the message 'Arquivo é
 *   muito grande! N MB máximo.' is built from it).
 */
export async function storeFlowUploads(
  request: FastifyRequest,
  media: MediaStore,
  companyId: number,
  kind: FlowUploadKind,
): Promise<string[]> {
  const required = () => new AppError('ERR_VALIDATION', { extra: { field: 'medias', message: 'required' } });
  if (!request.isMultipart()) throw required();
  const accepted = ACCEPTED[kind];
  const largest = Math.max(...Object.values(accepted).map((entry) => entry.maxBytes));
  const files: Array<{ data: Buffer; type: Accepted }> = [];
  try {
    for await (const part of request.parts({
      limits: { fileSize: largest + 1, files: FLOW_UPLOAD_MAX_FILES + 1 },
    })) {
      if (part.type !== 'file') continue;
      const data = await part.toBuffer();
      if (files.length >= FLOW_UPLOAD_MAX_FILES) {
        throw new AppError('ERR_VALIDATION', { extra: { field: 'medias', message: 'tooLong' } });
      }
      const detected = await fileTypeFromBuffer(data);
      const type = detected ? accepted[detected.mime] : undefined;
      if (!type) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', { extra: { field: 'medias' } });
      if (data.length > type.maxBytes) {
        throw new AppError('ERR_PAYLOAD_TOO_LARGE', { extra: { field: 'medias', limit: type.maxBytes } });
      }
      files.push({ data, type });
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError('ERR_PAYLOAD_TOO_LARGE', { extra: { field: 'medias', limit: largest } });
    }
    if (code === 'FST_FILES_LIMIT') {
      throw new AppError('ERR_VALIDATION', { extra: { field: 'medias', message: 'tooLong' } });
    }
    throw error;
  }
  if (files.length === 0) throw required();
  const names: string[] = [];
  for (const file of files) names.push(await media.save(companyId, file.data, file.type.ext));
  return names;
}
