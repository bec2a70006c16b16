import { numberSettingOf } from '@zapdesk/shared';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { OutboundSender } from '../channels/outbound-sender.js';
import type { AppContext } from '../context.js';
import type { Tx } from '../db/client.js';
import { settingEnabled } from '../db/company-rows.js';
import { preparedPerHandle } from '../db/prepared.js';
import { queues, settings, tickets, userQueues, users } from '../db/schema/index.js';
import { findTicket } from '../db/ticket-repository.js';
import type { JobQueue } from '../jobs/job-queue.js';
import { AUTOMATIC_MESSAGES } from './automatic-messages.js';

/** The job that hands a queue's waiting tickets to its available agents. */
export const AUTO_ASSIGN_JOB = 'auto-assign';

/**
 * What to assign: the tickets waiting in `queueId`, or in every queue of `userId` (who came online,
 * freed capacity or changed it), or in every queue of the company.
 */
export interface AutoAssignJob {
  companyId: number;
  queueId?: number;
  userId?: number;
}

/**
 * The job that gives back to their queues the unanswered tickets of an agent who has stayed without
 * a live socket for the company's grace period (`autoAssignGraceMinutes`).
 */
export const HAND_BACK_JOB = 'auto-assign-hand-back';

/** Whose tickets to give back. */
export interface HandBackJob {
  companyId: number;
  userId: number;
}

/** One agent's hand-back jobs share a key: a reconnect cancels the one waiting. */
const handBackKey = (job: HandBackJob) => `user:${job.companyId}:${job.userId}`;

/** Most tickets one run hands out per queue (the job runs again while some remain). */
const BATCH = 200;

/**
 * A ticket that waits for a human in its queue: pending, nobody's, not a group, no queue menu open,
 * no bot holding it, and no flow run still going on it.
 */
const waitsForHuman = and(
  eq(tickets.status, 'pending'),
  sql`${tickets.userId} is null`,
  eq(tickets.isGroup, false),
  eq(tickets.chatbot, false),
  eq(tickets.useIntegration, false),
  sql`not exists (select 1 from flow_runs fr where fr.ticket_id = ${tickets.id} and fr.status <> 'ended')`,
);

/** The ticket's queue when it waits for a human in a queue that assigns automatically (built once per handle). */
const waitingQueueStatement = preparedPerHandle((db) =>
  db
    .select({ queueId: tickets.queueId })
    .from(tickets)
    .innerJoin(queues, eq(queues.id, tickets.queueId))
    .where(
      and(
        eq(tickets.companyId, sql.placeholder('companyId')),
        eq(tickets.id, sql.placeholder('ticketId')),
        sql`${queues.autoAssignment} <> 'off'`,
        waitsForHuman,
      ),
    )
    .prepare('auto_assign_waiting_queue'),
);

/** The agents of an assigning queue who set themselves online (built once per handle). */
const membersStatement = preparedPerHandle((db) =>
  db
    .select({ id: users.id })
    .from(userQueues)
    .innerJoin(users, eq(users.id, userQueues.userId))
    .innerJoin(queues, eq(queues.id, userQueues.queueId))
    .where(
      and(
        eq(userQueues.companyId, sql.placeholder('companyId')),
        eq(userQueues.queueId, sql.placeholder('queueId')),
        eq(users.availability, 'online'),
        sql`${queues.autoAssignment} <> 'off'`,
      ),
    )
    .prepare('auto_assign_members'),
);

/**
 * Automatic assignment per queue (docs/automation.md "Automatic assignment"). A queue with
 * `autoAssignment` round_robin or least_busy hands each ticket that waits for a human, oldest first,
 * to an agent of the queue who has a live socket on any node, has not set themself 'away', and holds
 * fewer open tickets than their `maxOpenTickets` (0: unlimited). The ticket becomes open with that
 * agent exactly as on Accept: the same socket events, `acceptedAt`, and the greeting when
 * `sendGreetingAccepted` is on. Runs as a job (`request`), one company at a time, or at the end of
 * the job that handed the ticket over (`assignWaiting`); the decision is one statement
 * (`auto_assign_queue`, migration 0046) that locks the queue row, then its agents' rows in id order,
 * so two nodes never give one ticket twice nor push an agent over capacity.
 */
export class AutoAssigner {
  #jobs: JobQueue | undefined;

  constructor(
    private readonly ctx: AppContext,
    private readonly sender: OutboundSender,
  ) {}

