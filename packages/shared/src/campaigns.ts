/**
 * Campaign statuses, limits and setting defaults (document 2 sections 4 and 9). No zod here, so the
 * campaign pages load no schema code before a form opens (docs/web.md, "Web delivery"); the
 * request and response schemas are in schemas/campaigns.ts.
 */

/**
 * Campaign statuses (document 2 section 4): INATIVA (new), PROGRAMADA (waits for scheduledAt),
 * EM_ANDAMENTO (sending), CANCELADA (stopped; can be restarted), FINALIZADA (every shipping is
 * delivered or failed).
 */
export const CAMPAIGN_STATUSES = [
  'INATIVA',
  'PROGRAMADA',
  'EM_ANDAMENTO',
  'CANCELADA',
  'FINALIZADA',
] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** A scheduled campaign stays editable until this long before scheduledAt, ms (document 2 section 9). */
export const CAMPAIGN_EDIT_LEAD_MS = 60 * 60 * 1000;

/** Message variants of a campaign (document 2 section 9: up to 5). */
export const CAMPAIGN_MESSAGE_KEYS = ['message1', 'message2', 'message3', 'message4', 'message5'] as const;

/** Confirmation message variants (with `confirmation` on, one is sent when the customer answers). */
export const CAMPAIGN_CONFIRMATION_KEYS = [
  'confirmationMessage1',
  'confirmationMessage2',
  'confirmationMessage3',
  'confirmationMessage4',
  'confirmationMessage5',
] as const;

/** Longest message variant, characters (WhatsApp's text limit). */
export const CAMPAIGN_MESSAGE_MAX = 4096;

/** Interval options, seconds (document 2 section 9). */
export const CAMPAIGN_MESSAGE_INTERVAL_OPTIONS = [0, 5, 10, 15, 20] as const;
/** longerIntervalAfter options (sends) and greaterInterval options (seconds), document 2 section 9. */
export const CAMPAIGN_LONGER_INTERVAL_OPTIONS = [0, 1, 5, 10, 15, 20, 30, 40, 60, 80, 100, 120] as const;

/** Largest campaign media upload, bytes (WhatsApp's 16 MB). */
export const CAMPAIGN_MEDIA_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Defaults of the campaign settings: the spec's intervals (document 2 section 9) and ours for bulk
 * senders: random jitter of up to 5 s added to every wait, a send window of
 * 08:00–20:00 in the company's time zone, at most 1,000 campaign sends per connection per day, and
 * the opt-out keyword 'SAIR'.
 */
export const CAMPAIGN_SETTINGS_DEFAULTS = {
  messageInterval: 20,
  longerIntervalAfter: 20,
  greaterInterval: 60,
  variables: [] as { key: string; value: string }[],
  jitterSeconds: 5,
  sendWindowStart: '08:00',
  sendWindowEnd: '20:00',
  dailyCap: 1000,
  optOutKeyword: 'SAIR',
} as const;

/** A shipping's state: waiting, sent, failed, or skipped (opted out or no longer valid). */
export const CAMPAIGN_SHIPPING_STATUSES = ['pending', 'delivered', 'failed', 'skipped'] as const;
export type CampaignShippingStatus = (typeof CAMPAIGN_SHIPPING_STATUSES)[number];
