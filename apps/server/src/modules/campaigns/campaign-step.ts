import { CAMPAIGN_MESSAGE_KEYS, DASHBOARD_TIME_ZONE } from '@zapdesk/shared';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { fillCampaignText } from '../../automation/message-variables.js';
import type { MediaStore } from '../../channels/media-store.js';
import type { OutboundSender } from '../../channels/outbound-sender.js';
import type { OutboundTicket } from '../../channels/outbound-store.js';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import {
  campaignOptOuts,
  campaignPace,
  campaignSettings,
  campaignShippings,
  campaigns,
  whatsapps,
} from '../../db/schema/index.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import { AppError } from '../../lib/app-error.js';
import { localDay, nextSendAt, type PaceSettings, planSends } from './pace.js';
import {
  campaignFiles,
  cloudWindowsOpen,
  contactsFor,
  type ShippingRow,
  shippingRows,
  ticketsFor,
} from './shipping-content.js';

/** The job sending a connection's next due shipping (keyed by the connection: one pace per connection). */
export const CAMPAIGN_PACE_JOB = 'campaign-pace';

/** The `campaign-pace` job's data. */
export interface PaceJob {
  whatsappId: number;
}

/**
 * Most shippings one pace step claims, stores and marks together, when the waits between them are
 * 0 (interval 0, no jitter). With a wait after every send a step sends one.
 */
export const STEP_BATCH = 50;

/** What one pace step did, for the run to finish after its commit. */
export type Step =
  | { kind: 'idle' }
  | { kind: 'empty' }
  | {
      kind: 'batch';
      companyId: number;
      /** The campaigns whose shippings the step marked. */
      campaignIds: number[];
      /** Messages stored at ack 0 (to hand to the session) and the shipping each group carries. */
      stored: { shippingId: number; messageIds: number[] }[];
      /** Cloud API templates to send (outside the 24-hour window), already marked delivered. */
      templates: { shippingId: number; number: string; template: { name: string; language: string } }[];
      /** The wait after the step is 0 (or nothing was sent): the run goes on instead of queueing itself. */
      again: boolean;
    };

/** What a pace step needs besides its transaction. */
export interface StepDeps {
  ctx: AppContext;
  jobs: JobQueue;
  sender: OutboundSender;
  media: MediaStore;
  /** Random source of the jitter, [0, 1). */
  random: () => number;
}

/** The company's pace settings and variables (defaults when never saved). */
export async function settingsOf(executor: Tx, companyId: number) {
  const [row] = await executor
    .select()
    .from(campaignSettings)
    .where(eq(campaignSettings.companyId, companyId));
  return {
    messageInterval: row?.messageInterval ?? 20,
    longerIntervalAfter: row?.longerIntervalAfter ?? 20,
    greaterInterval: row?.greaterInterval ?? 60,
    jitterSeconds: row?.jitterSeconds ?? 5,
    sendWindowStart: row?.sendWindowStart ?? '08:00',
    sendWindowEnd: row?.sendWindowEnd ?? '20:00',
    dailyCap: row?.dailyCap ?? 1000,
    variables: row?.variables ?? [],
  } satisfies PaceSettings & { variables: { key: string; value: string }[] };
}

interface Mark {
  id: number;
  status: 'delivered' | 'failed' | 'skipped';
  error?: string;
  contactId?: number;
  variant?: number;
  message?: string;
  messageId?: number;
  confirm?: boolean;
}

/** Marks the claimed shippings in one UPDATE (delivered ones at `now`). */
async function markShippings(tx: Tx, marks: Mark[], now: Date): Promise<void> {
  if (!marks.length) return;
  const at = now.toISOString();
  await tx.execute(sql`
    update campaign_shippings s set status = v.status, error = v.error,
      contact_id = coalesce(v.contact_id, s.contact_id), variant = coalesce(v.variant, s.variant),
      message = coalesce(v.message, s.message), message_id = coalesce(v.message_id, s.message_id),
      delivered_at = case when v.status = 'delivered' then ${at}::timestamptz else s.delivered_at end,
      confirmation_requested_at = case when v.status = 'delivered'
        then (case when v.confirm then ${at}::timestamptz end) else s.confirmation_requested_at end,
      updated_at = now()
    from (values ${sql.join(
      marks.map(
        (m) =>
          sql`(${m.id}::int, ${m.status}::text, ${m.error ?? null}::text, ${m.contactId ?? null}::int, ${m.variant ?? null}::int, ${m.message ?? null}::text, ${m.messageId ?? null}::int, ${m.confirm ?? false}::boolean)`,
      ),
      sql`, `,
    )}) as v(id, status, error, contact_id, variant, message, message_id, confirm)
    where s.id = v.id`);
}

