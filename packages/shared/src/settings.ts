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
