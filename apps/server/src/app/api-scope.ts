import type { RouteOptions } from 'fastify';
import type { ZodApp } from '../context.js';
import type { RouteGuard } from '../lib/guards.js';

/** A registered API route and its declared guard (see lib/guards.ts). */
export interface RouteEntry extends RouteGuard {
  method: string;
  /** The URL as registered, API_PREFIX included ('/api/tickets/:id', or '/tickets/:id' at the root). */
  url: string;
  /** The URL below API_PREFIX ('/tickets/:id'), the same whatever the prefix. */
  path: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every API route with its guard, filled while routes register. */
    routeTable: RouteEntry[];
  }
}

/**
 * Registers the API: one scope below `prefix` ('/api', or '' for the root) holding the routes the
 * module plugins added, in order. Every route must declare its guard (`config.auth`): one that does
 * not makes the registration, and so buildApp, fail. Each is recorded in `app.routeTable` with its
 * prefix-free path (HEAD twins aside).
 */
export async function registerApi(
  app: ZodApp,
  prefix: string,
  routes: readonly ((api: ZodApp) => void)[],
): Promise<void> {
  app.decorate('routeTable', [] as RouteEntry[]);
  await app.register(
    async (api) => {
      api.addHook('onRoute', (route: RouteOptions) => {
        app.routeTable.push(...guardedRoutes(route, prefix));
      });
      for (const register of routes) register(api as unknown as ZodApp);
    },
    { prefix },
  );
}

/** The table entries of one route (one per method, HEAD aside); throws when it declares no guard. */
function guardedRoutes(route: RouteOptions, prefix: string): RouteEntry[] {
  const guard = route.config as Partial<RouteGuard> | undefined;
  if (guard?.auth !== 'public' && guard?.auth !== 'user') {
    throw new Error(`Route ${String(route.method)} ${route.url} declares no guard (config.auth)`);
  }
  const auth = guard.auth;
  const path = route.url.slice(prefix.length) || '/';
  return [route.method]
    .flat()
    .filter((method) => method !== 'HEAD')
    .map((method) => ({ method, url: route.url, path, auth, role: guard.role, plan: guard.plan }));
}
