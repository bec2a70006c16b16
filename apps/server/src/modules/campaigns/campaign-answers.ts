import { CAMPAIGN_CONFIRMATION_KEYS } from '@zapdesk/shared';
import { and, desc, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import { fillCampaignText } from '../../automation/message-variables.js';
import type { IngestResult } from '../../channels/inbound-pipeline.js';
import type { OutboundSender } from '../../channels/outbound-sender.js';
import type { AppContext } from '../../context.js';
import {
  campaignOptOuts,
  campaignSettings,
  campaignShippings,
  campaigns,
  contacts,
  tickets,
  whatsapps,
} from '../../db/schema/index.js';
import type { CompanyCache } from '../../lib/company-cache.js';
import { settingsOf } from './campaign-step.js';
import { normalizeKeyword } from './shipping-content.js';

/**
 * How long after a campaign message reached a number its next customer message on that connection
 * still counts as the answer that confirms it, ms (3 days; docs/automation.md "Campaign engine").
 */
export const CONFIRMATION_WINDOW_MS = 3 * 24 * 60 * 60 * 1000;

/** Statements of this node that may change an opt-out keyword (the settings cache bypasses then). */
const CAMPAIGN_SETTINGS_WRITE =
  /^\s*(?:insert\s+into|update|delete\s+from)\s+"?campaign_settings"?[\s(;]|^\s*truncate\b/i;
/** Statements of this node that may start a shipping's wait for a confirmation. */
const CONFIRMATION_REQUEST_WRITE =
  /^\s*(?:insert\s+into|update)\s+"?campaign_shippings"?[\s(][\s\S]*confirmation_requested_at|^\s*truncate\b/i;

/**
 * The customers' answers to campaigns (inbound pipeline observers): the opt-out keyword and the
 * answer that confirms a shipping (document 2, campaign `confirmation`).
 */
export class CampaignAnswers {
  constructor(
    private readonly ctx: AppContext,
    private readonly sender: OutboundSender,
    /** Called after a campaign's totals changed (the service emits the realtime event). */
    private readonly notify: (companyId: number, campaignId: number) => Promise<void>,
  ) {
    this.optOutKeywords = ctx.caches?.define({
      topic: 'campaign_settings',
      localWrite: CAMPAIGN_SETTINGS_WRITE,
      load: (companyId) => this.readOptOutKeyword(companyId),
    });
    this.awaitingConfirmation = ctx.caches?.define({
      topic: 'campaign_confirmation',
      localWrite: CONFIRMATION_REQUEST_WRITE,
      load: (companyId) => this.readAwaitingUntil(companyId),
    });
  }
  /** The companies' normalized opt-out keywords ('' = none), when the app keeps caches. */
  private readonly optOutKeywords?: CompanyCache<string>;
  /** Until when (ms) a company may have a shipping awaiting confirmation (0 = none), when cached. */
  private readonly awaitingConfirmation?: CompanyCache<number>;

  /**
   * Inbound hook: a customer message equal to the company's opt-out keyword (case and accents
   * ignored) records the number as opted out; its pending shippings become skipped, and every later
   * campaign skips it.
   */
  async optOutFromInbound(companyId: number, result: IngestResult): Promise<void> {
    const { message } = result;
    if (message.fromMe || !message.body || message.body.length > 40) return;
    if (!(await this.isOptOut(companyId, message.body))) return;
    const [contact] = await this.ctx.db
      .select({ number: contacts.number })
      .from(contacts)
      .where(and(eq(contacts.companyId, companyId), eq(contacts.id, result.ticket.contactId)));
    if (!contact) return;
    await this.ctx.db
      .insert(campaignOptOuts)
      .values({ companyId, number: contact.number })
      .onConflictDoNothing();
    await this.ctx.db
      .update(campaignShippings)
      .set({ status: 'skipped', error: 'opt-out', updatedAt: sql`now()` })
      .where(
        and(
          eq(campaignShippings.companyId, companyId),
          eq(campaignShippings.number, contact.number),
          eq(campaignShippings.status, 'pending'),
        ),
      );
  }

  /**
   * Whether `body` is the company's opt-out keyword (case, accents and spaces ignored; default SAIR).
   * Every short inbound message asks: the keyword comes from the per-node cache the settings' saves
   * invalidate (migration 0028), when the app keeps one.
   */
  private async isOptOut(companyId: number, body: string): Promise<boolean> {
    if (body.length > 40) return false;
    const keyword = this.optOutKeywords
      ? await this.optOutKeywords.get(companyId)
      : await this.readOptOutKeyword(companyId);
    return !!keyword && normalizeKeyword(body) === keyword;
  }

  /** The company's opt-out keyword, normalized ('' when switched off; SAIR without settings). */
  private async readOptOutKeyword(companyId: number): Promise<string> {
    const [settings] = await this.ctx.db
      .select({ keyword: campaignSettings.optOutKeyword })
      .from(campaignSettings)
      .where(eq(campaignSettings.companyId, companyId));
    return normalizeKeyword(settings ? settings.keyword : 'SAIR');
  }

  /**
   * Until when (ms since the epoch) the company has a shipping awaiting confirmation: its latest
   * unconfirmed confirmation request on any of its connections plus CONFIRMATION_WINDOW_MS, or 0.
   * Reads the awaiting-confirmation index of each connection.
   */
  private async readAwaitingUntil(companyId: number): Promise<number> {
    const since = new Date(Date.now() - CONFIRMATION_WINDOW_MS);
    const [row] = await this.ctx.db
      .select({
        latest: sql<number>`coalesce(extract(epoch from max(${campaignShippings.confirmationRequestedAt})) * 1000, 0)::float8`,
      })
      .from(whatsapps)
      .innerJoin(campaignShippings, eq(campaignShippings.whatsappId, whatsapps.id))
      .where(
        and(
          eq(whatsapps.companyId, companyId),
          isNotNull(campaignShippings.confirmationRequestedAt),
          isNull(campaignShippings.confirmedAt),
          gt(campaignShippings.confirmationRequestedAt, since),
        ),
      );
    const latest = Number(row?.latest ?? 0);
    return latest > 0 ? latest + CONFIRMATION_WINDOW_MS : 0;
  }

  /**
   * Inbound hook (document 2, campaign `confirmation`): a customer message on connection
   * `whatsappId` answering a campaign message with confirmation on — the number's latest shipping
   * there awaiting confirmation, delivered within CONFIRMATION_WINDOW_MS — marks it confirmed and
   * stores its confirmation message variant (rotating by shipping like the main variants, variables
   * replaced) in the same transaction; the message is delivered after the commit. The row lock and
   * the `confirmed_at is null` guard make a second run (the same message observed twice, or two
   * answers at once) send nothing. The opt-out keyword never confirms.
   */
  async confirmFromInbound(companyId: number, whatsappId: number, result: IngestResult): Promise<void> {
    const { message } = result;
    if (message.fromMe) return;
    // Every inbound message passes here: a company with no shipping awaiting confirmation is told
    // by the per-node cache (no query), else one indexed look without a transaction settles most.
    if (this.awaitingConfirmation && Date.now() >= (await this.awaitingConfirmation.get(companyId))) return;
    const since = new Date(Date.now() - CONFIRMATION_WINDOW_MS);
    const [awaiting] = await this.ctx.db
      .select({ id: campaignShippings.id })
      .from(campaignShippings)
      .innerJoin(contacts, eq(contacts.number, campaignShippings.number))
      .where(
        and(
          eq(contacts.companyId, companyId),
          eq(contacts.id, result.ticket.contactId),
          eq(campaignShippings.whatsappId, whatsappId),
          isNull(campaignShippings.confirmedAt),
          gt(campaignShippings.confirmationRequestedAt, since),
        ),
      )
      .limit(1);
    if (!awaiting) return;
    if (message.body && (await this.isOptOut(companyId, message.body))) return;
    const done = await this.ctx.db.transaction(async (tx) => {
      const [contact] = await tx
        .select({ id: contacts.id, name: contacts.name, number: contacts.number })
        .from(contacts)
        .where(and(eq(contacts.companyId, companyId), eq(contacts.id, result.ticket.contactId)));
      if (!contact) return undefined;
      const [row] = await tx
        .select({ shipping: campaignShippings, campaign: campaigns })
        .from(campaignShippings)
        .innerJoin(campaigns, eq(campaigns.id, campaignShippings.campaignId))
        .where(
          and(
            eq(campaignShippings.whatsappId, whatsappId),
            eq(campaignShippings.number, contact.number),
            eq(campaignShippings.companyId, companyId),
            isNull(campaignShippings.confirmedAt),
            gt(campaignShippings.confirmationRequestedAt, since),
          ),
        )
        .orderBy(desc(campaignShippings.confirmationRequestedAt))
        .limit(1)
        .for('update', { of: campaignShippings });
      if (!row) return undefined;
      const { shipping, campaign } = row;
      const marked = await tx
        .update(campaignShippings)
        .set({ confirmedAt: sql`now()`, updatedAt: sql`now()` })
        .where(and(eq(campaignShippings.id, shipping.id), isNull(campaignShippings.confirmedAt)))
        .returning({ id: campaignShippings.id });
      if (!marked.length) return undefined;
      const [ticket] = await tx
        .select()
        .from(tickets)
        .where(and(eq(tickets.companyId, companyId), eq(tickets.id, result.ticket.id)));
      const variants = CAMPAIGN_CONFIRMATION_KEYS.map((key) => campaign[key]).filter((m) => m.trim());
      if (!ticket || !variants.length) return { campaignId: campaign.id, ticket: undefined, ids: [] };
      const settings = await settingsOf(tx, companyId);
      const body = fillCampaignText(
        variants[shipping.id % variants.length]!,
        {
          contactName: contact.name,
          ticketId: ticket.id,
          ticketCreatedAt: ticket.createdAt,
        },
        settings.variables,
      );
      const ids = await this.sender.storeWithin(tx, companyId, ticket, [
        { body, mediaType: 'chat', mediaUrl: null, mediaName: null },
      ]);
      return { campaignId: campaign.id, ticket, ids };
    });
    if (!done) return;
    if (done.ticket) await this.sender.deliverStored(companyId, done.ticket, done.ids);
    await this.notify(companyId, done.campaignId);
  }
}
