import type { PixSettings } from '@zapdesk/shared';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { platformBilling } from '../../db/schema/index.js';

/** The platform's Pix receiver (manual provider); empty strings when never set. */
export async function getPixSettings(ctx: AppContext): Promise<PixSettings> {
  const [row] = await ctx.db.select().from(platformBilling);
  return {
    pixKey: row?.pixKey ?? '',
    merchantName: row?.merchantName ?? '',
    merchantCity: row?.merchantCity ?? '',
  };
}

/** Saves the fields given (PUT semantics) of the platform's Pix receiver; returns the whole. */
export async function updatePixSettings(ctx: AppContext, patch: Partial<PixSettings>): Promise<PixSettings> {
  const current = await getPixSettings(ctx);
  const next = { ...current, ...patch };
  await ctx.db
    .insert(platformBilling)
    .values({ id: 1, ...next })
    .onConflictDoUpdate({ target: platformBilling.id, set: { ...next, updatedAt: sql`now()` } });
  return next;
}
