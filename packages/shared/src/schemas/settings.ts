import { z } from 'zod';
import { SETTING_KEYS, type SettingKey } from '../settings.js';

export const ZSetting = z.object({ key: z.string(), value: z.string() });
export type Setting = z.infer<typeof ZSetting>;

export const ZSettingKeyParam = z.object({ key: z.enum(SETTING_KEYS as [SettingKey, ...SettingKey[]]) });
/**
 * PUT /settings/{key} body (document 2 section 7): the value, and the key again as the classic
 * client sends it (when present it must name the same setting as the path).
 */
export const ZUpdateSettingBody = z.object({
  key: z.string().max(100).optional(),
  value: z.string().max(5000),
});
