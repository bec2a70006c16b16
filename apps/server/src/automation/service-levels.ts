import {
  type ChannelPayloads,
  DEFAULT_COMPANY_SCHEDULES,
  DEFAULT_QUEUE_SCHEDULES,
  DEFAULT_SETTINGS,
  numberSettingOf,
} from '@zapdesk/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { Tx } from '../db/client.js';
import {
  companies,
  queues,
  type SlaTarget,
  settings,
  ticketSlas,
  tickets,
  users,
} from '../db/schema/index.js';
import { companiesToPlan } from '../db/sla-requests.js';
import { findTicket } from '../db/ticket-repository.js';
import type { JobQueue } from '../jobs/job-queue.js';
import type { ScheduleRow } from './attendance-hours.js';
import { addServiceMinutes } from './service-hours.js';

/**
 * The job that computes the due times of a company's targets still without one (every company's when
 * `companyId` is absent: the every-minute sweep) and schedules their warning and breach jobs.
 */
export const SLA_PLAN_JOB = 'sla-plan';

/** What to plan: one company's targets, or every company's. */
export interface SlaPlanJob {
  companyId?: number;
}

/** The delayed job of one target's warning or breach. */
export const SLA_ALERT_JOB = 'sla-alert';

/** One target's notification, queued for its moment; `dueAt` is the due time it was planned for. */
export interface SlaAlertJob {
  companyId: number;
  slaId: number;
  action: 'warning' | 'breach';
  dueAt: string;
}

/** Most targets one plan run computes (the job queues itself again while some remain). */
const BATCH = 500;

/** When the warning of a target of `minutes` goes out: after `percent` of its service time. */
export function warningMinutes(minutes: number, percent: number): number {
  return Math.max(1, Math.floor((minutes * percent) / 100));
}

interface Unplanned {
  id: number;
  companyId: number;
  ticketId: number;
  target: SlaTarget;
  openedAt: Date;
  queueId: number | null;
  minutes: number;
  metAt: Date | null;
}

/**
 * Service levels (docs/reports.md "Service levels", decisions 0104–0107). The `tickets` triggers of
 * migration `sla` write one `ticket_slas` row per target of each opening that is in a queue with
 * targets, and mark it met (first agent reply, closing). This class computes the due times (with the
 * company's attendance hours when `scheduleType` is company or queue, wall-clock otherwise), copies
 * them onto the ticket (`firstResponseDueAt`, `resolutionDueAt`) and queues, per target, a delayed
 * job at the warning time (`slaWarningPercent` of the target, default 80) and one at the due time.
 * Those jobs do nothing once the target is met, the ticket closed or the due time re-planned (a
 * transfer); otherwise they record `warned_at` / `breached_at` once and tell the ticket's agent and
 * the company's admins on the `sla` channel (one `toUser` each, which Web Push follows).
 */
export class ServiceLevels {
  #jobs: JobQueue | undefined;

  constructor(private readonly ctx: AppContext) {}

  /** Defines the plan job (also run every minute, as a sweep) and the alert job. */
  register(jobs: JobQueue): void {
    this.#jobs = jobs;
    jobs.define<SlaPlanJob>(SLA_PLAN_JOB, (job) => this.plan(job?.companyId).then(() => undefined), {
      cron: '* * * * *',
      key: (job) => (job.companyId === undefined ? undefined : `company:${job.companyId}`),
    });
    jobs.define<SlaAlertJob>(SLA_ALERT_JOB, (job) => this.alert(job).then(() => undefined));
  }

  /** Queues a plan run of the company now (after a change that may have opened targets). */
  async request(companyId: number): Promise<void> {
    await this.#jobs?.send<SlaPlanJob>(SLA_PLAN_JOB, { companyId });
  }

  /**
   * Queues one plan run per company whose tickets among `ticketIds` have targets still without a
   * due time (after a bot, a flow or a timer moved or opened them; decision 0124): in `tx` when
   * given (the caller's commit wakes nothing: call `wake`), else on its own, woken at once.
   * Nothing is queued when no target waits, so a turn that changed no queue costs one indexed read.
   */
  async requestFor(ticketIds: number[], tx: Tx = this.ctx.db): Promise<void> {
    const jobs = this.#jobs;
    if (!jobs || ticketIds.length === 0) return;
    const companies = await companiesToPlan(tx, ticketIds);
    if (companies.length === 0) return;
    const inTx = tx === this.ctx.db ? {} : { tx };
    await jobs.sendMany<SlaPlanJob>(
      SLA_PLAN_JOB,
      companies.map((companyId) => ({ companyId })),
      inTx,
    );
  }

