/** Business constants of core document section 9 and document 3 section 9. */
export const SEARCH_DEBOUNCE_MS = 500;
export const FORM_SUBMIT_DELAY_MS = 400;
export const HISTORY_LOAD_THRESHOLD_PX = 50;
export const LIST_LOAD_THRESHOLD_PX = 100;
export const CONTACT_SEARCH_MIN_CHARS = 3;
export const QUICK_REPLY_LABEL_LENGTH = 35;
export const AUDIO_MIN_BYTES = 10_000;
export const COMPOSER_MAX_ROWS = 5;
export const SOCKET_PING_MS = 18_000;
export const SOCKET_HEARTBEAT_MS = 300_000;
export const RELOAD_DELAY_MS = 1_000;
export const MENU_BADGE_CHECK_MS = 2_000;
export const DUE_DATE_WARNING_DAYS = 5;
export const TOAST_ERROR_MS = 2_000;
export const APP_VERSION = '8.0.1';
/** Page size of paged lists (users, tickets, contacts...). */
export const PAGE_SIZE = 20;
/** Free-trial plan name (document 3): hidden from the plans page, used by public signup. */
export const FREE_TRIAL_PLAN_NAME = 'Teste Gratis';
export const SIGNUP_TRIAL_DAYS = 7;
export const LANGUAGES = ['pt', 'en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const RECURRENCES = ['MENSAL', 'BIMESTRAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'] as const;
export type Recurrence = (typeof RECURRENCES)[number];
/** Local-storage keys used by the web client. */
export const STORAGE_KEYS = {
  token: 'token',
  companyId: 'companyId',
  userId: 'userId',
  language: 'i18nextLng',
  theme: 'preferredTheme',
  volume: 'volume',
  signMessage: 'signOption',
  todo: 'tasks',
  cshow: 'cshow',
} as const;
/**
 * Period options of the dashboard filter (core section 9), in days. Here rather than beside the
 * dashboard schemas, so the web page that lists them loads no zod.
 */
export const DASHBOARD_PERIODS = [3, 7, 15, 30, 60, 90] as const;
