import { ERROR_STATUS, type ErrorCode } from '@zapdesk/shared';

/**
 * The one error type services throw. The error handler answers `{ error: code, ...extra }` with
 * the catalogue's HTTP status (or `status` when given).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly extra: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    options: { status?: number; extra?: Record<string, unknown>; message?: string } = {},
  ) {
    super(options.message ?? code);
    this.code = code;
    this.status = options.status ?? ERROR_STATUS[code];
    this.extra = options.extra ?? {};
  }
}

/**
 * `value` itself when it is there: the one way a lookup answers a missing row.
 * @throws AppError `code` (ERR_NOT_FOUND unless given) when `value` is undefined or null.
 */
export function orNotFound<T>(value: T | undefined | null, code: ErrorCode = 'ERR_NOT_FOUND'): T {
  if (value === undefined || value === null) throw new AppError(code);
  return value;
}