/**
 * After `sent` sends of `plan` at `now`: counts them (run, local day) and sets the connection's
 * nextAt after the last one's wait, queueing the pace job due then, inside `tx` (none for a wait of
 * 0: the running job goes on). @returns the wait, seconds.
 */
async function advancePace(
  deps: StepDeps,
  tx: Tx,
  pace: typeof campaignPace.$inferSelect,
  plan: { seconds: number; sentInRun: number }[],
  sent: number,
  now: Date,
): Promise<number> {
  const last = plan[sent - 1]!;
  const day = localDay(now, DASHBOARD_TIME_ZONE);
  await tx
    .update(campaignPace)
    .set({
      nextAt: new Date(now.getTime() + last.seconds * 1000),
      lastSentAt: now,
      sentInRun: last.sentInRun,
      day,
      sentToday: day === pace.day ? pace.sentToday + sent : sent,
      updatedAt: sql`now()`,
    })
    .where(eq(campaignPace.whatsappId, pace.whatsappId));
  if (last.seconds > 0)
    await deps.jobs.send<PaceJob>(
      CAMPAIGN_PACE_JOB,
      { whatsappId: pace.whatsappId },
      { tx, startAfterSeconds: Math.ceil(last.seconds) },
    );
  return last.seconds;
}

/**
 * One pace step of a connection inside `tx` (docs/automation.md "Campaign engine"): when its
 * nextAt is due, its session connected and the send window and daily cap allow, claims its next
 * due pending shippings of EM_ANDAMENTO campaigns (`planSends`: a batch with interval 0, else one)
 * with FOR UPDATE SKIP LOCKED, resolves their contacts and tickets set-based, stores their messages
 * at ack 0 (`OutboundSender.storeManyWithin`), marks them in one UPDATE (delivered, failed, or
 * skipped for opt-outs) and advances the pace — all in `tx`, so the claim, the stored messages and
 * the marks commit together or not at all. Delivery happens after the commit (`runPace`).
 */
