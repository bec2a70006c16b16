/**
 * Campaign shapes the pages speak (document 2 sections 3, 4 and 9). Kept here until the shared
 * campaign schemas land; the names follow the spec's fields.
 */

/** Campaign statuses (document 2 section 4). */
export const CAMPAIGN_STATUSES = [
  'INATIVA',
  'PROGRAMADA',
  'EM_ANDAMENTO',
  'CANCELADA',
  'FINALIZADA',
] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** A campaign has up to five message variants (document 2 section 9). */
export const MESSAGE_VARIANTS = [1, 2, 3, 4, 5] as const;

/** A scheduled campaign is editable only more than this many ms ahead (section 9: one hour). */
export const CAMPAIGN_EDIT_LEAD_MS = 60 * 60 * 1000;

/** messageInterval options in seconds (section 9) and its default. */
export const MESSAGE_INTERVAL_OPTIONS = [0, 5, 10, 15, 20] as const;
/** longerIntervalAfter (sends) and greaterInterval (seconds) options (section 9). */
export const LONGER_INTERVAL_OPTIONS = [0, 1, 5, 10, 15, 20, 30, 40, 60, 80, 100, 120] as const;

export interface Campaign {
  id: number;
  name: string;
  message1: string;
  message2: string;
  message3: string;
  message4: string;
  message5: string;
  confirmation: boolean;
  confirmationMessage1: string;
  confirmationMessage2: string;
  confirmationMessage3: string;
  confirmationMessage4: string;
  confirmationMessage5: string;
  status: CampaignStatus;
  scheduledAt: string | null;
  completedAt: string | null;
  whatsappId: number | null;
  contactListId: number | null;
  tagId: number | null;
  fileListId: number | null;
  mediaPath: string | null;
  mediaName: string | null;
  templateName?: string | null;
  templateLanguage?: string | null;
  contactList?: { id: number; name: string } | null;
  tag?: { id: number; name: string } | null;
  whatsapp?: { id: number; name: string } | null;
}

export interface CampaignsPage {
  records: Campaign[];
  hasMore: boolean;
}

/** POST/PUT /campaigns body. */
export interface CampaignBody {
  name: string;
  message1: string;
  message2: string;
  message3: string;
  message4: string;
  message5: string;
  confirmation: boolean;
  confirmationMessage1: string;
  confirmationMessage2: string;
  confirmationMessage3: string;
  confirmationMessage4: string;
  confirmationMessage5: string;
  scheduledAt: string | null;
  whatsappId: number | null;
  contactListId: number | null;
  tagId: number | null;
  fileListId: number | null;
  templateName?: string | null;
  templateLanguage?: string | null;
}

export interface CampaignVariable {
  key: string;
  value: string;
}

/** GET/POST /campaign-settings (`{ settings }` on POST): the spec's intervals plus our pacing fields. */
export interface CampaignSettings {
  messageInterval: number;
  longerIntervalAfter: number;
  greaterInterval: number;
  variables: CampaignVariable[];
  sendWindowStart: string | null;
  sendWindowEnd: string | null;
  dailyCap: number | null;
  jitterSeconds: number;
  optOutKeyword: string | null;
}

/** Totals of a campaign's report. */
export interface CampaignTotals {
  recipients: number;
  delivered: number;
  pending: number;
  failed: number;
  confirmed: number;
}

/** One recipient of the report (a shipping). */
export interface CampaignShipping {
  id: number;
  number: string;
  name: string | null;
  status: string;
  deliveredAt: string | null;
  confirmedAt: string | null;
  error: string | null;
}

export interface CampaignReport {
  campaign: Campaign;
  totals: CampaignTotals;
}

export interface CampaignShippingsPage {
  records: CampaignShipping[];
  hasMore: boolean;
}

/** Realtime `company-{id}-campaign` payloads. */
export type CampaignEvent =
  | { action: 'create' | 'update'; record: Campaign; totals?: CampaignTotals }
  | { action: 'delete'; id: number }
  | { action: 'progress'; campaignId: number; totals: CampaignTotals; status?: CampaignStatus };
