import { z } from 'zod';
import { boundedString, V, ZEmail } from './common.js';
import { ZClassicFeatureMap, ZPlan } from './plans.js';
import { ZSetting } from './settings.js';
import { ZPublicUser } from './users.js';

/** POST /auth/login body. */
export const ZLoginBody = z.object({
  email: ZEmail,
  password: z.string({ error: V.required }).min(1, V.required).max(200, V.tooLong),
});
export type LoginBody = z.infer<typeof ZLoginBody>;

/** The company as the session sees it: due date, plan flags and settings. */
export const ZSessionCompany = z.object({
  id: z.number(),
  name: z.string(),
  dueDate: z.string().nullable(),
  status: z.boolean(),
  settings: z.array(ZSetting),
  plan: ZPlan.nullable(),
});

/**
 * The session user. `effectiveUserFeatures` is the classic client's feature map for this user (plan
 * and profile, classic-features.ts); the server always sends it, Zapdesk's own web app does not read it.
 */
export const ZSessionUser = ZPublicUser.extend({
  company: ZSessionCompany,
  effectiveUserFeatures: ZClassicFeatureMap.optional(),
});
export type SessionUser = z.infer<typeof ZSessionUser>;

/**
 * Answer of login and refresh_token: the access token and the user with its company.
 * `dueDateWarningDays` is set when the subscription ends in fewer than 5 days (core section 4 Session).
 */
export const ZAuthResponse = z.object({
  token: z.string(),
  user: ZSessionUser,
  dueDateWarningDays: z.number().nullable(),
});
export type AuthResponse = z.infer<typeof ZAuthResponse>;

/**
 * POST /companies/cadastro (document 3 sections 5 and 9). Server-owned fields (dueDate, status,
 * recurrence, planId, campaignsEnabled) are accepted for client compatibility and ignored.
 */
export const ZSignupBody = z.object({
  name: boundedString(2, 50),
  email: ZEmail,
  phone: z
    .string()
    .trim()
    .transform((v) => v.replace(/\D/g, ''))
    .pipe(
      z
        .string()
        .max(11, V.tooLong)
        .refine((v) => v.length === 0 || v.length >= 10, V.invalidPhone),
    )
    .optional()
    .default(''),
  password: z.string({ error: V.required }).min(5, V.tooShort).max(50, V.tooLong),
  planId: z.unknown().optional(),
  recurrence: z.unknown().optional(),
  dueDate: z.unknown().optional(),
  status: z.unknown().optional(),
  campaignsEnabled: z.unknown().optional(),
  companyId: z.unknown().optional(),
});
export type SignupBody = z.input<typeof ZSignupBody>;

export const ZSignupResponse = z.object({ companyId: z.number(), userId: z.number(), dueDate: z.string() });
