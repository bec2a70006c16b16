import type { FastifyReply, FastifyRequest } from 'fastify';
import parseRange from 'range-parser';
import { type MediaStore, mediaHeaders } from '../../channels/media-store.js';
import { AppError } from '../../lib/app-error.js';

/**
 * Answers a GET with one of a company's stored media files, streamed from the storage (disk or
 * bucket, never a bucket URL), with mediaHeaders and `accept-ranges: bytes`. A single satisfiable
 * `Range: bytes=…` gets 206 with Content-Range (audio and video seek); an unsatisfiable one 416
 * with `Content-Range: bytes *∕size`; a malformed or multi-part one the whole file (200).
 * @throws ERR_NOT_FOUND when the name is invalid or missing in `companyId`; ERR_STORAGE_UNAVAILABLE.
 */
export async function sendStoredMedia(
  request: FastifyRequest,
  reply: FastifyReply,
  media: MediaStore,
  companyId: number,
  name: string,
): Promise<FastifyReply> {
  const stat = await media.stat(companyId, name);
  if (!stat) throw new AppError('ERR_NOT_FOUND');
  const header = request.headers.range;
  const ranges = header ? parseRange(stat.size, header, { combine: true }) : undefined;
  if (ranges === -1) {
    return reply
      .code(416)
      .header('content-range', `bytes */${stat.size}`)
      .send({ error: 'ERR_VALIDATION', field: 'range' });
  }
  const range =
    Array.isArray(ranges) && ranges.type === 'bytes' && ranges.length === 1 ? ranges[0] : undefined;
  const stream = await media.open(companyId, name, range);
  if (!stream) throw new AppError('ERR_NOT_FOUND');
  reply.header('cache-control', 'private, max-age=3600');
  reply.header('accept-ranges', 'bytes');
  reply.headers(mediaHeaders(name));
  if (range) {
    reply.code(206);
    reply.header('content-range', `bytes ${range.start}-${range.end}/${stat.size}`);
    reply.header('content-length', range.end - range.start + 1);
  } else {
    reply.header('content-length', stat.size);
  }
  return reply.send(stream);
}