  /** Registers the job handler (one company's runs one at a time) and the socket trigger. */
  register(jobs: JobQueue): void {
    this.#jobs = jobs;
    jobs.define<AutoAssignJob>(
      AUTO_ASSIGN_JOB,
      async (job) => {
        await this.run(job);
      },
      {
        key: (job) => `company:${job.companyId}`,
      },
    );
    jobs.define<HandBackJob>(
      HAND_BACK_JOB,
      async (job) => {
        await this.handBack(job);
      },
      { key: handBackKey },
    );
    this.ctx.realtime.onConnect((auth) => {
      const who = { companyId: auth.companyId, userId: auth.userId };
      void this.request(who);
      void jobs
        .cancelKey(HAND_BACK_JOB, handBackKey(who))
        .catch((error) => this.ctx.log.warn({ err: error, ...who }, 'hand-back cancel failed'));
    });
    this.ctx.realtime.onDisconnect(
      (auth) =>
        void this.agentLeft({ companyId: auth.companyId, userId: auth.userId }).catch((error) =>
          this.ctx.log.warn({ err: error, userId: auth.userId }, 'hand-back schedule failed'),
        ),
    );
  }

  /**
   * After one of the agent's sockets closed: when they have no live socket left on any node and
   * belong to a queue that assigns automatically, schedules the hand-back job after the company's
   * grace period (`autoAssignGraceMinutes`, default 5), replacing one already waiting.
   * @returns whether a job was scheduled.
   */
  async agentLeft(job: HandBackJob): Promise<boolean> {
    const jobs = this.#jobs;
    if (!jobs) return false;
    const { db, realtime } = this.ctx;
    if ((await realtime.connectedUsers(job.companyId, [job.userId])).size > 0) return false;
    const [assigning] = await db
      .select({ id: queues.id })
      .from(userQueues)
      .innerJoin(queues, eq(queues.id, userQueues.queueId))
      .where(
        and(
          eq(userQueues.companyId, job.companyId),
          eq(userQueues.userId, job.userId),
          sql`${queues.autoAssignment} <> 'off'`,
        ),
      )
      .limit(1);
    if (!assigning) return false;
    const [grace] = await db
      .select({ value: settings.value })
      .from(settings)
      .where(and(eq(settings.companyId, job.companyId), eq(settings.key, 'autoAssignGraceMinutes')));
    const minutes = numberSettingOf('autoAssignGraceMinutes', grace?.value);
    await jobs.cancelKey(HAND_BACK_JOB, handBackKey(job));
    await jobs.send(HAND_BACK_JOB, job, { startAfterSeconds: minutes * 60 });
    return true;
  }

  /**
   * Runs the hand-back job: unless the agent has a live socket again (on any node), their open
   * tickets of assigning queues that still wait for a first answer (no message sent by an agent
   * since `acceptedAt`; automatic messages do not count) become pending and nobody's, move rooms
   * with a `ticket` event, and their queues are run again so an available agent gets them.
   * @returns the tickets given back.
   */
  async handBack(job: HandBackJob): Promise<number[]> {
    const { db, realtime } = this.ctx;
    if ((await realtime.connectedUsers(job.companyId, [job.userId])).size > 0) return [];
    const back = await db
      .update(tickets)
      .set({ status: 'pending', userId: null, updatedAt: sql`now()` })
      .where(
        and(
          eq(tickets.companyId, job.companyId),
          eq(tickets.userId, job.userId),
          eq(tickets.status, 'open'),
          eq(tickets.isGroup, false),
          sql`${tickets.queueId} in (select q.id from queues q where q.company_id = ${job.companyId} and q.auto_assignment <> 'off')`,
          sql`not exists (select 1 from messages m where m.ticket_id = ${tickets.id} and m.from_me
            and m.user_id is not null and m.created_at >= coalesce(${tickets.acceptedAt}, ${tickets.createdAt}))`,
        ),
      )
      .returning({ id: tickets.id, queueId: tickets.queueId });
    for (const { id, queueId } of back) {
      const after = await findTicket(db, job.companyId, id);
      if (!after) continue;
      realtime.ticketMoved({ companyId: job.companyId, queueId, userId: job.userId, status: 'open' }, after, {
        action: 'update',
        ticket: after,
      });
    }
    for (const queueId of new Set(back.map((t) => t.queueId))) {
      if (queueId !== null) await this.request({ companyId: job.companyId, queueId });
    }
    return back.map((t) => t.id);
  }

  /** Queues a run; a failure to queue is logged, never thrown at the caller. */
  async request(job: AutoAssignJob): Promise<void> {
    if (!this.#jobs) return;
    await this.#jobs
      .send(AUTO_ASSIGN_JOB, job)
      .catch((error) => this.ctx.log.warn({ err: error, job }, 'auto-assign request failed'));
  }

  /**
   * The ticket's queue when the ticket now waits for a human there and the queue assigns
   * automatically (after the chatbot, a bot, a flow or a timer handed it over), or null.
   */
  async #waitingQueue(companyId: number, ticketId: number): Promise<number | null> {
    const [row] = await waitingQueueStatement(this.ctx.db).execute({ companyId, ticketId });
    return row?.queueId ?? null;
  }

