import { isValid, parseISO } from 'date-fns';
import { z } from 'zod';
import { RECURRENCES } from '../constants.js';
import { countedPageOf } from './answers.js';
import { boundedString, INT4_MAX, V, ZEmail, ZId, ZPageQuery } from './common.js';
import { ZCompany } from './companies.js';

/**
 * Password rules of the reset page (document 3 section 5): at least 8 characters with a digit, a
 * lowercase and an uppercase letter; at most 50 like every other password.
 */
export const ZNewPassword = z
  .string({ error: V.required })
  .min(1, V.required)
  .min(8, V.tooShort)
  .max(50, V.tooLong)
  .refine((v) => /\d/.test(v) && /[a-z]/.test(v) && /[A-Z]/.test(v), 'weakPassword');

/** The verification code a reset e-mail carries: 8 digits (spaces and dashes typed along are dropped). */
export const ZResetCode = z
  .string({ error: V.required })
  .max(40, V.tooLong)
  .transform((v) => v.replace(/[\s-]/g, ''))
  .pipe(z.string().min(1, V.required).max(20, V.tooLong));

/** POST /forgetpassword body (the e-mail may also come in the path). */
export const ZForgotPasswordBody = z.object({ email: ZEmail });
export type ForgotPasswordBody = z.infer<typeof ZForgotPasswordBody>;

/** POST /resetpasswords body (the three values may also come in the path). */
export const ZResetPasswordBody = z.object({ email: ZEmail, token: ZResetCode, password: ZNewPassword });
export type ResetPasswordBody = z.input<typeof ZResetPasswordBody>;

/** Answer of both password-reset calls. */
export const ZPasswordResetResponse = z.object({ status: z.literal('ok') });

/** A plan's count limit (users, connections, queues). */
const ZPlanLimit = z.number().int().min(0).max(100_000);

/** POST /plans body; PUT /plans/:id takes any part of it (document 3 section 3 Plan). */
export const ZPlanBody = z.object({
  name: boundedString(1, 100),
  /** Monthly price in BRL, cents at most. */
  value: z
    .number()
    .min(0)
    .max(1_000_000_000)
    .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, V.invalid),
  users: ZPlanLimit.min(1),
  connections: ZPlanLimit,
  queues: ZPlanLimit,
  useCampaigns: z.boolean().default(false),
  useSchedules: z.boolean().default(false),
  useInternalChat: z.boolean().default(false),
  useExternalApi: z.boolean().default(false),
  useKanban: z.boolean().default(false),
  useOpenAi: z.boolean().default(false),
  useIntegrations: z.boolean().default(false),
  useReports: z.boolean().default(false),
});
export type PlanBody = z.input<typeof ZPlanBody>;

/** Earliest and latest company due date accepted (UTC). */
const DUE_DATE_MIN = Date.UTC(2000, 0, 1);
const DUE_DATE_MAX = Date.UTC(2100, 11, 31, 23, 59, 59, 999);

/**
 * A company due date: a real calendar date ('2026-12-01', read as UTC midnight) or ISO date-time
 * (date-fns `parseISO`, which refuses '2026-02-30' and words such as 'now') between 2000-01-01 and
 * 2100-12-31, answered as an ISO string; empty or null is null (never expires). Anything else is a
 * validation error. Parsing its own output gives the same value.
 */
const ZDueDate = z
  .union([z.string().max(40), z.null()])
  .refine(
    (v) => {
      if (!v) return true;
      const time = new Date(v).getTime();
      return isValid(parseISO(v)) && !Number.isNaN(time) && time >= DUE_DATE_MIN && time <= DUE_DATE_MAX;
    },
    { message: 'invalid' },
  )
  .transform((v) => (v ? new Date(v).toISOString() : null));

/**
 * POST /companies body (super user); PUT /companies/:id takes any part of it. With `password`, a
 * company admin is created with the company's e-mail.
 */
export const ZCompanyBody = z.object({
  name: boundedString(2, 100),
  email: z
    .union([ZEmail, z.literal('')])
    .nullish()
    .transform((v) => v || null),
  phone: z
    .string()
    .max(30, V.tooLong)
    .nullish()
    .transform((v) => v?.trim() || null),
  planId: ZId,
  status: z.boolean().default(true),
  campaignsEnabled: z.boolean().default(false),
  dueDate: ZDueDate.optional().default(null),
  recurrence: z
    .enum(RECURRENCES)
    .nullish()
    .transform((v) => v ?? null),
  password: z.string().min(5, V.tooShort).max(50, V.tooLong).optional(),
});
export type CompanyBody = z.input<typeof ZCompanyBody>;

/** GET /companies query (super user). */
export const ZCompaniesQuery = ZPageQuery;

/** A company row of the super user's list, with its number of users. */
export const ZCompanyRow = ZCompany.extend({ userCount: z.number().int().min(0).max(INT4_MAX) });
export type CompanyRow = z.infer<typeof ZCompanyRow>;

/** GET /companies answer. */
export const ZCompaniesPage = countedPageOf('companies', ZCompanyRow);
export type CompaniesPage = z.infer<typeof ZCompaniesPage>;

/** Months the Expire action adds per recurrence (document 3 sections 4 and 9). */
export const RECURRENCE_MONTHS = { MENSAL: 1, BIMESTRAL: 2, TRIMESTRAL: 3, SEMESTRAL: 6, ANUAL: 12 } as const;

/** Colour of a company row in the super user's list. */
export type DueDateColour = 'none' | 'yellow' | 'orange' | 'red';

/**
 * Colour of a company row by whole days from `now` to its due date, truncated toward zero
 * (document 3 section 9): 5 days yellow, -3 to 4 orange, -4 red; further past stays red (our
 * reading: an expired company must not turn back to plain), 6 or more days and no date are plain.
 */
export function dueDateColour(dueDate: string | null, now: number = Date.now()): DueDateColour {
  if (!dueDate) return 'none';
  const time = new Date(dueDate).getTime();
  if (Number.isNaN(time)) return 'none';
  const days = Math.trunc((time - now) / 86_400_000);
  if (days === 5) return 'yellow';
  if (days >= -3 && days <= 4) return 'orange';
  if (days <= -4) return 'red';
  return 'none';
}
