import { and, eq, sql } from 'drizzle-orm';
import type { OutboundSender } from '../channels/outbound-sender.js';
import type { AppContext } from '../context.js';
import { settings } from '../db/schema/index.js';
import { findTicket } from '../db/ticket-repository.js';
import type { JobQueue } from '../jobs/job-queue.js';
import type { AutoAssigner } from './auto-assign.js';
import { AUTOMATIC_MESSAGES } from './automatic-messages.js';
import { CONNECTION_TIMERS_JOB } from './jobs.js';
import { fillVariables } from './message-variables.js';
import type { ServiceLevels } from './service-levels.js';

interface ExpiredRow extends Record<string, unknown> {
  id: number;
  company_id: number;
  queue_id: number | null;
  user_id: number | null;
  message: string;
}

interface TransferredRow extends Record<string, unknown> {
  id: number;
  company_id: number;
  old_queue_id: number | null;
}

/**
 * The connection timers (document 2, connection fields), run every minute from the job queue:
 * - `expiresTicket` (minutes): an open ticket without activity (no message either way, no change)
 *   for that long is closed, and the connection's `expiresInactiveMessage` is sent when it has one;
 * - `timeToTransfer` (minutes): a pending ticket nobody accepted, inactive for that long, moves to the
 *   connection's `transferQueueId` (with the transfer message when `sendMsgTransfTicket` is on).
 * Each rule is one UPDATE over the indexed live tickets; rows are claimed with SKIP LOCKED so two
 * nodes never act on the same ticket.
 */
export class ConnectionTimers {
  constructor(
    private readonly ctx: AppContext,
    private readonly sender: OutboundSender,
    /** Automatic assignment: an expired ticket frees its agent, a transferred one may be taken. */
    private readonly assigner?: Pick<AutoAssigner, 'request' | 'assignWaiting'>,
    /** Service levels: a ticket transferred into a queue with targets gets its due times at once. */
    private readonly sla?: Pick<ServiceLevels, 'requestFor'>,
  ) {}

  /** Registers the every-minute job; one run at a time across nodes (one key). */
  register(jobs: JobQueue): void {
    jobs.define(CONNECTION_TIMERS_JOB, () => this.run().then(() => undefined), {
      cron: '* * * * *',
      retryLimit: 0,
      key: () => CONNECTION_TIMERS_JOB,
      concurrency: 1,
    });
  }

  /** Applies both timers as of `now`. @returns how many tickets were closed and transferred. */
  async run(now: Date = new Date()): Promise<{ closed: number; transferred: number }> {
    const closed = await this.expire(now);
    const transferred = await this.transfer(now);
    return { closed, transferred };
  }

  private async expire(now: Date): Promise<number> {
    const at = now.toISOString();
    const { rows } = await this.ctx.db.execute<ExpiredRow>(sql`
      with due as (
        select t.id, w.expires_inactive_message as message
        from tickets t
        join whatsapps w on w.id = t.whatsapp_id
        where w.expires_ticket > 0
          and t.status = 'open'
          and t.updated_at < ${at}::timestamptz - make_interval(mins => w.expires_ticket)
        for update of t skip locked
      )
      update tickets t
      set status = 'closed', closed_at = ${at}::timestamptz, unread_messages = 0, chatbot = false,
          updated_at = ${at}::timestamptz
      from due
      where t.id = due.id
      returning t.id, t.company_id, t.queue_id, t.user_id, due.message`);
    for (const row of rows) {
      const before = {
        companyId: row.company_id,
        queueId: row.queue_id,
        userId: row.user_id,
        status: 'open',
      };
      const after = await findTicket(this.ctx.db, row.company_id, row.id);
      if (!after) continue;
      this.ctx.realtime.ticketMoved(before, after, { action: 'update', ticket: after });
      if (row.user_id !== null)
        await this.assigner?.request({ companyId: row.company_id, userId: row.user_id });
      if (row.message.trim()) {
        const text = fillVariables(row.message, {
          contactName: after.contact.name,
          ticketId: after.id,
          ticketCreatedAt: new Date(after.createdAt),
        });
        await this.sender.sendAutomatic(row.company_id, row.id, text);
      }
    }
    return rows.length;
  }

  private async transfer(now: Date): Promise<number> {
    const at = now.toISOString();
    const { rows } = await this.ctx.db.execute<TransferredRow>(sql`
      with due as (
        select t.id, t.queue_id as old_queue_id, w.transfer_queue_id
        from tickets t
        join whatsapps w on w.id = t.whatsapp_id
        join queues q on q.id = w.transfer_queue_id and q.company_id = t.company_id
        where w.time_to_transfer > 0
          and t.status = 'pending'
          and t.user_id is null
          and t.queue_id is distinct from w.transfer_queue_id
          and t.updated_at < ${at}::timestamptz - make_interval(mins => w.time_to_transfer)
        for update of t skip locked
      )
      update tickets t
      set queue_id = due.transfer_queue_id, queue_option_id = null, chatbot = false,
          amount_used_bot_queues = 0, updated_at = ${at}::timestamptz
      from due
      where t.id = due.id
      returning t.id, t.company_id, due.old_queue_id`);
    for (const row of rows) {
      const before = {
        companyId: row.company_id,
        queueId: row.old_queue_id,
        userId: null,
        status: 'pending',
      };
      const after = await findTicket(this.ctx.db, row.company_id, row.id);
      if (!after) continue;
      this.ctx.realtime.ticketMoved(before, after, { action: 'update', ticket: after });
      if (after.queue && !after.isGroup && (await this.enabled(row.company_id, 'sendMsgTransfTicket'))) {
        await this.sender.sendAutomatic(
          row.company_id,
          row.id,
          AUTOMATIC_MESSAGES.transferQueue(after.queue.name),
        );
      }
      await this.assigner?.assignWaiting(row.company_id, row.id);
    }
    await this.sla?.requestFor(rows.map((row) => row.id));
    return rows.length;
  }

  private async enabled(companyId: number, key: string): Promise<boolean> {
    const [row] = await this.ctx.db
      .select({ value: settings.value })
      .from(settings)
      .where(and(eq(settings.companyId, companyId), eq(settings.key, key)));
    return row?.value === 'enabled';
  }
}
