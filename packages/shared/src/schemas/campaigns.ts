import { z } from 'zod';
import {
  CAMPAIGN_MESSAGE_MAX,
  CAMPAIGN_SHIPPING_STATUSES,
  CAMPAIGN_STATUSES,
  type CampaignStatus,
} from '../campaigns.js';
import { countedPageOf, mediaFields, timestampFields, ZNamedRef } from './answers.js';
import { boundedString, V, ZId, ZIdParam, ZPageQuery } from './common.js';

/** A custom variable of the campaign settings, used in campaign messages as `{{key}}`. */
export const ZCampaignVariable = z.object({
  key: z
    .string({ error: V.required })
    .trim()
    .min(1, V.required)
    .max(50, V.tooLong)
    .regex(/^[\p{L}\p{N}_-]+$/u, V.invalid),
  value: z.string().max(1000, V.tooLong),
});
export type CampaignVariable = z.infer<typeof ZCampaignVariable>;

const ZClock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, V.invalid);

/** Campaign settings of a company (document 2 section 3 "Campaign settings", plus ours). */
export const ZCampaignSettings = z.object({
  /** Seconds between two sends on one connection. */
  messageInterval: z.number().int().min(0).max(3600),
  /** After this many sends the wait is greaterInterval instead (0 = never). */
  longerIntervalAfter: z.number().int().min(0).max(10_000),
  /** Seconds of the longer wait. */
  greaterInterval: z.number().int().min(0).max(3600),
  variables: z.array(ZCampaignVariable).max(50),
  /** Up to this many random seconds added to each wait (0 = none). */
  jitterSeconds: z.number().int().min(0).max(600),
  /** Sends happen only between these clock times (HH:mm, the company's time zone); equal = all day. */
  sendWindowStart: ZClock,
  sendWindowEnd: ZClock,
  /** Most campaign sends per connection per calendar day (company time zone); 0 = no cap. */
  dailyCap: z.number().int().min(0).max(1_000_000),
  /** An inbound message equal to this word (case and accents ignored) opts the contact out; '' = off. */
  optOutKeyword: z.string().trim().max(30),
});
export type CampaignSettings = z.infer<typeof ZCampaignSettings>;

/**
 * GET /campaign-settings answer and POST /campaign-settings body: `{ settings }` (document 2
 * section 7). POST takes any subset of the fields and keeps the others; variables with duplicate
 * keys are refused (section 5).
 */
export const ZCampaignSettingsAnswer = z.object({ settings: ZCampaignSettings });
export const ZCampaignSettingsBody = z.object({
  settings: ZCampaignSettings.partial().refine(
    (s) => !s.variables || new Set(s.variables.map((v) => v.key)).size === s.variables.length,
    { message: V.invalid, path: ['variables'] },
  ),
});
export type CampaignSettingsBody = z.input<typeof ZCampaignSettingsBody>;

/** Totals of a campaign's report. */
export const ZCampaignTotals = z.object({
  recipients: z.number(),
  delivered: z.number(),
  pending: z.number(),
  failed: z.number(),
  confirmed: z.number(),
  skipped: z.number(),
});
export type CampaignTotals = z.infer<typeof ZCampaignTotals>;

/** A campaign (document 2 section 3). Dates are ISO strings. */
export const ZCampaign = z.object({
  id: z.number(),
  name: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
  message1: z.string(),
  message2: z.string(),
  message3: z.string(),
  message4: z.string(),
  message5: z.string(),
  confirmation: z.boolean(),
  confirmationMessage1: z.string(),
  confirmationMessage2: z.string(),
  confirmationMessage3: z.string(),
  confirmationMessage4: z.string(),
  confirmationMessage5: z.string(),
  scheduledAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  whatsappId: z.number().nullable(),
  contactListId: z.number().nullable(),
  tagId: z.number().nullable(),
  fileListId: z.number().nullable(),
  companyId: z.number(),
  ...mediaFields,
  /** Cloud API connections: the approved template sent outside the 24-hour window. */
  templateName: z.string().nullable(),
  templateLanguage: z.string().nullable(),
  contactList: ZNamedRef.nullable(),
  whatsapp: ZNamedRef.nullable(),
  /** Whether the dialog may save it (document 2 section 4). */
  editable: z.boolean(),
  ...timestampFields,
});
export type Campaign = z.infer<typeof ZCampaign>;