  /**
   * Queues, in `tx`, a plan run of the company when `queueId` has a target (a flow handing its
   * ticket over to that queue, whose targets the triggers wrote in the same transaction).
   */
  async requestForQueue(tx: Tx, companyId: number, queueId: number): Promise<void> {
    if (!this.#jobs) return;
    const [queue] = await tx
      .select({ id: queues.id })
      .from(queues)
      .where(
        and(
          eq(queues.companyId, companyId),
          eq(queues.id, queueId),
          sql`(${queues.slaFirstResponseMinutes} is not null or ${queues.slaResolutionMinutes} is not null)`,
        ),
      );
    if (queue) await this.#jobs.send<SlaPlanJob>(SLA_PLAN_JOB, { companyId }, { tx });
  }

  /** Wakes this node's plan worker after a commit that queued runs (`requestFor` / `requestForQueue` with `tx`). */
  wake(): void {
    this.#jobs?.wake(SLA_PLAN_JOB);
  }

  /**
   * Computes the due time of up to BATCH targets without one (of `companyId`, or of every company),
   * writes it on the target and, when the target is still the ticket's current one, on the ticket,
   * and queues the target's warning and breach jobs. A target met before it was planned gets its due
   * time (the reports compare them) and no job. @returns how many targets were planned.
   */
  async plan(companyId?: number): Promise<number> {
    const { db } = this.ctx;
    const rows: Unplanned[] = await db
      .select({
        id: ticketSlas.id,
        companyId: ticketSlas.companyId,
        ticketId: ticketSlas.ticketId,
        target: ticketSlas.target,
        openedAt: ticketSlas.openedAt,
        queueId: ticketSlas.queueId,
        minutes: ticketSlas.minutes,
        metAt: ticketSlas.metAt,
      })
      .from(ticketSlas)
      .where(
        and(
          sql`${ticketSlas.dueAt} is null`,
          companyId === undefined ? undefined : eq(ticketSlas.companyId, companyId),
        ),
      )
      .orderBy(ticketSlas.id)
      .limit(BATCH);
    const byCompany = new Map<number, Unplanned[]>();
    for (const row of rows) byCompany.set(row.companyId, [...(byCompany.get(row.companyId) ?? []), row]);
    for (const [company, list] of byCompany) await this.#planCompany(company, list);
    if (rows.length === BATCH)
      await this.#jobs?.send<SlaPlanJob>(SLA_PLAN_JOB, companyId === undefined ? {} : { companyId });
    return rows.length;
  }

  async #planCompany(companyId: number, rows: Unplanned[]): Promise<void> {
    const { db } = this.ctx;
    const found = await db
      .select({ key: settings.key, value: settings.value })
      .from(settings)
      .where(
        and(eq(settings.companyId, companyId), inArray(settings.key, ['scheduleType', 'slaWarningPercent'])),
      );
    const value = (key: string) => found.find((r) => r.key === key)?.value;
    const scheduleType = value('scheduleType') ?? DEFAULT_SETTINGS.scheduleType;
    const percent = numberSettingOf('slaWarningPercent', value('slaWarningPercent'));
    let companyHours: ScheduleRow[] | null = null;
    if (scheduleType === 'company') {
      const [company] = await db
        .select({ schedules: companies.schedules })
        .from(companies)
        .where(eq(companies.id, companyId));
      companyHours = company?.schedules ?? DEFAULT_COMPANY_SCHEDULES;
    }
    const queueHours = new Map<number, ScheduleRow[]>();
    if (scheduleType === 'queue') {
      const ids = [...new Set(rows.map((r) => r.queueId).filter((id): id is number => id !== null))];
      if (ids.length) {
        const found = await db
          .select({ id: queues.id, schedules: queues.schedules })
          .from(queues)
          .where(and(eq(queues.companyId, companyId), inArray(queues.id, ids)));
        for (const q of found) queueHours.set(q.id, q.schedules ?? DEFAULT_QUEUE_SCHEDULES);
      }
    }
    const now = Date.now();
    for (const row of rows) {
      const hours =
        scheduleType === 'company'
          ? companyHours
          : scheduleType === 'queue'
            ? (queueHours.get(row.queueId ?? -1) ?? DEFAULT_QUEUE_SCHEDULES)
            : null;
      const dueAt = addServiceMinutes(row.openedAt, row.minutes, hours);
      const warnAt = addServiceMinutes(row.openedAt, warningMinutes(row.minutes, percent), hours);
      const alerts = await db.transaction(async (tx) => {
        // Only the run that plans the row as it still stands (not re-planned by a transfer) goes on.
        const [planned] = await tx
          .update(ticketSlas)
          .set({ dueAt })
          .where(
            and(
              eq(ticketSlas.id, row.id),
              sql`${ticketSlas.dueAt} is null`,
              eq(ticketSlas.minutes, row.minutes),
              sql`${ticketSlas.queueId} is not distinct from ${row.queueId}`,
            ),
          )
          .returning({ metAt: ticketSlas.metAt });
        if (!planned || planned.metAt) return false;
        // The ticket shows the due time while this target is its current one: not closed, in the
        // target's queue, and this opening is its last.
        const current = await tx
          .update(tickets)
          .set(row.target === 'first_response' ? { firstResponseDueAt: dueAt } : { resolutionDueAt: dueAt })
          .where(
            and(
              eq(tickets.id, row.ticketId),
              eq(tickets.companyId, companyId),
              sql`${tickets.status} <> 'closed'`,
              sql`${tickets.queueId} is not distinct from ${row.queueId}`,
              // Compared in SQL: a JavaScript date would drop the microseconds Postgres keeps.
              sql`(select s.opened_at from ticket_slas s where s.id = ${row.id}) = coalesce((select e.at from ticket_events e
                where e.ticket_id = ${tickets.id} and e.company_id = ${tickets.companyId}
                  and e.kind in ('created', 'reopened') order by e.id desc limit 1), ${tickets.createdAt})`,
            ),
          )
          .returning({ id: tickets.id });
        if (!current.length) return false;
        const jobs = this.#jobs;
        if (!jobs) return true;
        const base = { companyId, slaId: row.id, dueAt: dueAt.toISOString() };
        const seconds = (at: Date) => Math.max(0, Math.ceil((at.getTime() - now) / 1000));
        // A due time already passed gets its breach at once and no warning; a warning time already
        // passed goes out at once.
        if (dueAt.getTime() > now) {
          await jobs.send<SlaAlertJob>(
            SLA_ALERT_JOB,
            { ...base, action: 'warning' },
            { tx, startAfterSeconds: seconds(warnAt) },
          );
        }
        await jobs.send<SlaAlertJob>(
          SLA_ALERT_JOB,
          { ...base, action: 'breach' },
          { tx, startAfterSeconds: seconds(dueAt) },
        );
        return true;
      });
      if (alerts) {
        this.#jobs?.wake(SLA_ALERT_JOB);
        await this.#emitTicket(companyId, row.ticketId);
      }
    }
  }

