import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error.js';

/**
 * Dotted path of the first string holding a NUL byte (U+0000) in a parsed body, query or params
 * ('' for the value itself), or undefined. Postgres text cannot store NUL, so such input is refused
 * before any handler runs. Keys are checked too. The walk keeps its own stack (no recursion), so no
 * nesting can exhaust the call stack; JSON bodies are bounded anyway (lib/json-body.ts).
 */
export function findNulByte(value: unknown): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? '' : undefined;
  /** A value still to look at, and the key path that leads to it from `value`. */
  interface Pending {
    item: unknown;
    parent: Pending | undefined;
    key: string;
  }
  const pathOf = (pending: Pending | undefined, last?: string): string => {
    const keys: string[] = last === undefined ? [] : [last];
    for (let at = pending; at?.parent; at = at.parent) keys.push(at.key);
    return keys.reverse().join('.');
  };
  const stack: Pending[] = [{ item: value, parent: undefined, key: '' }];
  while (stack.length) {
    const pending = stack.pop()!;
    const { item } = pending;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return pathOf(pending);
      continue;
    }
    if (!item || typeof item !== 'object' || Buffer.isBuffer(item)) continue;
    const entries = Object.entries(item);
    // Pushed last to first, so the first field is looked at first (the same order as before).
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!;
      if (key.includes('\u0000')) return pathOf(pending, key);
      stack.push({ item: child, parent: pending, key });
    }
  }
  return undefined;
}

/** The top-level fields each request's JSON body named, before its schema added defaults. */
const namedFields = new WeakMap<FastifyRequest, Set<string>>();

/**
 * preHandler hook: a PUT or PATCH changes only what its body names. After validation the body holds
 * schema defaults too ('' messages, empty queue lists); they are dropped here, on every route, so
 * that fields the client left out keep their stored values.
 */
export async function keepUnnamedFields(request: FastifyRequest): Promise<void> {
  if (request.method !== 'PUT' && request.method !== 'PATCH') return;
  const named = namedFields.get(request);
  const body = request.body;
  if (!named || !body || typeof body !== 'object' || Array.isArray(body)) return;
  request.body = Object.fromEntries(Object.entries(body).filter(([key]) => named.has(key)));
}

/**
 * preValidation hook for every route: refuses a NUL byte in the path, query or JSON body, and a
 * `multipart/form-data` request without its boundary, with 400 ERR_VALIDATION naming the field;
 * remembers which fields the body named (see keepUnnamedFields).
 */
export async function inputGuard(request: FastifyRequest): Promise<void> {
  const body = request.body;
  if (body && typeof body === 'object' && !Array.isArray(body) && !Buffer.isBuffer(body)) {
    namedFields.set(request, new Set(Object.keys(body)));
  }
  const type = request.headers['content-type'];
  if (type && /^\s*multipart\/form-data/i.test(type) && !/;\s*boundary=[^;\s]/i.test(type)) {
    throw new AppError('ERR_VALIDATION', {
      extra: { field: 'content-type', in: 'headers', message: 'invalid' },
    });
  }
  for (const part of ['params', 'query', 'body'] as const) {
    const field = findNulByte(request[part]);
    if (field !== undefined) {
      throw new AppError('ERR_VALIDATION', { extra: { field: field || part, in: part, message: 'invalid' } });
    }
  }
}

/**
 * A copy of `value` with NUL bytes removed from its own string fields (one level): what arrives from
 * a provider is stored, never refused, and Postgres text cannot hold U+0000.
 */
export function withoutNulBytes<T extends object>(value: T): T {
  const copy = { ...value } as Record<string, unknown>;
  for (const [key, item] of Object.entries(copy)) {
    if (typeof item === 'string' && item.includes('\u0000')) copy[key] = item.replaceAll('\u0000', '');
  }
  return copy as T;
}
