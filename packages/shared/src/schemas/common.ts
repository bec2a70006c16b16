import { z } from 'zod';

/**
 * Validation message keys. The server returns them in `message`; the web client translates them
 * (pt/en/es) from `validation.<key>`. The pt/en wording of the spec is 'Too Short!', 'Too Long!',
 * 'Required', 'Invalid email'.
 */
export const V = {
  tooShort: 'tooShort',
  tooLong: 'tooLong',
  required: 'required',
  invalidEmail: 'invalidEmail',
  invalidPhone: 'invalidPhone',
  invalid: 'invalid',
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

/** Numeric id in a path (`/users/:id`). */
export const ZIdParam = z.object({ id: z.coerce.number().int().positive() });

/** `pageNumber` (1-based) and `searchParam` of paged lists. */
export const ZPageQuery = z.object({
  searchParam: z.string().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});

/** Accepts an ISO date-time string or Date and returns the ISO string. */
export const ZDateString = z.string();

export const ZEnabled = z.enum(['enabled', 'disabled']);
