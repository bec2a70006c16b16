import type { PushPreferences, PushSubscriptionBody } from '@zapdesk/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { pushPreferences, pushSubscriptions, pushViewing } from '../../db/schema/index.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthContext } from '../../lib/guards.js';
import { assertUrlAllowed } from '../../lib/outbound-url.js';
import { getVisibleTicket } from '../tickets/tickets-service.js';
import { hasSubscriptions, seedTicketStates } from './push-notifier.js';

/** What a user without a preferences row gets: every event, without the message text. */
export const DEFAULT_PUSH_PREFERENCES: PushPreferences = {
  newPending: true,
  assigned: true,
  customerMessage: true,
  internalChat: true,
  slaWarning: true,
  slaBreach: true,
  mention: true,
  preview: false,
};

/** Longest user agent kept with a subscription (the header can be long; it only labels the row). */
const USER_AGENT_MAX = 300;

/** The preference columns, in the API's shape. */
export const preferenceColumns = {
  newPending: pushPreferences.newPending,
  assigned: pushPreferences.assigned,
  customerMessage: pushPreferences.customerMessage,
  internalChat: pushPreferences.internalChat,
  slaWarning: pushPreferences.slaWarning,
  slaBreach: pushPreferences.slaBreach,
  mention: pushPreferences.mention,
  preview: pushPreferences.preview,
};

/**
 * Stores the caller's browser subscription (docs/operations.md "Web Push"). The endpoint must be
 * https (http only where private URLs are allowed, for a push service on the machine) and pass the
 * outbound URL policy. An endpoint already stored, of anyone, now belongs to the caller: the browser
 * profile holding it subscribed again under this sign-in.
 * @throws AppError ERR_URL_NOT_ALLOWED (field `endpoint`).
 */
export async function saveSubscription(
  ctx: AppContext,
  auth: AuthContext,
  body: PushSubscriptionBody,
  userAgent: string,
): Promise<void> {
  if (!body.endpoint.startsWith('https://') && !ctx.config.OUTBOUND_ALLOW_PRIVATE_URLS) {
    throw new AppError('ERR_URL_NOT_ALLOWED', { extra: { field: 'endpoint' } });
  }
  await assertUrlAllowed(ctx, body.endpoint, 'endpoint');
  const row = {
    companyId: auth.companyId,
    userId: auth.userId,
    endpoint: body.endpoint,
    p256dh: body.keys.p256dh,
    auth: body.keys.auth,
    userAgent: userAgent.slice(0, USER_AGENT_MAX),
  };
  if (!(await hasSubscriptions(ctx, auth.companyId))) await seedTicketStates(ctx, auth.companyId);
  await ctx.db
    .insert(pushSubscriptions)
    .values(row)
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { ...row, createdAt: sql`now()`, lastUsedAt: null },
    });
}

/**
 * Removes the caller's own subscription with `endpoint`.
 * @throws AppError ERR_NOT_FOUND when the caller has none with it.
 */
export async function deleteSubscription(
  ctx: AppContext,
  auth: AuthContext,
  endpoint: string,
): Promise<void> {
  const removed = await ctx.db
    .delete(pushSubscriptions)
    .where(
      and(
        eq(pushSubscriptions.companyId, auth.companyId),
        eq(pushSubscriptions.userId, auth.userId),
        eq(pushSubscriptions.endpoint, endpoint),
      ),
    )
    .returning({ id: pushSubscriptions.id });
  if (removed.length === 0) throw new AppError('ERR_NOT_FOUND');
}

/** The caller's push preferences (the defaults until they save some). */
export async function getPreferences(ctx: AppContext, auth: AuthContext): Promise<PushPreferences> {
  const [row] = await ctx.db
    .select(preferenceColumns)
    .from(pushPreferences)
    .where(and(eq(pushPreferences.companyId, auth.companyId), eq(pushPreferences.userId, auth.userId)));
  return row ?? DEFAULT_PUSH_PREFERENCES;
}

/** Changes the flags `changes` names, keeping the others. @returns the preferences now. */
export async function updatePreferences(
  ctx: AppContext,
  auth: AuthContext,
  changes: Partial<PushPreferences>,
): Promise<PushPreferences> {
  const next = { ...(await getPreferences(ctx, auth)), ...changes };
  await ctx.db
    .insert(pushPreferences)
    .values({ userId: auth.userId, companyId: auth.companyId, ...next })
    .onConflictDoUpdate({ target: pushPreferences.userId, set: next });
  return next;
}

/**
 * Records the ticket the caller's web app shows (null: none): pushes about it are spared while the
 * caller is connected.
 * @throws AppError ERR_NO_TICKET_FOUND when the caller may not see the ticket.
 */
export async function setViewing(ctx: AppContext, auth: AuthContext, ticketId: number | null): Promise<void> {
  if (ticketId !== null) await getVisibleTicket(ctx, auth, { id: ticketId });
  await ctx.db
    .insert(pushViewing)
    .values({ userId: auth.userId, companyId: auth.companyId, ticketId })
    .onConflictDoUpdate({ target: pushViewing.userId, set: { ticketId } });
}
