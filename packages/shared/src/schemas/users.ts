import { z } from 'zod';
import { LANGUAGES } from '../constants.js';
import { pageOf, timestampFields } from './answers.js';
import { boundedString, V, ZEmail, ZId } from './common.js';
import { ZQueueRef } from './queues.js';
import { ZUserBillingFields } from './user-billing.js';

export const ZProfile = z.enum(['admin', 'user']);
/** allTicket values, spelled as the spec does ('desabled'). */
export const ZAllTicket = z.enum(['enabled', 'desabled']);
/** What users say of themselves: 'away' takes them out of automatic assignment. */
export const ZAvailability = z.enum(['online', 'away']);

/**
 * A user as the API answers it; never carries the password hash. `company.dueDate` (core section
 * 3, ISO timestamp or null when the subscription never expires) is the user's company's due date.
 */
export const ZPublicUser = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  profile: ZProfile,
  super: z.boolean(),
  online: z.boolean(),
  allTicket: ZAllTicket,
  whatsappId: z.number().nullable(),
  language: z.string().nullable(),
  maxOpenTickets: z.number(),
  availability: ZAvailability,
  companyId: z.number(),
  queues: z.array(ZQueueRef),
  company: z.object({ dueDate: z.string().nullable() }),
  /** Billing data (document 3): the user's own and admins' view; '' for other members. */
  phone: z.string(),
  cnpjCpf: z.string(),
  address: z.string(),
  city: z.string(),
  state: z.string(),
  zipcode: z.string(),
  country: z.string(),
  ...timestampFields,
});
export type PublicUser = z.infer<typeof ZPublicUser>;

/** The most open tickets automatic assignment gives one user (0: unlimited). */
export const MAX_OPEN_TICKETS_LIMIT = 1000;
const ZMaxOpenTickets = z.number().int(V.invalid).min(0, V.invalid).max(MAX_OPEN_TICKETS_LIMIT, V.invalid);

const password = z.string().min(5, V.tooShort).max(50, V.tooLong);

/** POST /users (core section 5 user form). */
export const ZCreateUserBody = z.object({
  name: boundedString(2, 50),
  email: ZEmail,
  password,
  profile: ZProfile.optional().default('user'),
  allTicket: ZAllTicket.optional().default('desabled'),
  whatsappId: ZId.nullable().optional(),
  queueIds: z.array(ZId).max(500).optional().default([]),
  maxOpenTickets: ZMaxOpenTickets.optional(),
});
export type CreateUserBody = z.input<typeof ZCreateUserBody>;

/**
 * PUT /users/:id: every field optional; an empty password keeps the old one. The billing fields
 * (phone, cnpjCpf, address, city, state, zipcode, country) are the user's own data.
 */
export const ZUpdateUserBody = ZUserBillingFields.extend({
  name: boundedString(2, 50).optional(),
  email: ZEmail.optional(),
  password: z.union([z.literal(''), password]).optional(),
  profile: ZProfile.optional(),
  allTicket: ZAllTicket.optional(),
  whatsappId: ZId.nullable().optional(),
  queueIds: z.array(ZId).max(500).optional(),
  /** Admins only. */
  maxOpenTickets: ZMaxOpenTickets.optional(),
  /** The user's own availability (anyone may set their own). */
  availability: ZAvailability.optional(),
});
export type UpdateUserBody = z.input<typeof ZUpdateUserBody>;

export const ZUserListItem = z.object({ id: z.number(), name: z.string() });

/**
 * One agent's load (GET /users/load, admins): open tickets held now, capacity (`maxOpenTickets`, 0 =
 * unlimited), what they say of themselves, whether they have a live socket on any node, their queues.
 */
export const ZUserLoad = z.object({
  id: z.number(),
  name: z.string(),
  profile: ZProfile,
  openTickets: z.number(),
  maxOpenTickets: z.number(),
  availability: ZAvailability,
  online: z.boolean(),
  queues: z.array(ZQueueRef),
});
export type UserLoad = z.infer<typeof ZUserLoad>;

export const ZUsersPage = pageOf('users', ZPublicUser).extend({ count: z.number() });
export type UsersPage = z.infer<typeof ZUsersPage>;

export const ZLanguageParam = z.object({ lang: z.enum(LANGUAGES) });