export async function paceStep(deps: StepDeps, tx: Tx, whatsappId: number): Promise<Step> {
  const [pace] = await tx
    .select()
    .from(campaignPace)
    .where(eq(campaignPace.whatsappId, whatsappId))
    .for('update');
  if (!pace) return { kind: 'idle' };
  const now = new Date();
  // A run is queued for nextAt already (each send queues the next in its transaction).
  if (pace.nextAt && pace.nextAt.getTime() > now.getTime() + 250) return { kind: 'idle' };
  const [connection] = await tx
    .select({ status: whatsapps.status, provider: whatsapps.provider })
    .from(whatsapps)
    .where(eq(whatsapps.id, whatsappId));
  if (connection?.status !== 'CONNECTED') return { kind: 'idle' };
  const settings = await settingsOf(tx, pace.companyId);
  const allowedAt = nextSendAt(now, settings, pace, DASHBOARD_TIME_ZONE);
  if (allowedAt.getTime() > now.getTime()) {
    await tx.update(campaignPace).set({ nextAt: allowedAt }).where(eq(campaignPace.whatsappId, whatsappId));
    await deps.jobs.send<PaceJob>(
      CAMPAIGN_PACE_JOB,
      { whatsappId },
      { tx, startAfterSeconds: Math.ceil((allowedAt.getTime() - now.getTime()) / 1000) },
    );
    return { kind: 'idle' };
  }
  const plan = planSends(pace, settings, now, deps.random, STEP_BATCH);
  const claimed = await tx
    .select({ shipping: campaignShippings, campaign: campaigns })
    .from(campaignShippings)
    .innerJoin(campaigns, eq(campaigns.id, campaignShippings.campaignId))
    .where(
      and(
        eq(campaignShippings.whatsappId, whatsappId),
        eq(campaignShippings.status, 'pending'),
        eq(campaigns.status, 'EM_ANDAMENTO'),
      ),
    )
    .orderBy(asc(campaignShippings.id))
    .limit(plan.length)
    .for('update', { of: campaignShippings, skipLocked: true });
  if (!claimed.length) return { kind: 'empty' };
  const companyId = claimed[0]!.shipping.companyId;
  const marks: Mark[] = [];
  const optedOut = new Set(
    (
      await tx
        .select({ number: campaignOptOuts.number })
        .from(campaignOptOuts)
        .where(
          and(
            eq(campaignOptOuts.companyId, companyId),
            inArray(
              campaignOptOuts.number,
              claimed.map((c) => c.shipping.number),
            ),
          ),
        )
    ).map((r) => r.number),
  );
  const live = claimed.filter(({ shipping }) => {
    if (!optedOut.has(shipping.number)) return true;
    marks.push({ id: shipping.id, status: 'skipped', error: 'opt-out' });
    return false;
  });
  const contacts = await contactsFor(
    tx,
    companyId,
    live.map(({ shipping }) => ({ number: shipping.number, name: shipping.name })),
  );
  const windows =
    connection.provider === 'cloud'
      ? await cloudWindowsOpen(
          tx,
          companyId,
          [...contacts.values()].map((c) => c.id),
          whatsappId,
        )
      : undefined;
  const templates: Extract<Step, { kind: 'batch' }>['templates'] = [];
  const texts: typeof live = [];
  for (const row of live) {
    const { shipping, campaign } = row;
    const contact = contacts.get(shipping.number)!;
    if (!windows || windows.has(contact.id)) {
      texts.push(row);
      continue;
    }
    // Outside the 24-hour window only an approved template may go out.
    if (!campaign.templateName || !campaign.templateLanguage) {
      marks.push({
        id: shipping.id,
        status: 'failed',
        error: 'ERR_WAPP_OUTSIDE_WINDOW',
        contactId: contact.id,
      });
      continue;
    }
    marks.push({
      id: shipping.id,
      status: 'delivered',
      contactId: contact.id,
      message: `[template] ${campaign.templateName}`,
      confirm: campaign.confirmation,
    });
    templates.push({
      shippingId: shipping.id,
      number: shipping.number,
      template: { name: campaign.templateName, language: campaign.templateLanguage },
    });
  }
  const ticketOf = await ticketsFor(
    tx,
    companyId,
    texts.map(({ shipping }) => contacts.get(shipping.number)!.id),
    whatsappId,
  );
  // Inside the transaction (PGlite has one connection: a query beside it would wait forever).
  const inTx = { ...deps.ctx, db: tx as unknown as AppContext['db'] };
  const files = new Map<number, Promise<ShippingRow[]>>();
  const items: { shippingId: number; mark: Mark; ticket: OutboundTicket; rows: ShippingRow[] }[] = [];
  for (const { shipping, campaign } of texts) {
    const contact = contacts.get(shipping.number)!;
    const ticket = ticketOf.get(contact.id)!;
    if (!files.has(campaign.id)) files.set(campaign.id, campaignFiles(inTx, deps.media, campaign));
    let attached: ShippingRow[];
    try {
      attached = await files.get(campaign.id)!;
    } catch (error) {
      const code = error instanceof AppError ? error.code : 'ERR_SENDING_WAPP_MSG';
      marks.push({ id: shipping.id, status: 'failed', error: code, contactId: contact.id });
      continue;
    }
    const variants = CAMPAIGN_MESSAGE_KEYS.map((key) => campaign[key]).filter((m) => m.trim());
    const variant = variants.length ? shipping.id % variants.length : 0;
    const body = fillCampaignText(
      variants[variant] ?? '',
      {
        contactName: contact.name,
        ticketId: ticket.id,
        ticketCreatedAt: ticket.createdAt,
      },
      settings.variables,
    );
    const mark: Mark = {
      id: shipping.id,
      status: 'delivered',
      contactId: contact.id,
      variant: variant + 1,
      message: body,
      confirm: campaign.confirmation,
    };
    marks.push(mark);
    items.push({ shippingId: shipping.id, mark, ticket, rows: shippingRows(campaign, body, attached) });
  }
  const ids = await deps.sender.storeManyWithin(tx, companyId, items);
  items.forEach((item, i) => {
    item.mark.messageId = ids[i]![0];
  });
  await markShippings(tx, marks, now);
  const sent = templates.length + items.length;
  const waited = sent ? await advancePace(deps, tx, pace, plan, sent, now) : 0;
  return {
    kind: 'batch',
    companyId,
    campaignIds: [...new Set(claimed.map((c) => c.campaign.id))],
    stored: items.map((item, i) => ({ shippingId: item.shippingId, messageIds: ids[i]! })),
    templates,
    again: waited === 0,
  };
}
