import { ZIdParam } from '@zapdesk/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, HTTPMethods } from 'fastify';
import type { z } from 'zod';
import type { UploadedFile } from '../../channels/outbound-upload.js';
import type { ZodApp } from '../../context.js';
import type { AuthContext, RouteGuard } from '../../lib/guards.js';
import { readSingleUpload } from '../../lib/single-upload.js';

/** A path-parameter schema that yields the numeric `id` of `/things/:id`. */
export type IdParams = z.ZodType<{ id: number }>;

/** One route of a resource: the guard it declares (`config`) and what it does. */
type Route<Handler> = readonly [guard: RouteGuard, handler: Handler];

/**
 * The usual routes of one resource, each present only when given:
 * - `list`: GET `path` (querystring `query`, answer `page`);
 * - `show`: GET `path/:id` (answer `item`);
 * - `create`: POST `path` (body `body`, answer 201 `item`);
 * - `update`: PUT `path/:id` (body `updateBody`, usually `body.partial()`, answer `item`);
 * - `remove`: DELETE `path/:id` (answer 204, no body).
 * Handlers receive the caller (`request.auth`), the parsed id and the parsed body or query.
 */
export interface ResourceSpec<
  Item extends z.ZodType,
  Body extends z.ZodType,
  UpdateBody extends z.ZodType,
  Query extends z.ZodType,
  Page extends z.ZodType,
> {
  path: string;
  tags: string[];
  item: Item;
  body?: Body;
  updateBody?: UpdateBody;
  /** The `:id` schema; ZIdParam unless given. */
  params?: IdParams;
  query?: Query;
  page?: Page;
  list?: Route<(auth: AuthContext, query: z.output<Query>) => Promise<z.input<Page>>>;
  show?: Route<(auth: AuthContext, id: number) => Promise<z.input<Item>>>;
  create?: Route<(auth: AuthContext, body: z.output<Body>) => Promise<z.input<Item>>>;
  update?: Route<(auth: AuthContext, id: number, body: z.output<UpdateBody>) => Promise<z.input<Item>>>;
  remove?: Route<(auth: AuthContext, id: number) => Promise<unknown>>;
}

/** The request as the helpers read it (schemas are checked by fastify before the handler runs). */
type Parsed = FastifyRequest<{ Params: { id: number }; Body: unknown; Querystring: unknown }>;

/**
 * Registers one route on the app seen without its type provider, so that schemas passed in as
 * values can be registered (fastify still validates and serializes with them).
 */
function register(
  app: ZodApp,
  method: HTTPMethods,
  url: string,
  config: RouteGuard,
  schema: FastifySchema,
  handler: (request: Parsed, reply: FastifyReply) => unknown,
): void {
  (app as unknown as FastifyInstance).route({ method, url, config, schema, handler: handler as never });
}

/**
 * Registers the list/show/create/update/delete routes of one resource (see ResourceSpec). Each
 * route keeps the guard given with it; a missing entry registers nothing.
 */
export function resourceRoutes<
  Item extends z.ZodType,
  Body extends z.ZodType,
  UpdateBody extends z.ZodType = z.ZodUnknown,
  Query extends z.ZodType = z.ZodUnknown,
  Page extends z.ZodType = z.ZodUnknown,
>(app: ZodApp, spec: ResourceSpec<Item, Body, UpdateBody, Query, Page>): void {
  const { path, tags, item, list, show, create, update, remove } = spec;
  const params = spec.params ?? ZIdParam;
  const one = `${path}/:id`;
  if (list) {
    const [guard, handler] = list;
    const querystring = spec.query ? { querystring: spec.query } : {};
    register(app, 'GET', path, guard, { tags, ...querystring, response: { 200: spec.page } }, (request) =>
      handler(request.auth, request.query as z.output<Query>),
    );
  }
  if (show) {
    const [guard, handler] = show;
    register(app, 'GET', one, guard, { tags, params, response: { 200: item } }, (request) =>
      handler(request.auth, request.params.id),
    );
  }
  if (create) {
    const [guard, handler] = create;
    register(
      app,
      'POST',
      path,
      guard,
      { tags, body: spec.body, response: { 201: item } },
      async (request, reply) =>
        reply.status(201).send(await handler(request.auth, request.body as z.output<Body>)),
    );
  }
  if (update) {
    const [guard, handler] = update;
    const body = spec.updateBody;
    register(app, 'PUT', one, guard, { tags, params, body, response: { 200: item } }, (request) =>
      handler(request.auth, request.params.id, request.body as z.output<UpdateBody>),
    );
  }
  if (remove) {
    const [guard, handler] = remove;
    register(app, 'DELETE', one, guard, { tags, params }, async (request, reply) => {
      await handler(request.auth, request.params.id);
      return reply.status(204).send();
    });
  }
}

/** What the media routes of a resource need: who may use them, the answer and the three steps. */
export interface MediaRoutesSpec<Item extends z.ZodType> {
  /** The resource's item path, e.g. '/schedules/:id'; the routes are `${path}/media-upload`. */
  path: string;
  tags: string[];
  guard: RouteGuard;
  item: Item;
  params?: IdParams;
  /** Largest file accepted, in bytes; unlimited (the multipart default) when absent. */
  maxBytes?: number;
  /** Resolves when the caller may change the resource (throws ERR_NOT_FOUND etc. otherwise). */
  check: (auth: AuthContext, id: number) => Promise<unknown>;
  upload: (auth: AuthContext, id: number, file: UploadedFile) => Promise<z.input<Item>>;
  remove: (auth: AuthContext, id: number) => Promise<z.input<Item>>;
}

/**
 * Registers POST `path/media-upload` (one multipart file, checked against the resource first and
 * against `maxBytes`) and DELETE `path/media-upload`; both answer the updated item.
 * @throws (through the routes) ERR_VALIDATION without a file, ERR_PAYLOAD_TOO_LARGE past maxBytes.
 */
export function mediaUploadRoutes<Item extends z.ZodType>(app: ZodApp, spec: MediaRoutesSpec<Item>): void {
  const { tags, guard, item, maxBytes, check, upload, remove } = spec;
  const url = `${spec.path}/media-upload`;
  const schema = { tags, params: spec.params ?? ZIdParam, response: { 200: item } };
  register(app, 'POST', url, guard, schema, async (request) => {
    await check(request.auth, request.params.id);
    const file = await readSingleUpload(request, { maxBytes });
    return upload(request.auth, request.params.id, file);
  });
  register(app, 'DELETE', url, guard, schema, (request) => remove(request.auth, request.params.id));
}
