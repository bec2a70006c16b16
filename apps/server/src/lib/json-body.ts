import type { FastifyInstance } from 'fastify';
import { AppError } from './app-error.js';

/**
 * The deepest nesting of arrays and objects a JSON body may have. Real payloads (flow graphs,
 * provider webhooks) stay under 10 levels; the bound keeps every later walk of the value (the
 * input guard, schema validation, JSON.stringify for storage and logs) far from the stack limit.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether JSON text nests arrays and objects deeper than `max` levels, by one linear scan of the
 * characters (brackets inside strings do not count). The text need not be valid JSON: a malformed
 * text that stays shallow answers false and is left for the parser to refuse.
 */
export function jsonTooDeep(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}

/** The 400 answered for a body nested deeper than MAX_JSON_DEPTH. */
export function tooDeepError(): AppError {
  return new AppError('ERR_VALIDATION', { extra: { field: 'body', in: 'body', message: 'invalid' } });
}

/**
 * Replaces the instance's `application/json` parser (and so that of every child context) with
 * Fastify's own one, behind a depth check: a body nested deeper than MAX_JSON_DEPTH is refused with
 * 400 ERR_VALIDATION before JSON.parse runs. Empty and malformed bodies keep Fastify's 400s, and
 * `__proto__` / `constructor.prototype` keys stay refused as the instance's options say.
 */
export function registerJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser(
    app.initialConfig.onProtoPoisoning ?? 'error',
    app.initialConfig.onConstructorPoisoning ?? 'error',
  );
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonTooDeep(body as string)) return done(tooDeepError(), undefined);
    parse(request, body as string, done);
  });
}