  /** Queues a run for the ticket's queue when the ticket now waits there (see #waitingQueue). */
  async ticketWaiting(companyId: number, ticketId: number): Promise<void> {
    const queueId = await this.#waitingQueue(companyId, ticketId);
    if (queueId) await this.request({ companyId, queueId });
  }

  /**
   * For callers that are jobs themselves (the queue bot's end, a timer's transfer): runs the
   * ticket's queue at once instead of queuing a run, which spares a job's send, claim and
   * completion per new ticket (the queue and agent locks keep concurrent runs exact). A failed run
   * is queued as a job instead, so the ticket is not left waiting.
   */
  async assignWaiting(companyId: number, ticketId: number): Promise<void> {
    const queueId = await this.#waitingQueue(companyId, ticketId);
    if (!queueId) return;
    try {
      await this.run({ companyId, queueId });
    } catch (error) {
      this.ctx.log.warn({ err: error, companyId, queueId }, 'auto-assign run failed; queued');
      await this.request({ companyId, queueId });
    }
  }

  /**
   * Queues, in the caller's transaction, a run for `queueId` when that queue assigns automatically
   * (a flow that ends hands its ticket over this way).
   */
  async requestIn(tx: Tx, companyId: number, queueId: number): Promise<void> {
    if (!this.#jobs) return;
    const [queue] = await tx
      .select({ id: queues.id })
      .from(queues)
      .where(
        and(eq(queues.companyId, companyId), eq(queues.id, queueId), sql`${queues.autoAssignment} <> 'off'`),
      );
    if (queue) await this.#jobs.send(AUTO_ASSIGN_JOB, { companyId, queueId } satisfies AutoAssignJob, { tx });
  }

  /** Runs one job: every queue it names, until nothing more can be assigned. @returns how many were assigned. */
  async run(job: AutoAssignJob): Promise<number> {
    const { db } = this.ctx;
    let queueIds: number[];
    if (job.queueId) queueIds = [job.queueId];
    else {
      const rows = await db
        .select({ id: queues.id })
        .from(queues)
        .where(
          and(
            eq(queues.companyId, job.companyId),
            sql`${queues.autoAssignment} <> 'off'`,
            job.userId
              ? inArray(
                  queues.id,
                  db
                    .select({ id: userQueues.queueId })
                    .from(userQueues)
                    .where(eq(userQueues.userId, job.userId)),
                )
              : undefined,
          ),
        )
        .orderBy(asc(queues.id));
      queueIds = rows.map((r) => r.id);
    }
    let total = 0;
    for (const queueId of queueIds) {
      let given = BATCH;
      while (given === BATCH) {
        given = await this.assignQueue(job.companyId, queueId);
        total += given;
      }
    }
    return total;
  }

  /**
   * Hands up to BATCH waiting tickets of one queue to its available agents (see the class comment).
   * @returns how many were assigned.
   */
  async assignQueue(companyId: number, queueId: number): Promise<number> {
    const { db, realtime } = this.ctx;
    const members = await membersStatement(db).execute({ companyId, queueId });
    if (members.length === 0) return 0;
    const connected = [
      ...(await realtime.connectedUsers(
        companyId,
        members.map((m) => m.id),
      )),
    ];
    if (connected.length === 0) return 0;

    // One statement (migration 0046's function, decision 0136): the queue's lock, the agents'
    // locks in id order with their loads, the strategy's picks and the tickets' updates.
    const { rows } = await db.execute(
      sql`select assigned_ticket, assigned_user from auto_assign_queue(${companyId}, ${queueId},
        ${`{${connected.join(',')}}`}::int[], ${BATCH})`,
    );
    const assigned = (rows as { assigned_ticket: number; assigned_user: number }[]).map((r) => ({
      ticketId: r.assigned_ticket,
      userId: r.assigned_user,
    }));
    if (assigned.length === 0) return 0;
    const greet = await settingEnabled(db, companyId, 'sendGreetingAccepted');
    for (const { ticketId } of assigned) {
      const after = await findTicket(db, companyId, ticketId);
      if (!after) continue;
      realtime.ticketMoved({ companyId, queueId, userId: null, status: 'pending' }, after, {
        action: 'update',
        ticket: after,
      });
      if (greet && !after.isGroup) {
        await this.sender
          .sendAutomatic(
            companyId,
            ticketId,
            AUTOMATIC_MESSAGES.greeting(after.contact.name, after.user?.name ?? ''),
          )
          .catch((error) => this.ctx.log.warn({ err: error, ticketId }, 'greeting on assignment failed'));
      }
    }
    return assigned.length;
  }
}
