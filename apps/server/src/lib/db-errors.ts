/** Postgres SQLSTATE of the error or of its cause (Drizzle wraps driver errors). */
export function pgErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** True when the error is a unique-constraint violation (23505). */
export function isUniqueViolation(error: unknown): boolean {
  return pgErrorCode(error) === '23505';
}
