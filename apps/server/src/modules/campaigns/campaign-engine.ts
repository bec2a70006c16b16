import {
  CAMPAIGN_CONFIRMATION_KEYS,
  CAMPAIGN_MESSAGE_KEYS,
  type CampaignStatus,
  DASHBOARD_TIME_ZONE,
} from '@zapdesk/shared';
import { and, desc, eq, gt, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { fillVariables } from '../../automation/message-variables.js';
import { CloudDriver } from '../../channels/cloud/cloud-driver.js';
import type { InboundPipeline, IngestResult } from '../../channels/inbound-pipeline.js';
import type { MediaStore } from '../../channels/media-store.js';
import type { OutboundSender, OutboundTicket } from '../../channels/outbound-sender.js';
import { ChannelSendError } from '../../channels/send-error.js';
import type { SessionManager } from '../../channels/session-manager.js';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import {
  campaignOptOuts,
  campaignPace,
  campaignSettings,
  campaignShippings,
  campaigns,
  contacts,
  tickets,
  whatsapps,
} from '../../db/schema/index.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import { AppError } from '../../lib/app-error.js';
import type { CompanyCache } from '../../lib/company-cache.js';
import { localDay, nextSendAt, type PaceSettings, waitAfterSend } from './pace.js';
import {
  cloudWindowOpen,
  contactFor,
  normalizeKeyword,
  type ShippingRow,
  shippingRows,
  ticketFor,
} from './shipping-content.js';

/** The job starting a campaign at its scheduledAt (keyed by the campaign). */
export const CAMPAIGN_START_JOB = 'campaign-start';
/** The job sending a connection's next due shipping (keyed by the connection: one pace per connection). */
export const CAMPAIGN_PACE_JOB = 'campaign-pace';

interface StartJob {
  companyId: number;
  campaignId: number;
  scheduledAt: string;
}
interface PaceJob {
  whatsappId: number;
}

/** Most shippings one pace run sends back to back (wait 0) before it queues the next run. */
const PACE_RUN_STEPS = 100;

/**
 * How long after a campaign message reached a number its next customer message on that connection
 * still counts as the answer that confirms it, ms (3 days; docs/architecture.md "Campaign engine").
 */
export const CONFIRMATION_WINDOW_MS = 3 * 24 * 60 * 60 * 1000;

/** Statements of this node that may change an opt-out keyword (the settings cache bypasses then). */
const CAMPAIGN_SETTINGS_WRITE =
  /^\s*(?:insert\s+into|update|delete\s+from)\s+"?campaign_settings"?[\s(;]|^\s*truncate\b/i;
/** Statements of this node that may start a shipping's wait for a confirmation. */
const CONFIRMATION_REQUEST_WRITE =
  /^\s*(?:insert\s+into|update)\s+"?campaign_shippings"?[\s(][\s\S]*confirmation_requested_at|^\s*truncate\b/i;

const startKey = (campaignId: number) => `campaign-${campaignId}`;
const rowsOf = (result: unknown) =>
  ((result as { rows?: unknown[] }).rows ?? (result as unknown[])) as Record<string, unknown>[];

type Step =
  | { kind: 'idle' }
  | { kind: 'empty' }
  | { kind: 'skipped'; companyId: number; campaignId: number }
  | {
      kind: 'template';
      companyId: number;
      campaignId: number;
      shippingId: number;
      number: string;
      template: { name: string; language: string };
      /** The wait after it is 0: the run goes on with the next shipping instead of queueing itself. */
      again: boolean;
    }
  | {
      kind: 'sent';
      companyId: number;
      campaignId: number;
      shippingId: number;
      ticket: OutboundTicket;
      messageIds: number[];
      again: boolean;
    };

/**
 * The campaign engine (issue 11 item 4; docs/architecture.md "Campaign engine"). Starting a campaign
 * inserts one shipping per distinct recipient in one INSERT … SELECT; each connection has one pace
 * (`campaign_pace`) shared by its campaigns and one `campaign-pace` job chain: each run claims the
 * connection's next pending shipping of an EM_ANDAMENTO campaign (FOR UPDATE SKIP LOCKED), stores
 * its outbound messages (ack 0) and marks it delivered in ONE transaction, then hands the messages
 * to the session. A crash after the commit leaves the messages at ack 0, which the outbound sender
 * sends when the session connects; a crash before it leaves the shipping pending: each recipient
 * exactly once. No pending ticket is opened.
 */
export class CampaignEngine {
  /** Called after a campaign's state or totals changed (the service emits the realtime event). */
  notify: (companyId: number, campaignId: number) => Promise<void> = async () => {};
  /** Random source of the jitter (tests fix it). */
  random: () => number = Math.random;

  constructor(
    private readonly ctx: AppContext,
    private readonly jobs: JobQueue,
    private readonly sender: OutboundSender,
    private readonly media: MediaStore,
    private readonly sessions: SessionManager,
    private readonly pipeline: InboundPipeline,
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
  /** When each campaign's progress was last announced (ms), to announce at most once a second. */
  private readonly announced = new Map<number, number>();

  /** Declares the start and pace jobs (before the queue starts). */
  register(): void {
    this.jobs.define<StartJob>(CAMPAIGN_START_JOB, (data) => this.runStart(data), {
      key: (data) => startKey(data.campaignId),
    });
    this.jobs.define<PaceJob>(CAMPAIGN_PACE_JOB, (data) => this.runPace(data.whatsappId), {
      key: (data) => `pace-${data.whatsappId}`,
    });
  }

  /** Wakes the local workers after a commit that queued jobs. */
  wake(): void {
    this.jobs.wake(CAMPAIGN_START_JOB);
    this.jobs.wake(CAMPAIGN_PACE_JOB);
  }

  /** Queues the campaign's start at `at` (at once when past), inside `tx`. */
  async queueStart(tx: Tx, companyId: number, campaignId: number, at: Date): Promise<void> {
    const seconds = Math.max(0, Math.ceil((at.getTime() - Date.now()) / 1000));
    await this.jobs.send<StartJob>(
      CAMPAIGN_START_JOB,
      { companyId, campaignId, scheduledAt: at.toISOString() },
      { tx, startAfterSeconds: seconds },
    );
  }

  /** Cancels the campaign's queued start, inside `tx`. */
  async cancelStart(tx: Tx, campaignId: number): Promise<void> {
    await this.jobs.cancelKey(CAMPAIGN_START_JOB, startKey(campaignId), { tx });
  }

  /** The `campaign-start` handler: starts a PROGRAMADA campaign whose scheduledAt is still the job's. */
  private async runStart(data: StartJob): Promise<void> {
    await this.start(data.companyId, data.campaignId, {
      from: ['PROGRAMADA'],
      strict: false,
      scheduledAt: new Date(data.scheduledAt),
    });
  }

  /**
   * Starts (or resumes) a campaign whose status is one of `from`: inserts the shippings of its
   * recipients not yet inserted (contact list items not known invalid, or the contacts of tickets
   * carrying the tag; numbers that opted out come in as skipped), moves its pending shippings to its
   * connection (the default one when none), makes it EM_ANDAMENTO (FINALIZADA when nothing is
   * pending) and queues the connection's pace. With `strict` (an API call) a refusal throws;
   * otherwise (the scheduled job) a campaign that cannot start becomes CANCELADA.
   * @throws ERR_CAMPAIGN_NOT_RESTARTABLE, ERR_NO_DEF_WAPP_FOUND, ERR_CAMPAIGN_NO_RECIPIENTS.
   */
  async start(
    companyId: number,
    campaignId: number,
    options: { from: CampaignStatus[]; strict: boolean; scheduledAt?: Date },
  ): Promise<void> {
    const started = await this.ctx.db.transaction(async (tx) => {
      const [c] = await tx
        .select()
        .from(campaigns)
        .where(and(eq(campaigns.companyId, companyId), eq(campaigns.id, campaignId)))
        .for('update');
      if (!c || !options.from.includes(c.status)) {
        if (options.strict) throw new AppError('ERR_CAMPAIGN_NOT_RESTARTABLE');
        return false;
      }
      if (options.scheduledAt && c.scheduledAt?.getTime() !== options.scheduledAt.getTime()) return false;
      const refuse = async (code: 'ERR_NO_DEF_WAPP_FOUND' | 'ERR_CAMPAIGN_NO_RECIPIENTS') => {
        if (options.strict) throw new AppError(code);
        await tx
          .update(campaigns)
          .set({ status: 'CANCELADA', updatedAt: sql`now()` })
          .where(eq(campaigns.id, campaignId));
        return true;
      };
      let whatsappId = c.whatsappId;
      if (!whatsappId) {
        const [byDefault] = await tx
          .select({ id: whatsapps.id })
          .from(whatsapps)
          .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.isDefault, true)));
        if (!byDefault) return refuse('ERR_NO_DEF_WAPP_FOUND');
        whatsappId = byDefault.id;
      }
      await this.populate(tx, c, whatsappId);
      await tx
        .update(campaignShippings)
        .set({ whatsappId })
        .where(and(eq(campaignShippings.campaignId, campaignId), eq(campaignShippings.status, 'pending')));
      const [counts] = await tx
        .select({
          all: sql<number>`count(*)::int`,
          pending: sql<number>`count(*) filter (where ${campaignShippings.status} = 'pending')::int`,
        })
        .from(campaignShippings)
        .where(eq(campaignShippings.campaignId, campaignId));
      if (!counts?.all) return refuse('ERR_CAMPAIGN_NO_RECIPIENTS');
      if (!counts.pending) {
        await tx
          .update(campaigns)
          .set({ status: 'FINALIZADA', completedAt: sql`now()`, updatedAt: sql`now()` })
          .where(eq(campaigns.id, campaignId));
        return true;
      }
      await tx
        .update(campaigns)
        .set({ status: 'EM_ANDAMENTO', completedAt: null, updatedAt: sql`now()` })
        .where(eq(campaigns.id, campaignId));
      await this.queuePace(tx, companyId, whatsappId);
      return true;
    });
    if (!started) return;
    this.wake();
    await this.notify(companyId, campaignId);
  }

  /** Inserts the campaign's missing shippings in one INSERT … SELECT (unique per campaign and number). */
  private async populate(tx: Tx, c: typeof campaigns.$inferSelect, whatsappId: number): Promise<void> {
    const optedOut = (number: ReturnType<typeof sql.raw>) =>
      sql`exists (select 1 from campaign_opt_outs o where o.company_id = ${c.companyId} and o.number = ${number})`;
    if (c.contactListId) {
      await tx.execute(sql`
        insert into campaign_shippings (company_id, campaign_id, whatsapp_id, number, name, status, error)
        select distinct on (i.number) i.company_id, ${c.id}, ${whatsappId}, i.number, i.name,
          case when ${optedOut(sql.raw('i.number'))} then 'skipped' else 'pending' end,
          case when ${optedOut(sql.raw('i.number'))} then 'opt-out' end
        from contact_list_items i
        where i.company_id = ${c.companyId} and i.contact_list_id = ${c.contactListId}
          and i.is_whatsapp_valid is not false
        order by i.number, i.id
        on conflict (campaign_id, number) do nothing`);
    } else if (c.tagId) {
      await tx.execute(sql`
        insert into campaign_shippings (company_id, campaign_id, whatsapp_id, number, name, contact_id, status, error)
        select distinct on (ct.number) ct.company_id, ${c.id}, ${whatsappId}, ct.number, ct.name, ct.id,
          case when ${optedOut(sql.raw('ct.number'))} then 'skipped' else 'pending' end,
          case when ${optedOut(sql.raw('ct.number'))} then 'opt-out' end
        from ticket_tags tt
        join tickets t on t.id = tt.ticket_id
        join contacts ct on ct.id = t.contact_id
        where tt.company_id = ${c.companyId} and tt.tag_id = ${c.tagId} and not ct.is_group
        order by ct.number, ct.id
        on conflict (campaign_id, number) do nothing`);
    }
  }

  /** Makes sure the connection has a pace row and a pace job due at its nextAt, inside `tx`. */
  private async queuePace(tx: Tx, companyId: number, whatsappId: number): Promise<void> {
    await tx.insert(campaignPace).values({ whatsappId, companyId }).onConflictDoNothing();
    const [pace] = await tx
      .select({ nextAt: campaignPace.nextAt })
      .from(campaignPace)
      .where(eq(campaignPace.whatsappId, whatsappId));
    const seconds = pace?.nextAt ? Math.max(0, (pace.nextAt.getTime() - Date.now()) / 1000) : 0;
    await this.jobs.send<PaceJob>(
      CAMPAIGN_PACE_JOB,
      { whatsappId },
      { tx, startAfterSeconds: Math.ceil(seconds) },
    );
  }

  /**
   * Connections that (re)connected: their paused campaign sends resume at their pace (called by
   * the session manager's connect hook, with the outbound sender's pending delivery).
   */
  async resume(connectionIds: number[]): Promise<void> {
    if (!connectionIds.length) return;
    const rows = await this.ctx.db
      .selectDistinct({ whatsappId: campaignShippings.whatsappId, companyId: campaignShippings.companyId })
      .from(campaignShippings)
      .innerJoin(campaigns, eq(campaigns.id, campaignShippings.campaignId))
      .where(
        and(
          inArray(campaignShippings.whatsappId, connectionIds),
          eq(campaignShippings.status, 'pending'),
          eq(campaigns.status, 'EM_ANDAMENTO'),
        ),
      );
    if (!rows.length) return;
    await this.ctx.db.transaction(async (tx) => {
      for (const row of rows) if (row.whatsappId) await this.queuePace(tx, row.companyId, row.whatsappId);
    });
    this.wake();
  }

  /**
   * After the company's settings changed: each of its connections' next send is moved to
   * `messageInterval` seconds after its last send (the new interval, without jitter or longer
   * pause), and its queued pace run (which keeps its key's order) is replaced by one due then.
   */
  async repace(companyId: number, messageInterval: number): Promise<void> {
    await this.ctx.db.transaction(async (tx) => {
      const paces = await tx
        .update(campaignPace)
        .set({
          nextAt: sql`${campaignPace.lastSentAt} + make_interval(secs => ${messageInterval})`,
          updatedAt: sql`now()`,
        })
        .where(eq(campaignPace.companyId, companyId))
        .returning({ whatsappId: campaignPace.whatsappId });
      for (const { whatsappId } of paces) {
        await this.jobs.cancelKey(CAMPAIGN_PACE_JOB, `pace-${whatsappId}`, { tx });
        await this.queuePace(tx, companyId, whatsappId);
      }
    });
    this.wake();
  }

  /** The company's pace settings, variables and opt-out keyword (defaults when never saved). */
  private async settingsOf(executor: Tx, companyId: number) {
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

  /**
   * The `campaign-pace` handler: sends the connection's next due shipping and queues the next run
   * after the wait (pace.ts). Opted-out numbers are skipped without waiting. A connection that is
   * not CONNECTED pauses (nothing is claimed or marked; `resume` queues it again on connect).
   */
  async runPace(whatsappId: number): Promise<void> {
    for (let i = 0; i < PACE_RUN_STEPS; i++) {
      const step = await this.ctx.db.transaction((tx) => this.step(tx, whatsappId));
      if (step.kind === 'idle') return;
      if (step.kind === 'empty') return this.finishConnection(whatsappId);
      let failure: string | undefined;
      if (step.kind === 'sent') {
        this.jobs.wake(CAMPAIGN_PACE_JOB);
        const sent = await this.sender.deliverStored(step.companyId, step.ticket, step.messageIds);
        const failed = sent.find((m) => m.ack === -1);
        if (failed) failure = failed.error ?? 'ERR_SENDING_WAPP_MSG';
      } else if (step.kind === 'template') {
        this.jobs.wake(CAMPAIGN_PACE_JOB);
        failure = await this.sendTemplate(whatsappId, step.companyId, step.number, step.template);
      }
      if (failure)
        await this.ctx.db
          .update(campaignShippings)
          .set({ status: 'failed', error: failure, updatedAt: sql`now()` })
          .where(eq(campaignShippings.id, (step as { shippingId: number }).shippingId));
      await this.finishIfDone(step.companyId, step.campaignId);
      if (step.kind !== 'skipped' && !step.again) return;
    }
    // Back to back (interval 0, opt-outs): the run ends here and the next one goes on. A crash
    // before this line leaves this job active; the queue hands it back at start.
    await this.jobs.send<PaceJob>(CAMPAIGN_PACE_JOB, { whatsappId });
  }

  /**
   * Sends an approved Cloud API template (no parameters) to a number outside the 24-hour window and
   * stores it in the chat. @returns the failure's catalogue code, or undefined when sent.
   */
  private async sendTemplate(
    whatsappId: number,
    companyId: number,
    number: string,
    template: { name: string; language: string },
  ): Promise<string | undefined> {
    const driver = this.sessions.ready(whatsappId);
    if (!(driver instanceof CloudDriver)) return 'ERR_WAPP_NOT_INITIALIZED';
    try {
      const sent = await driver.sendTemplate(number, { name: template.name, language: template.language });
      await this.pipeline.ingest(
        { id: whatsappId, companyId },
        {
          providerId: sent.providerId,
          chatId: number,
          isGroup: false,
          fromMe: true,
          senderNumber: number,
          body: `[template] ${template.name}`,
          mediaType: 'chat',
          timestamp: sent.timestamp,
        },
      );
      return undefined;
    } catch (error) {
      return error instanceof ChannelSendError ? error.code : 'ERR_SENDING_WAPP_MSG';
    }
  }

  /**
   * Makes an EM_ANDAMENTO campaign with no pending shipping FINALIZADA and announces it; otherwise
   * announces its progress at most once a second.
   */
  private async finishIfDone(companyId: number, campaignId: number): Promise<void> {
    const finished = await this.ctx.db
      .update(campaigns)
      .set({ status: 'FINALIZADA', completedAt: sql`now()`, updatedAt: sql`now()` })
      .where(
        and(
          eq(campaigns.id, campaignId),
          eq(campaigns.status, 'EM_ANDAMENTO'),
          sql`not exists (select 1 from campaign_shippings s where s.campaign_id = ${campaignId} and s.status = 'pending')`,
        ),
      )
      .returning({ id: campaigns.id });
    const now = Date.now();
    if (!finished.length && now - (this.announced.get(campaignId) ?? 0) < 1000) return;
    this.announced.set(campaignId, now);
    if (finished.length) this.announced.delete(campaignId);
    await this.notify(companyId, campaignId);
  }

  /** Makes the connection's EM_ANDAMENTO campaigns with nothing pending FINALIZADA (opt-outs, deletions). */
  private async finishConnection(whatsappId: number): Promise<void> {
    const done = rowsOf(
      await this.ctx.db.execute(sql`
        update campaigns c set status = 'FINALIZADA', completed_at = now(), updated_at = now()
        where c.status = 'EM_ANDAMENTO'
          and exists (select 1 from campaign_shippings s where s.campaign_id = c.id and s.whatsapp_id = ${whatsappId})
          and not exists (select 1 from campaign_shippings s where s.campaign_id = c.id and s.status = 'pending')
        returning c.id, c.company_id`),
    );
    for (const row of done) await this.notify(row.company_id as number, row.id as number);
  }

  /**
   * After a send at `now`: counts it (run, local day) and sets the connection's nextAt after the
   * wait of pace.ts, queueing the pace job due then, inside `tx` (none for a wait of 0: the running
   * job goes on). @returns the wait, seconds.
   */
  private async advancePace(
    tx: Tx,
    pace: typeof campaignPace.$inferSelect,
    settings: PaceSettings,
    now: Date,
  ): Promise<number> {
    const sentInRun = pace.sentInRun + 1;
    const wait = waitAfterSend(sentInRun, settings, this.random);
    const day = localDay(now, DASHBOARD_TIME_ZONE);
    await tx
      .update(campaignPace)
      .set({
        nextAt: new Date(now.getTime() + wait.seconds * 1000),
        lastSentAt: now,
        sentInRun: wait.longer ? 0 : sentInRun,
        day,
        sentToday: day === pace.day ? pace.sentToday + 1 : 1,
        updatedAt: sql`now()`,
      })
      .where(eq(campaignPace.whatsappId, pace.whatsappId));
    if (wait.seconds > 0)
      await this.jobs.send<PaceJob>(
        CAMPAIGN_PACE_JOB,
        { whatsappId: pace.whatsappId },
        { tx, startAfterSeconds: Math.ceil(wait.seconds) },
      );
    return wait.seconds;
  }

  /** One pace step inside `tx` (see runPace). */
  private async step(tx: Tx, whatsappId: number): Promise<Step> {
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
    const settings = await this.settingsOf(tx, pace.companyId);
    const allowedAt = nextSendAt(now, settings, pace, DASHBOARD_TIME_ZONE);
    if (allowedAt.getTime() > now.getTime()) {
      await tx.update(campaignPace).set({ nextAt: allowedAt }).where(eq(campaignPace.whatsappId, whatsappId));
      await this.jobs.send<PaceJob>(
        CAMPAIGN_PACE_JOB,
        { whatsappId },
        { tx, startAfterSeconds: Math.ceil((allowedAt.getTime() - now.getTime()) / 1000) },
      );
      return { kind: 'idle' };
    }
    const claimed = rowsOf(
      await tx.execute(sql`
        select s.id from campaign_shippings s join campaigns c on c.id = s.campaign_id
        where s.whatsapp_id = ${whatsappId} and s.status = 'pending' and c.status = 'EM_ANDAMENTO'
        order by s.id limit 1 for update of s skip locked`),
    );
    const shippingId = claimed[0]?.id as number | undefined;
    if (!shippingId) return { kind: 'empty' };
    const [row] = await tx
      .select({ shipping: campaignShippings, campaign: campaigns })
      .from(campaignShippings)
      .innerJoin(campaigns, eq(campaigns.id, campaignShippings.campaignId))
      .where(eq(campaignShippings.id, shippingId));
    const { shipping, campaign } = row!;
    const companyId = shipping.companyId;
    const [opted] = await tx
      .select({ number: campaignOptOuts.number })
      .from(campaignOptOuts)
      .where(and(eq(campaignOptOuts.companyId, companyId), eq(campaignOptOuts.number, shipping.number)));
    if (opted) {
      await tx
        .update(campaignShippings)
        .set({ status: 'skipped', error: 'opt-out', updatedAt: sql`now()` })
        .where(eq(campaignShippings.id, shippingId));
      return { kind: 'skipped', companyId, campaignId: campaign.id };
    }
    const contact = await contactFor(tx, companyId, shipping.number, shipping.name);
    const fail = async (code: string): Promise<Step> => {
      await tx
        .update(campaignShippings)
        .set({ status: 'failed', error: code, contactId: contact.id, updatedAt: sql`now()` })
        .where(eq(campaignShippings.id, shippingId));
      return { kind: 'skipped', companyId, campaignId: campaign.id };
    };
    if (connection.provider === 'cloud' && !(await cloudWindowOpen(tx, companyId, contact.id, whatsappId))) {
      // Outside the 24-hour window only an approved template may go out (issue 16).
      if (!campaign.templateName || !campaign.templateLanguage) return fail('ERR_WAPP_OUTSIDE_WINDOW');
      await tx
        .update(campaignShippings)
        .set({
          status: 'delivered',
          deliveredAt: now,
          contactId: contact.id,
          message: `[template] ${campaign.templateName}`,
          confirmationRequestedAt: campaign.confirmation ? now : null,
          updatedAt: sql`now()`,
        })
        .where(eq(campaignShippings.id, shippingId));
      const waited = await this.advancePace(tx, pace, settings, now);
      return {
        again: waited === 0,
        kind: 'template',
        companyId,
        campaignId: campaign.id,
        shippingId,
        number: shipping.number,
        template: { name: campaign.templateName, language: campaign.templateLanguage },
      };
    }
    const ticket = await ticketFor(tx, companyId, contact.id, whatsappId);
    const variants = CAMPAIGN_MESSAGE_KEYS.map((key) => campaign[key]).filter((m) => m.trim());
    const variant = variants.length ? shipping.id % variants.length : 0;
    let body = fillVariables(variants[variant] ?? '', {
      contactName: contact.name,
      ticketId: ticket.id,
      ticketCreatedAt: ticket.createdAt,
    });
    for (const v of settings.variables) body = body.split(`{{${v.key}}}`).join(v.value);
    let rows: ShippingRow[];
    try {
      // Inside the transaction (PGlite has one connection: a query beside it would wait forever).
      const inTx = { ...this.ctx, db: tx as unknown as AppContext['db'] };
      rows = await shippingRows(inTx, this.media, campaign, body);
    } catch (error) {
      return fail(error instanceof AppError ? error.code : 'ERR_SENDING_WAPP_MSG');
    }
    const messageIds = await this.sender.storeWithin(tx, companyId, ticket, rows);
    await tx
      .update(campaignShippings)
      .set({
        status: 'delivered',
        deliveredAt: now,
        contactId: contact.id,
        variant: variant + 1,
        message: body,
        messageId: messageIds[0] ?? null,
        confirmationRequestedAt: campaign.confirmation ? now : null,
        updatedAt: sql`now()`,
      })
      .where(eq(campaignShippings.id, shippingId));
    const waited = await this.advancePace(tx, pace, settings, now);
    return {
      kind: 'sent',
      companyId,
      campaignId: campaign.id,
      shippingId,
      ticket,
      messageIds,
      again: waited === 0,
    };
  }

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
      const settings = await this.settingsOf(tx, companyId);
      let body = fillVariables(variants[shipping.id % variants.length]!, {
        contactName: contact.name,
        ticketId: ticket.id,
        ticketCreatedAt: ticket.createdAt,
      });
      for (const v of settings.variables) body = body.split(`{{${v.key}}}`).join(v.value);
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
