import type { CampaignStatus } from '@zapdesk/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { CloudDriver } from '../../channels/cloud/cloud-driver.js';
import type { InboundPipeline, IngestResult } from '../../channels/inbound-pipeline.js';
import type { MediaStore } from '../../channels/media-store.js';
import type { OutboundSender } from '../../channels/outbound-sender.js';
import { ChannelSendError } from '../../channels/send-error.js';
import type { SessionManager } from '../../channels/session-manager.js';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { campaignPace, campaignShippings, campaigns, whatsapps } from '../../db/schema/index.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import { AppError } from '../../lib/app-error.js';
import { companyRefusal, type EntitlementRefusal } from '../../lib/company-entitlement.js';
import { CampaignAnswers } from './campaign-answers.js';
import { CAMPAIGN_PACE_JOB, type PaceJob, paceStep, type Step, type StepDeps } from './campaign-step.js';

/** The job starting a campaign at its scheduledAt (keyed by the campaign). */
export const CAMPAIGN_START_JOB = 'campaign-start';
export { CONFIRMATION_WINDOW_MS } from './campaign-answers.js';
export { CAMPAIGN_PACE_JOB };

interface StartJob {
  companyId: number;
  campaignId: number;
  scheduledAt: string;
}

/** Most pace steps one `campaign-pace` run takes back to back (wait 0) before it queues the next run. */
const PACE_RUN_STEPS = 100;

const startKey = (campaignId: number) => `campaign-${campaignId}`;
const rowsOf = (result: unknown) =>
  ((result as { rows?: unknown[] }).rows ?? (result as unknown[])) as Record<string, unknown>[];

