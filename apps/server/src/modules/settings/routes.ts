import {
  isNumberSetting,
  isValidNumberSetting,
  isValidSettingValue,
  SETTING_KEYS,
  type SettingKey,
  ZSetting,
  ZUpdateSettingBody,
} from '@zapdesk/shared';
import { asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext, ZodApp } from '../../context.js';
import { settings } from '../../db/schema/index.js';
import { AppError } from '../../lib/app-error.js';
import { adminRoute, userRoute } from '../../lib/guards.js';
import { routeTable } from '../common/route-table.js';

/**
 * PUT /settings/:key (admin): sets one company setting and emits `company-{id}-settings`.
 * @throws ERR_NO_SETTING_FOUND for an unknown key, ERR_VALIDATION (field value) for a value the
 *   key does not allow.
 */
export async function updateSetting(ctx: AppContext, companyId: number, key: string, value: string) {
  if (!validSetting(key, value)) {
    throw new AppError('ERR_VALIDATION', { extra: { field: 'value', message: 'invalid' } });
  }
  const [row] = await ctx.db
    .insert(settings)
    .values({ companyId, key, value })
    .onConflictDoUpdate({ target: [settings.companyId, settings.key], set: { value, updatedAt: sql`now()` } })
    .returning({ key: settings.key, value: settings.value });
  ctx.realtime.toCompany(companyId, 'settings', { action: 'update', setting: row! });
  return row!;
}

/**
 * Whether `value` may be stored under `key`: one of the key's values, or for a number setting a
 * whole number within its bounds. @throws ERR_NO_SETTING_FOUND for an unknown key.
 */
function validSetting(key: string, value: string): boolean {
  if (isNumberSetting(key)) return isValidNumberSetting(key, value);
  if (!SETTING_KEYS.includes(key as SettingKey)) throw new AppError('ERR_NO_SETTING_FOUND');
  return isValidSettingValue(key as SettingKey, value);
}

/** Settings API (core section 7, document 2 section 7 Settings). */
export function settingRoutes(app: ZodApp, ctx: AppContext): void {
  const tags = ['settings'];
  const route = routeTable(app, tags, userRoute);
  route.get('/settings', { reply: z.array(ZSetting) }, (request) =>
    ctx.db
      .select({ key: settings.key, value: settings.value })
      .from(settings)
      .where(eq(settings.companyId, request.auth.companyId))
      .orderBy(asc(settings.key)),
  );
  route.put(
    '/settings/:key',
    {
      guard: adminRoute,
      params: z.object({ key: z.string().max(100) }),
      body: ZUpdateSettingBody,
      reply: ZSetting,
    },
    (request) => {
      const { key, value } = request.body;
      if (key !== undefined && key !== request.params.key) {
        throw new AppError('ERR_VALIDATION', { extra: { field: 'key', message: 'mismatch' } });
      }
      return updateSetting(ctx, request.auth.companyId, request.params.key, value);
    },
  );
}
