import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Config } from '../config.js';
import type { AppContext, ZodApp } from '../context.js';
import { inputGuard, keepUnnamedFields } from '../lib/input-guard.js';
import { registerCompression } from '../lib/web-delivery.js';
import { authGuard } from '../modules/auth/guard.js';

/**
 * The Content-Security-Policy of the web app and the API (docs/security.md, "Headers"): scripts
 * and everything else from the app's own origin; inline styles (MUI's emotion inserts <style>
 * tags); images and media also from data: and blob: (media is fetched with the token into blob
 * URLs); socket.io over the same origin ('self' covers ws:/wss: of the page's host); no frames,
 * plugins or foreign form targets.
 */
const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  // Help video thumbnails (document 2 section 2 Helps).
  imgSrc: ["'self'", 'data:', 'blob:', 'https://i.ytimg.com'],
  mediaSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  workerSrc: ["'self'", 'blob:'],
  manifestSrc: ["'self'"],
  objectSrc: ["'none'"],
  // Only the privacy-enhanced YouTube player of the help videos may be framed.
  frameSrc: ['https://www.youtube-nocookie.com'],
  frameAncestors: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  upgradeInsecureRequests: null,
};

/**
 * The HTTP infrastructure, in this order: security headers, CORS (only with CORS_ORIGINS),
 * compression, cookies, multipart bodies, rate limiting (per route) and the OpenAPI document with
 * its UI at `<API_PREFIX>/docs`.
 */
export async function registerInfrastructure(app: ZodApp, config: Config): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: { directives: CSP_DIRECTIVES },
    // HSTS only where HTTPS is the rule; in development it would pin localhost to https.
    strictTransportSecurity: config.production ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'no-referrer' },
    // Allowed browser origins (CORS_ORIGINS) may also embed the API's answers.
    crossOriginResourcePolicy: { policy: config.CORS_ORIGINS.length ? 'cross-origin' : 'same-origin' },
  });
  if (config.CORS_ORIGINS.length) {
    await app.register(cors, {
      origin: config.CORS_ORIGINS,
      credentials: true,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      maxAge: 600,
    });
  }
  // brotli/gzip for text answers above a threshold (lib/web-delivery.ts); before any route.
  await registerCompression(app as unknown as FastifyInstance);
  await app.register(cookie);
  await app.register(multipart, {
    limits: { fileSize: 100 * 1024 * 1024, files: 10, fields: 20, fieldSize: 65_536 },
  });
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_req, context) => ({
      statusCode: 429,
      error: 'ERR_TOO_MANY_REQUESTS',
      retryAfter: Math.ceil(context.ttl / 1000),
    }),
  });
  await registerOpenApi(app, config.API_PREFIX);
}

/** The OpenAPI document of every route (zod schemas), with its UI at `<prefix>/docs`. */
async function registerOpenApi(app: ZodApp, prefix: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Zapdesk API', version: '0.1.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: `${prefix}/docs`,
    // Its own CSP for its files, without forcing https (a plain-http install would lose its assets).
    staticCSP: true,
    transformStaticCSP: (header) => header.replace(/\s*upgrade-insecure-requests;?/, ''),
  });
}

/**
 * The request guards every route passes: the auth guard (token, role, plan of `config`), then the
 * input guard before validation and the keeping of unnamed fields before the handler.
 */
export function registerGuards(app: ZodApp, ctx: AppContext): void {
  app.addHook('onRequest', authGuard(ctx));
  app.addHook('preValidation', inputGuard);
  app.addHook('preHandler', keepUnnamedFields);
}