  /** Sends the ticket's new due times to the sockets that see it (lists show the mark live). */
  async #emitTicket(companyId: number, ticketId: number): Promise<void> {
    const ticket = await findTicket(this.ctx.db, companyId, ticketId);
    if (ticket) this.ctx.realtime.toTicket(ticket, 'ticket', { action: 'update', ticket });
  }

  /**
   * Runs one warning or breach job: nothing when the target was met, its ticket closed, or its due
   * time is no longer the one the job was queued for; otherwise records `warned_at` / `breached_at`
   * (once: a second run finds it set) and emits `sla` to the ticket's agent and the company's admins.
   * @returns whether anybody was told.
   */
  async alert(job: SlaAlertJob): Promise<boolean> {
    const { db, realtime } = this.ctx;
    const stamp = job.action === 'warning' ? ticketSlas.warnedAt : ticketSlas.breachedAt;
    const [hit] = await db
      .update(ticketSlas)
      .set(job.action === 'warning' ? { warnedAt: sql`now()` } : { breachedAt: sql`now()` })
      .where(
        and(
          eq(ticketSlas.id, job.slaId),
          eq(ticketSlas.companyId, job.companyId),
          sql`${stamp} is null`,
          sql`${ticketSlas.metAt} is null`,
          sql`${ticketSlas.dueAt} = ${job.dueAt}::timestamptz`,
          sql`exists (select 1 from tickets t where t.id = ${ticketSlas.ticketId} and t.status <> 'closed')`,
        ),
      )
      .returning({ ticketId: ticketSlas.ticketId, target: ticketSlas.target, dueAt: ticketSlas.dueAt });
    if (!hit) return false;
    const [ticket] = await db
      .select({ id: tickets.id, uuid: tickets.uuid, userId: tickets.userId, name: sql<string>`c.name` })
      .from(tickets)
      .innerJoin(sql`contacts c`, sql`c.id = ${tickets.contactId}`)
      .where(eq(tickets.id, hit.ticketId));
    if (!ticket) return false;
    const admins = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.companyId, job.companyId), eq(users.profile, 'admin')));
    const recipients = new Set(admins.map((a) => a.id));
    if (ticket.userId !== null) recipients.add(ticket.userId);
    const payload: ChannelPayloads['sla'] = {
      action: job.action,
      ticketId: ticket.id,
      ticketUuid: ticket.uuid,
      contactName: ticket.name,
      target: hit.target,
      dueAt: hit.dueAt!.toISOString(),
    };
    for (const userId of recipients) realtime.toUser(job.companyId, userId, 'sla', payload);
    return true;
  }
}
