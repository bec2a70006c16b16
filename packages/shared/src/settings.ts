/**
 * Company settings keys, allowed values and defaults (document 2 section 9, document 3 section 9).
 * No zod here, so the settings page's options tab loads no schema code (docs/web.md, "Web
 * delivery"); the request schemas are in schemas/settings.ts.
 */

/** Company settings keys (document 2 section 9, document 3 section 9) and their allowed values. */
export const SETTING_VALUES = {
  userRating: ['enabled', 'disabled'],
  scheduleType: ['disabled', 'queue', 'company'],
  CheckMsgIsGroup: ['enabled', 'disabled'],
  call: ['enabled', 'disabled'],
  chatBotType: ['text'],
  sendGreetingAccepted: ['enabled', 'disabled'],
  sendMsgTransfTicket: ['enabled', 'disabled'],
  sendGreetingMessageOneQueues: ['enabled', 'disabled'],
  sendSignMessage: ['enabled', 'disabled'],
} as const;
export type SettingKey = keyof typeof SETTING_VALUES;
export const SETTING_KEYS = Object.keys(SETTING_VALUES) as SettingKey[];

/** Defaults written for every new company. */
export const DEFAULT_SETTINGS: Record<SettingKey, string> = {
  userRating: 'disabled',
  scheduleType: 'disabled',
  CheckMsgIsGroup: 'enabled',
  call: 'disabled',
  chatBotType: 'text',
  sendGreetingAccepted: 'disabled',
  sendMsgTransfTicket: 'disabled',
  sendGreetingMessageOneQueues: 'enabled',
  sendSignMessage: 'enabled',
};

/** True when `value` is allowed for `key`. */
export function isValidSettingValue(key: SettingKey, value: string): boolean {
  return (SETTING_VALUES[key] as readonly string[]).includes(value);
}

/**
 * Company settings holding a whole number, with their bounds and the value a company without the
 * row has (docs/automation.md "Automatic assignment"): `autoAssignGraceMinutes` is how long an
 * agent may stay without a live socket before their unanswered tickets go back to the queue.
 */
export const NUMBER_SETTINGS = {
  autoAssignGraceMinutes: { min: 1, max: 1440, default: 5 },
  /** Service levels: the share of a target's time after which the warning goes out (docs/reports.md). */
  slaWarningPercent: { min: 1, max: 99, default: 80 },
} as const;
export type NumberSettingKey = keyof typeof NUMBER_SETTINGS;

/** True when `key` is a number setting. */
export function isNumberSetting(key: string): key is NumberSettingKey {
  return Object.hasOwn(NUMBER_SETTINGS, key);
}

/** True when `value` is a whole number within the bounds of number setting `key`. */
export function isValidNumberSetting(key: NumberSettingKey, value: string): boolean {
  const { min, max } = NUMBER_SETTINGS[key];
  return /^\d{1,9}$/.test(value) && Number(value) >= min && Number(value) <= max;
}

/** The stored text `value` of number setting `key` as a number; the key's default when missing or invalid. */
export function numberSettingOf(key: NumberSettingKey, value: string | null | undefined): number {
  return value != null && isValidNumberSetting(key, value) ? Number(value) : NUMBER_SETTINGS[key].default;
}