/**
 * The campaign engine (docs/automation.md "Campaign engine"). Starting a campaign
 * inserts one shipping per distinct recipient in one INSERT … SELECT; each connection has one pace
 * (`campaign_pace`) shared by its campaigns and one `campaign-pace` job chain: each step
 * (campaign-step.ts) claims the connection's next due pending shippings of EM_ANDAMENTO campaigns
 * (FOR UPDATE SKIP LOCKED; a batch with interval 0, else one), stores their outbound messages (ack
 * 0) and marks them delivered in ONE transaction, then hands the messages to the session. A crash
 * after the commit leaves the messages at ack 0, which the outbound sender sends when the session
 * connects; a crash before it leaves the shippings pending: each recipient exactly once. No pending
 * ticket is opened.
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
    this.answers = new CampaignAnswers(ctx, sender, (companyId, campaignId) =>
      this.notify(companyId, campaignId),
    );
  }
  private readonly answers: CampaignAnswers;
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

  /**
   * The `campaign-start` handler: starts a PROGRAMADA campaign whose scheduledAt is still the job's.
   * When the company may no longer send campaigns (companyRefusal with useCampaigns: plan
   * downgraded, inactive or past its dueDate) the campaign becomes CANCELADA and nothing is sent.
   */
  private async runStart(data: StartJob): Promise<void> {
    const refusal = await companyRefusal(this.ctx, data.companyId, 'useCampaigns');
    if (refusal) {
      const cancelled = await this.ctx.db
        .update(campaigns)
        .set({ status: 'CANCELADA', updatedAt: sql`now()` })
        .where(
          and(
            eq(campaigns.companyId, data.companyId),
            eq(campaigns.id, data.campaignId),
            eq(campaigns.status, 'PROGRAMADA'),
            eq(campaigns.scheduledAt, new Date(data.scheduledAt)),
          ),
        )
        .returning({ id: campaigns.id });
      this.ctx.log.info({ ...data, refusal }, 'scheduled campaign cancelled: company not allowed');
      if (cancelled.length) await this.notify(data.companyId, data.campaignId);
      return;
    }
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

  /**
   * The `campaign-pace` handler: takes the connection's pace steps (campaign-step.ts: its next due
   * shipping, or a batch of them with interval 0), delivers each step's messages after its commit,
   * marks the refused ones failed, and goes on while the wait is 0; a step with a wait queued the
   * next run itself. Back to back, the next step is stored while the batch before it is handed to
   * the session (at most two batches in flight; deliveries run one after the other in claim order,
   * so a ticket's messages keep their order). Opted-out numbers are skipped without waiting. A
   * connection that is not CONNECTED pauses (nothing is claimed or marked; `resume` queues it again
   * on connect). When the connection's company may no longer send campaigns (companyRefusal with
   * useCampaigns: plan downgraded, inactive or past its dueDate), nothing is sent: see `halt`.
   */
  async runPace(whatsappId: number): Promise<void> {
    const [owner] = await this.ctx.db
      .select({ companyId: whatsapps.companyId })
      .from(whatsapps)
      .where(eq(whatsapps.id, whatsappId));
    if (owner) {
      const refusal = await companyRefusal(this.ctx, owner.companyId, 'useCampaigns');
      if (refusal) return this.halt(owner.companyId, whatsappId, refusal);
    }
    // The delivery of the batches stored so far (each chained after the one before it).
    let delivering: Promise<void> = Promise.resolve();
    try {
      for (let i = 0; i < PACE_RUN_STEPS; i++) {
        const step = await this.ctx.db.transaction((tx) => this.step(tx, whatsappId));
        if (step.kind === 'idle') return await delivering;
        if (step.kind === 'empty') {
          await delivering;
          return await this.finishConnection(whatsappId);
        }
        if (step.stored.length || step.templates.length) this.jobs.wake(CAMPAIGN_PACE_JOB);
        const before = delivering;
        delivering = before.then(() => this.deliverStep(whatsappId, step));
        if (!step.again) return await delivering;
        // The next step is stored while this one is delivered, not while the one before it is.
        await before;
      }
      await delivering;
    } finally {
      // A step that failed leaves the deliveries already started to end first (their errors are the
      // step's to report).
      await delivering.catch(() => undefined);
    }
    // Back to back (interval 0, opt-outs): the run ends here and the next one goes on. A crash
    // before this line leaves this job active; the queue hands it back at start.
    await this.jobs.send<PaceJob>(CAMPAIGN_PACE_JOB, { whatsappId });
  }

  /**
   * After a step's commit: hands its stored messages to the session in one pass, sends its Cloud API
   * templates, marks the shippings whose message was refused failed, and finishes (or announces) its
   * campaigns.
   */
  private async deliverStep(whatsappId: number, step: Extract<Step, { kind: 'batch' }>): Promise<void> {
    const failures: { id: number; error: string }[] = [];
    const sent = await this.sender.deliverStoredMany(
      step.companyId,
      step.stored.flatMap((s) => s.messageIds),
    );
    const failed = new Map(sent.filter((m) => m.ack === -1).map((m) => [m.id, m.error]));
    for (const { shippingId, messageIds } of step.stored) {
      const id = messageIds.find((m) => failed.has(m));
      if (id !== undefined)
        failures.push({ id: shippingId, error: failed.get(id) ?? 'ERR_SENDING_WAPP_MSG' });
    }
    for (const t of step.templates) {
      const error = await this.sendTemplate(whatsappId, step.companyId, t.number, t.template);
      if (error) failures.push({ id: t.shippingId, error });
    }
    if (failures.length)
      await this.ctx.db.execute(sql`
        update campaign_shippings s set status = 'failed', error = v.error, updated_at = now()
        from (values ${sql.join(
          failures.map((f) => sql`(${f.id}::int, ${f.error}::text)`),
          sql`, `,
        )}) as v(id, error)
        where s.id = v.id`);
    for (const campaignId of step.campaignIds) await this.finishIfDone(step.companyId, campaignId);
  }

  /**
   * Stops the connection's running campaigns of a company that may no longer send them: their
   * pending shippings on the connection become skipped with the refusal code as error, the
   * campaigns CANCELADA (restartable from the screen once the plan allows it again); no job is
   * queued again.
   */
  private async halt(companyId: number, whatsappId: number, refusal: EntitlementRefusal): Promise<void> {
    const halted = await this.ctx.db.transaction(async (tx) => {
      const skipped = await tx
        .update(campaignShippings)
        .set({ status: 'skipped', error: refusal, updatedAt: sql`now()` })
        .where(
          and(
            eq(campaignShippings.companyId, companyId),
            eq(campaignShippings.whatsappId, whatsappId),
            eq(campaignShippings.status, 'pending'),
          ),
        )
        .returning({ campaignId: campaignShippings.campaignId });
      const ids = [...new Set(skipped.map((s) => s.campaignId))];
      if (!ids.length) return [];
      return tx
        .update(campaigns)
        .set({ status: 'CANCELADA', updatedAt: sql`now()` })
        .where(
          and(
            eq(campaigns.companyId, companyId),
            inArray(campaigns.id, ids),
            eq(campaigns.status, 'EM_ANDAMENTO'),
          ),
        )
        .returning({ id: campaigns.id });
    });
    this.ctx.log.info({ companyId, whatsappId, refusal }, 'campaign sends halted: company not allowed');
    for (const { id } of halted) await this.notify(companyId, id);
  }

  /** One pace step inside `tx` (`paceStep`; tests call it to stop a run between commit and delivery). */
  private step(tx: Tx, whatsappId: number): Promise<Step> {
    const deps: StepDeps = {
      ctx: this.ctx,
      jobs: this.jobs,
      sender: this.sender,
      media: this.media,
      random: this.random,
    };
    return paceStep(deps, tx, whatsappId);
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

  /** Inbound hook: the opt-out keyword (`CampaignAnswers.optOutFromInbound`). */
  optOutFromInbound(companyId: number, result: IngestResult): Promise<void> {
    return this.answers.optOutFromInbound(companyId, result);
  }

  /** Inbound hook: the answer that confirms a shipping (`CampaignAnswers.confirmFromInbound`). */
  confirmFromInbound(companyId: number, whatsappId: number, result: IngestResult): Promise<void> {
    return this.answers.confirmFromInbound(companyId, whatsappId, result);
  }
}
