import { z } from 'zod';

/**
 * Validation message keys. The server returns them in `message`; the web client translates them
 * (pt/en/es) in one place, apps/web/src/lib/validation-text.ts (pt 'Obrigatório', 'Muito curto!'...;
 * the user form keeps the spec's 'Too Short!', 'Too Long!', 'Required', 'Invalid email').
 */
export const V = {
  tooShort: 'tooShort',
  tooLong: 'tooLong',
  required: 'required',
  invalidEmail: 'invalidEmail',
  invalidPhone: 'invalidPhone',
  invalid: 'invalid',
  /** A number below or above its bounds (a service-level target of 0 minutes or over a year). */
  outOfRange: 'outOfRange',
} as const;

/** A trimmed required string of `min`..`max` characters with the spec's messages. */
export const boundedString = (min: number, max: number) =>
  z.string({ error: V.required }).trim().min(1, V.required).min(min, V.tooShort).max(max, V.tooLong);

export const ZEmail = z
  .string({ error: V.required })
  .trim()
  .min(1, V.required)
  .email(V.invalidEmail)
  .max(254, V.tooLong);

/** Largest value of a Postgres `integer` (int4) column: every id and integer field is bounded by it. */
export const INT4_MAX = 2_147_483_647;

/** A record id in a JSON body: a positive int4. */
export const ZId = z.number().int().positive().max(INT4_MAX);

/** A record id in a path or query string ('12'): a positive int4. */
export const ZCoercedId = z.coerce.number().int().positive().max(INT4_MAX);

/** Numeric id in a path (`/users/:id`). */
export const ZIdParam = z.object({ id: ZCoercedId });

/** `pageNumber` (1-based) and `searchParam` of paged lists. */
export const ZPageQuery = z.object({
  searchParam: z.string().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});

/** Accepts an ISO date-time string or Date and returns the ISO string. */
export const ZDateString = z.string();

export const ZEnabled = z.enum(['enabled', 'disabled']);

/**
 * PUT semantics: parses `input` with the field rules of `schema`, every field optional, and keeps
 * only the fields `input` names, so that defaults and `nullish -> null` transforms never overwrite
 * what the body left out. @throws ZodError (answered 400 ERR_VALIDATION).
 */
export function parsePatch<S extends z.ZodObject>(schema: S, input: unknown): Partial<z.output<S>> {
  const data = schema.partial().parse(input ?? {}) as Record<string, unknown>;
  const named = input && typeof input === 'object' ? (input as Record<string, unknown>) : {};
  return Object.fromEntries(
    Object.entries(data).filter(([key]) => key in named && named[key] !== undefined),
  ) as Partial<z.output<S>>;
}

/**
 * The bidirectional embedding, override and isolate controls (U+202A..U+202E, U+2066..U+2069): in a
 * name they reorder what follows ("gnp.exe" shown as "exe.png"). The marks U+200E/U+200F/U+061C
 * are kept: they change only the direction of neighbouring punctuation, never the order of letters.
 */
export const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/** `text` without bidi embedding, override and isolate controls (BIDI_CONTROLS); other text unchanged. */
export function withoutBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}
