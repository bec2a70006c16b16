import { AppError } from './app-error.js';

/** The driver error (Postgres or PGlite) inside an error or its causes (Drizzle wraps them). */
function driverError(error: unknown): { code: string; detail?: string; column?: string } | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
      return current as { code: string; detail?: string; column?: string };
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Postgres SQLSTATE of the error or of its cause (Drizzle wraps driver errors). */
export function pgErrorCode(error: unknown): string | undefined {
  return driverError(error)?.code;
}

/** True when the error is a unique-constraint violation (23505). */
export function isUniqueViolation(error: unknown): boolean {
  return pgErrorCode(error) === '23505';
}

/** 'queue_id' -> 'queueId' (the API's names for the database's columns). */
const camel = (column: string) => column.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/**
 * The API field a constraint error is about: the column of a NOT NULL or check error, or the
 * first column of the key in a unique or foreign-key error's detail ('Key (queue_id)=(9) ...').
 */
function fieldOf(error: { detail?: string; column?: string }): string | undefined {
  if (error.column) return camel(error.column);
  const key = /Key \(([^)]+)\)/.exec(error.detail ?? '')?.[1];
  const column = key
    ?.split(',')
    .map((c) => c.trim().replace(/^lower\(|\)$/g, ''))
    .find((c) => c !== 'company_id');
  return column ? camel(column) : undefined;
}

/**
 * Maps an error the database raised because of what a client sent to the catalogue's 4xx answer,
 * or returns undefined for anything else (a real fault, answered 500 by the error handler):
 * - 23505 unique violation -> 409 ERR_ALREADY_EXISTS `{ field }`;
 * - 23503 foreign key (a reference to a record that does not exist) -> 400 ERR_VALIDATION `{ field }`;
 * - 23502 not null, 23514 check -> 400 ERR_VALIDATION `{ field }`;
 * - class 22 data exceptions (int4 out of range, invalid text such as a NUL byte, bad dates, too
 *   long values) and 54000 (a value too large for an index) -> 400 ERR_VALIDATION;
 * - 57014 statement timeout -> 503 ERR_SERVICE_UNAVAILABLE.
 * Services that know a better code (ERR_EMAIL_ALREADY_EXISTS, ERR_DUPLICATED_CONTACT) catch first.
 */
export function clientErrorFromDatabase(error: unknown): AppError | undefined {
  const found = driverError(error);
  if (!found) return undefined;
  const { code } = found;
  const field = fieldOf(found);
  const extra = (message: string) => ({ ...(field ? { field } : {}), message });
  if (code === '23505') return new AppError('ERR_ALREADY_EXISTS', { extra: extra('duplicate') });
  if (code === '23503' || code === '23502' || code === '23514') {
    return new AppError('ERR_VALIDATION', { extra: extra('invalid') });
  }
  if (code.startsWith('22')) return new AppError('ERR_VALIDATION', { extra: { message: 'invalid' } });
  if (code === '54000') return new AppError('ERR_VALIDATION', { extra: { message: 'tooLong' } });
  if (code === '57014') return new AppError('ERR_SERVICE_UNAVAILABLE');
  return undefined;
}
