import type { ErrorCode } from '@zapdesk/shared';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from './app-error.js';

const STATUS_CODES: Partial<Record<number, ErrorCode>> = {
  400: 'ERR_VALIDATION',
  401: 'ERR_SESSION_EXPIRED',
  403: 'ERR_NO_PERMISSION',
  404: 'ERR_NOT_FOUND',
  413: 'ERR_PAYLOAD_TOO_LARGE',
  415: 'ERR_UNSUPPORTED_MEDIA_TYPE',
  429: 'ERR_TOO_MANY_REQUESTS',
};

/**
 * The one error handler: AppError -> its code and status; schema failures -> 400 ERR_VALIDATION
 * naming the field; other client errors (bad JSON, body too large) -> their 4xx code; everything
 * else -> 500 ERR_INTERNAL_SERVER_ERROR, logged.
 */
export function errorHandler(
  error: FastifyError | AppError | Error,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (error instanceof AppError) {
    return reply.status(error.status).send({ error: error.code, ...error.extra });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const first = error.validation[0];
    const where = error.validationContext ?? 'body';
    const pathParts = (first?.instancePath ?? '').split('/').filter(Boolean);
    const field = pathParts.length ? pathParts.join('.') : where;
    return reply
      .status(400)
      .send({ error: 'ERR_VALIDATION', field, in: where, message: first?.message ?? 'invalid' });
  }
  const status = (error as FastifyError).statusCode;
  if (status && status >= 400 && status < 500) {
    const code = STATUS_CODES[status] ?? 'ERR_VALIDATION';
    return reply.status(status).send({ error: code, message: error.message });
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.status(500).send({ error: 'ERR_INTERNAL_SERVER_ERROR' });
}
