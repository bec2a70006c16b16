import { withoutBidiControls } from '@zapdesk/shared';
import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error.js';

/** An uploaded file (to send, to store): its bytes, the name the client gave it, its declared type. */
export interface UploadedFile {
  data: Buffer;
  fileName: string;
  mimetype: string;
}

/**
 * Reads the one file of a multipart upload (`POST …/media-upload`): the first file part is kept,
 * further files are drained and ignored. With `maxBytes`, reading stops just past the limit so an
 * oversized upload is never held whole.
 * @throws ERR_VALIDATION (field `file`, `required`) when the request is not multipart or has no file;
 *   ERR_PAYLOAD_TOO_LARGE (field `file`, `limit` in bytes) past `maxBytes`.
 */
export async function readSingleUpload(
  request: FastifyRequest,
  options: { maxBytes?: number } = {},
): Promise<UploadedFile> {
  const required = () => new AppError('ERR_VALIDATION', { extra: { field: 'file', message: 'required' } });
  if (!request.isMultipart()) throw required();
  const { maxBytes } = options;
  const parts = request.parts(maxBytes === undefined ? undefined : { limits: { fileSize: maxBytes + 1 } });
  let file: UploadedFile | undefined;
  try {
    for await (const part of parts) {
      if (part.type !== 'file') continue;
      const data = await part.toBuffer();
      file ??= { data, fileName: withoutBidiControls(part.filename), mimetype: part.mimetype };
    }
  } catch (error) {
    if (maxBytes !== undefined && (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError('ERR_PAYLOAD_TOO_LARGE', { extra: { field: 'file', limit: maxBytes } });
    }
    throw error;
  }
  if (!file) throw required();
  return file;
}
