import { z } from 'zod';
import { SETTING_KEYS, type SettingKey } from '../settings.js';

export const ZSetting = z.object({ key: z.string(), value: z.string() });
export type Setting = z.infer<typeof ZSetting>;

export const ZSettingKeyParam = z.object({ key: z.enum(SETTING_KEYS as [SettingKey, ...SettingKey[]]) });
export const ZUpdateSettingBody = z.object({ value: z.string().max(5000) });