/** GET /campaigns/:id: the campaign and its report totals. */
export const ZCampaignDetail = ZCampaign.extend({ totals: ZCampaignTotals });
export type CampaignDetail = z.infer<typeof ZCampaignDetail>;

/** GET /campaigns page (document 2 section 7): `records`, `hasMore`, and `count` of all matches. */
export const ZCampaignsPage = countedPageOf('records', ZCampaign);
export type CampaignsPage = z.infer<typeof ZCampaignsPage>;

/** GET /campaigns query: search text on the name, page. */
export const ZCampaignsQuery = ZPageQuery;

const ZMessage = z.string().max(CAMPAIGN_MESSAGE_MAX, V.tooLong).default('');
const ZOptionalId = z.union([ZId, z.null()]).optional().default(null);
const DATE_MIN = Date.UTC(2000, 0, 1);
const DATE_MAX = Date.UTC(2100, 0, 1);

/**
 * POST /campaigns and PUT /campaigns/:id body (document 2 sections 3 and 5): name 2 to 50
 * characters; up to 5 message variants (at least one not empty); a contact list or a tag
 * (`tagListId` is the form's name for `tagId`; both accepted); optional file list, connection
 * (the default connection when null), scheduledAt (ISO; a campaign with scheduledAt is PROGRAMADA,
 * without it INATIVA until started), confirmation flag and messages, Cloud template.
 */
const ZCampaignFields = z.object({
  name: boundedString(2, 50),
  message1: ZMessage,
  message2: ZMessage,
  message3: ZMessage,
  message4: ZMessage,
  message5: ZMessage,
  confirmation: z.boolean().optional().default(false),
  confirmationMessage1: ZMessage,
  confirmationMessage2: ZMessage,
  confirmationMessage3: ZMessage,
  confirmationMessage4: ZMessage,
  confirmationMessage5: ZMessage,
  whatsappId: ZOptionalId,
  contactListId: ZOptionalId,
  tagId: ZOptionalId,
  tagListId: z.union([ZId, z.null()]).optional(),
  fileListId: ZOptionalId,
  scheduledAt: z
    .union([
      z.iso.datetime({ offset: true, error: V.invalid }).refine((v) => {
        const at = Date.parse(v);
        return at >= DATE_MIN && at < DATE_MAX;
      }, V.invalid),
      z.null(),
    ])
    .optional()
    .default(null),
  templateName: z
    .union([z.string().trim().max(512), z.null()])
    .optional()
    .default(null),
  templateLanguage: z
    .union([z.string().trim().max(20), z.null()])
    .optional()
    .default(null),
});
export const ZCampaignBody = ZCampaignFields;
export type CampaignBody = z.input<typeof ZCampaignBody>;

/** One recipient of a campaign: a shipping row (document 2 section 3 "shipping"). */
export const ZCampaignShipping = z.object({
  id: z.number(),
  campaignId: z.number(),
  number: z.string(),
  name: z.string(),
  contactId: z.number().nullable(),
  status: z.enum(CAMPAIGN_SHIPPING_STATUSES),
  /** Which variant was sent (1–5). */
  variant: z.number().nullable(),
  message: z.string().nullable(),
  error: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  confirmationRequestedAt: z.string().nullable(),
  confirmedAt: z.string().nullable(),
});
export type CampaignShipping = z.infer<typeof ZCampaignShipping>;

/** GET /campaigns/:id/shippings query: page, search by name or number, status filter. */
export const ZCampaignShippingsQuery = ZPageQuery.extend({
  status: z.enum(CAMPAIGN_SHIPPING_STATUSES).optional(),
});

/** GET /campaigns/:id/shippings page: the report's recipient table. */
export const ZCampaignShippingsPage = countedPageOf('records', ZCampaignShipping);
export type CampaignShippingsPage = z.infer<typeof ZCampaignShippingsPage>;

/** Path params of /campaigns/:id routes. */
export const ZCampaignIdParam = ZIdParam;

/** Realtime `company-{id}-campaign` payload (document 2 section 7). */
export type CampaignEvent =
  | { action: 'create' | 'update'; record: Campaign; totals?: CampaignTotals }
  | { action: 'delete'; id: number }
  | { action: 'progress'; id: number; status: CampaignStatus; totals: CampaignTotals };
