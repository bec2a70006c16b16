import type { ErrorCode } from '@zapdesk/shared';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { AppError } from './app-error.js';
import { clientErrorFromDatabase } from './db-errors.js';

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
 * The one error handler: AppError -> its code and status; schema failures (route schemas and zod
 * parses inside handlers) -> 400 ERR_VALIDATION naming the field; database errors caused by the
 * input (unique, foreign key, out-of-range, invalid text) -> their 4xx code (lib/db-errors.ts); a
 * malformed multipart stream -> 400; other client errors (bad JSON, body too large) -> their 4xx
 * code; everything else -> 500 ERR_INTERNAL_SERVER_ERROR, logged.
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
  if (error instanceof ZodError) {
    const first = error.issues[0];
    return reply.status(400).send({
      error: 'ERR_VALIDATION',
      field: first?.path.join('.') || 'body',
      in: 'body',
      message: first?.message ?? 'invalid',
    });
  }
  const fromDatabase = clientErrorFromDatabase(error);
  if (fromDatabase) {
    request.log.info({ err: error }, 'input refused by the database');
    return reply.status(fromDatabase.status).send({ error: fromDatabase.code, ...fromDatabase.extra });
  }
  const status = (error as FastifyError).statusCode;
  if (!status && request.isMultipart()) {
    // busboy's stream errors (cut short, malformed part headers) carry no status.
    request.log.warn({ err: error }, 'malformed multipart body');
    return reply.status(400).send({ error: 'ERR_VALIDATION', field: 'multipart', message: 'invalid' });
  }
  if (status && status >= 400 && status < 500) {
    const code = STATUS_CODES[status] ?? 'ERR_VALIDATION';
    return reply.status(status).send({ error: code, message: error.message });
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.status(500).send({ error: 'ERR_INTERNAL_SERVER_ERROR' });
}
