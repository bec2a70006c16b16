import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  ContextConfigDefault,
  FastifyInstance,
  FastifySchema,
  HTTPMethods,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ZodApp } from '../../context.js';
import type { RouteGuard } from '../../lib/guards.js';

/**
 * A route's declaration: its schema without tags (the table adds the module's), where `reply: X`
 * stands for `response: { 200: X }`, and `guard` replaces the table's guard for this route.
 */
type Declaration = Omit<FastifySchema, 'tags'> & { guard?: RouteGuard; reply?: unknown };

/** The fastify schema a declaration stands for. */
type SchemaOf<D extends Declaration> = Omit<D, 'guard' | 'reply'> &
  (D extends { reply: infer R } ? { response: { 200: R } } : unknown);

/** A handler typed by its schema through the zod type provider, as `app.get(...)` types it. */
type Handler<D extends Declaration> = RouteHandlerMethod<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  RouteGenericInterface,
  ContextConfigDefault,
  SchemaOf<D>,
  ZodTypeProvider
>;

/** Declares one route: its path, its declaration and its handler. */
type Declare = <D extends Declaration>(url: string, declaration: D, handler: Handler<D>) => void;

/** The route declarations of one module, one function per HTTP method. */
export interface RouteTable {
  get: Declare;
  post: Declare;
  put: Declare;
  delete: Declare;
}

/**
 * One way to declare a module's routes: `routeTable(app, ['tags'], guard)` gives get/post/put/delete,
 * each taking (url, declaration, handler). The route is registered as `app.route` would with
 * `config: declaration.guard ?? guard` and `schema: { tags, ...declaration }` (with `reply: X` as
 * `response: { 200: X }`), so guards, validation, serialization and the OpenAPI document are the
 * same as with `app.get(url, { config, schema }, handler)`.
 */
export function routeTable(app: ZodApp, tags: string[], guard: RouteGuard): RouteTable {
  const declare =
    (method: HTTPMethods): Declare =>
    (url, declaration, handler) => {
      const { guard: own, reply, ...schema } = declaration;
      const response = reply === undefined ? {} : { response: { 200: reply } };
      (app as unknown as FastifyInstance).route({
        method,
        url,
        config: own ?? guard,
        schema: { tags, ...schema, ...response },
        handler: handler as never,
      });
    };
  return { get: declare('GET'), post: declare('POST'), put: declare('PUT'), delete: declare('DELETE') };
}
