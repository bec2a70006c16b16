import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Config } from '../config.js';
import type { ZodApp } from '../context.js';
import { AppError } from '../lib/app-error.js';
import { errorHandler } from '../lib/error-handler.js';
import { registerJsonParser } from '../lib/json-body.js';
import { registerRequestLog } from '../lib/request-log.js';
import { redactSecretUrl } from '../modules/password-reset/routes.js';

/**
 * The bare Fastify instance: logger (password-reset values redacted from request logs, one line
 * per request at a level by outcome), router
 * options, body limit, trusted proxies, the zod compilers, the error handler and the depth-checked
 * JSON parser. `logger` is pino options, or false (tests).
 */
export function createServer(config: Config, logger: boolean | Record<string, unknown>): ZodApp {
  const app = Fastify({
    logger: withRedactedRequests(logger),
    // One line per request, at a level by outcome (lib/request-log.ts), instead of two at info.
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    bodyLimit: 1024 * 1024,
    // X-Forwarded-For is believed only from the proxies named in TRUST_PROXY (off by default).
    trustProxy: config.TRUST_PROXY,
  }).withTypeProvider() as unknown as ZodApp;
  registerRequestLog(app as unknown as FastifyInstance, config.SLOW_REQUEST_MS);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  // JSON bodies nested deeper than MAX_JSON_DEPTH are refused before they are parsed.
  registerJsonParser(app as unknown as FastifyInstance);
  app.setValidatorCompiler(numericParamsAsNotFound);
  return app;
}

/**
 * The logger options with a request serializer that never writes the values of the password-reset
 * paths (e-mail, code, new password) to the logs.
 */
function withRedactedRequests(logger: boolean | Record<string, unknown>): boolean | Record<string, unknown> {
  if (logger === false) return false;
  const options = logger === true ? {} : logger;
  return {
    ...options,
    serializers: {
      ...(options.serializers as Record<string, unknown> | undefined),
      req: (request: {
        method: string;
        url: string;
        host?: string;
        ip?: string;
        socket?: { remotePort?: number };
      }) => ({
        method: request.method,
        url: redactSecretUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  };
}

/**
 * The zod validator compiler, except that a numeric path parameter that fails its schema (a word
 * where an id goes: /companies/something, an id out of range) names no resource and answers 404
 * ERR_NOT_FOUND, as an undefined path does, instead of a validation error. Other parameters
 * (/users/set-language/:lang) keep their 400 ERR_VALIDATION.
 */
const numericParamsAsNotFound: typeof validatorCompiler = (route) => {
  const validate = validatorCompiler(route);
  if (route.httpPart !== 'params') return validate;
  const shape = (route.schema as { shape?: Record<string, z.ZodType> }).shape ?? {};
  const numeric = Object.entries(shape).filter(([, field]) => isNumberSchema(field));
  if (!numeric.length) return validate;
  return (data: unknown) => {
    const result = validate(data) as { error?: Error; value?: unknown };
    if (!result.error) return result;
    const params = (data ?? {}) as Record<string, unknown>;
    const badId = numeric.some(([key, field]) => !field.safeParse(params[key]).success);
    return badId ? { error: new AppError('ERR_NOT_FOUND') } : result;
  };
};

/** True when a zod schema takes a number (through optional, default and pipe wrappers). */
function isNumberSchema(schema: z.ZodType): boolean {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  if (def.type === 'number' || def.type === 'int') return true;
  const inner = [def.innerType, def.in, def.out].filter(Boolean) as z.ZodType[];
  return inner.some(isNumberSchema);
}
