import {
  type CreateQueueOptionBody,
  DEFAULT_QUEUE_SCHEDULES,
  parsePatch,
  type QueueBody,
  type QueueDetail,
  type QueueOption,
  type UpdateQueueOptionBody,
  ZCreateQueueOptionBody,
  ZQueueBody,
  ZUpdateQueueOptionBody,
} from '@zapdesk/shared';
import { and, asc, count, eq, isNull, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { companies, plans, queueOptions, queues, tickets } from '../../db/schema/index.js';
import { AppError, orNotFound } from '../../lib/app-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { assertPromptOfCompany } from '../prompts/prompts-service.js';
import { assertIntegrationOfCompany } from '../queue-integrations/queue-integrations-service.js';
import { findTickets } from '../tickets/ticket-repository.js';

type Executor = Pick<Database, 'select'>;

/** The columns of GET /queue's list items (ZQueue). */
const queueListColumns = {
  id: queues.id,
  name: queues.name,
  color: queues.color,
  orderQueue: queues.orderQueue,
  greetingMessage: queues.greetingMessage,
  outOfHoursMessage: queues.outOfHoursMessage,
};

const queueColumns = {
  ...queueListColumns,
  schedules: queues.schedules,
  integrationId: queues.integrationId,
  promptId: queues.promptId,
  autoAssignment: queues.autoAssignment,
  slaFirstResponseMinutes: queues.slaFirstResponseMinutes,
  slaResolutionMinutes: queues.slaResolutionMinutes,
};

/** GET /queue: the company's queues in the list shape, ordered by order (unset last), then name. */
export function listQueues(ctx: AppContext, companyId: number) {
  return ctx.db
    .select(queueListColumns)
    .from(queues)
    .where(eq(queues.companyId, companyId))
    .orderBy(sql`${queues.orderQueue} asc nulls last`, asc(queues.name));
}

const optionColumns = {
  id: queueOptions.id,
  queueId: queueOptions.queueId,
  parentId: queueOptions.parentId,
  title: queueOptions.title,
  message: queueOptions.message,
  option: queueOptions.option,
};

/** Orders options by their number when numeric ('2' before '10'), then as text, then by id. */
const optionOrder = [
  sql`case when ${queueOptions.option} ~ '^[0-9]{1,9}$' then ${queueOptions.option}::int end asc nulls last`,
  asc(queueOptions.option),
  asc(queueOptions.id),
];

/**
 * The options tree of a queue (document 2 section 3 Queue option): one query, nested in memory,
 * each level ordered by option number. Used by GET /queue/:id and the chatbot walk.
 */
export async function loadOptionTree(
  db: Executor,
  companyId: number,
  queueId: number,
): Promise<QueueOption[]> {
  const rows = await db
    .select(optionColumns)
    .from(queueOptions)
    .where(and(eq(queueOptions.companyId, companyId), eq(queueOptions.queueId, queueId)))
    .orderBy(...optionOrder);
  const byParent = new Map<number | null, QueueOption[]>();
  for (const row of rows) {
    const list = byParent.get(row.parentId) ?? [];
    list.push({ ...row });
    byParent.set(row.parentId, list);
  }
  const attach = (parentId: number | null): QueueOption[] =>
    (byParent.get(parentId) ?? []).map((node) => ({ ...node, children: attach(node.id) }));
  return attach(null);
}

/**
 * GET /queue/:id: the company's queue with its schedules (the spec's defaults when never saved)
 * and its options tree. @throws ERR_NO_QUEUE_FOUND (also for another company's queue).
 */
export async function getQueue(ctx: AppContext, companyId: number, id: number): Promise<QueueDetail> {
  const [row] = await ctx.db
    .select(queueColumns)
    .from(queues)
    .where(and(eq(queues.companyId, companyId), eq(queues.id, id)));
  if (!row) throw new AppError('ERR_NO_QUEUE_FOUND');
  const options = await loadOptionTree(ctx.db, companyId, id);
  return { ...row, schedules: row.schedules ?? DEFAULT_QUEUE_SCHEDULES, options };
}

function rethrowColor(error: unknown): never {
  if (isUniqueViolation(error))
    throw new AppError('ERR_QUEUE_COLOR_ALREADY_EXISTS', { extra: { field: 'color' } });
  throw error;
}

/** A prompt or integration of another company cannot be attached. @throws ERR_NOT_FOUND. */
async function assertBots(
  ctx: AppContext,
  companyId: number,
  body: { promptId?: number | null; integrationId?: number | null },
): Promise<void> {
  await assertPromptOfCompany(ctx.db, companyId, body.promptId);
  await assertIntegrationOfCompany(ctx.db, companyId, body.integrationId);
}

/**
 * POST /queue (admin): creates a queue within the plan's queue limit (`plans.queues`, checked with
 * the company row locked). Schedules default to the spec's hours.
 * @throws ERR_QUEUE_LIMIT_REACHED, ERR_QUEUE_COLOR_ALREADY_EXISTS, ERR_VALIDATION.
 */
export async function createQueue(
  ctx: AppContext,
  companyId: number,
  input: QueueBody,
): Promise<QueueDetail> {
  const body = ZQueueBody.parse(input);
  await assertBots(ctx, companyId, body);
  const id = await ctx.db
    .transaction(async (tx) => {
      const [company] = await tx
        .select({ limit: plans.queues })
        .from(companies)
        .leftJoin(plans, eq(plans.id, companies.planId))
        .where(eq(companies.id, companyId))
        .for('update', { of: companies });
      const [existing] = await tx
        .select({ value: count() })
        .from(queues)
        .where(eq(queues.companyId, companyId));
      if (company?.limit != null && (existing?.value ?? 0) >= company.limit) {
        throw new AppError('ERR_QUEUE_LIMIT_REACHED', { extra: { limit: company.limit } });
      }
      const [row] = await tx
        .insert(queues)
        .values({ ...body, schedules: body.schedules ?? DEFAULT_QUEUE_SCHEDULES, companyId })
        .returning({ id: queues.id });
      return row!.id;
    })
    .catch(rethrowColor);
  const queue = await getQueue(ctx, companyId, id);
  ctx.realtime.toCompany(companyId, 'queue', { action: 'create', queue });
  return queue;
}

/**
 * PUT /queue/:id (admin): replaces the queue's fields; `schedules` replace the stored hours when
 * given. @throws ERR_NO_QUEUE_FOUND, ERR_QUEUE_COLOR_ALREADY_EXISTS, ERR_VALIDATION.
 */
export async function updateQueue(
  ctx: AppContext,
  companyId: number,
  id: number,
  input: Partial<QueueBody>,
): Promise<QueueDetail> {
  const body = parsePatch(ZQueueBody, input);
  await assertBots(ctx, companyId, body);
  const { schedules, ...fields } = body;
  const updated = await ctx.db
    .update(queues)
    .set({ ...fields, ...(schedules ? { schedules } : {}), updatedAt: sql`now()` })
    .where(and(eq(queues.companyId, companyId), eq(queues.id, id)))
    .returning({ id: queues.id })
    .catch(rethrowColor);
  if (!updated.length) throw new AppError('ERR_NO_QUEUE_FOUND');
  const queue = await getQueue(ctx, companyId, id);
  ctx.realtime.toCompany(companyId, 'queue', { action: 'update', queue });
  return queue;
}

/**
 * DELETE /queue/:id (admin): removes the queue, its options and its user/connection links; its
 * tickets keep no queue. Emits `queue` delete, and `ticket` update for each live ticket it held (with
 * `ticket` delete to the queue's members who no longer see it). @throws ERR_NO_QUEUE_FOUND.
 */
export async function deleteQueue(ctx: AppContext, companyId: number, id: number): Promise<void> {
  const moved = await ctx.db.transaction(async (tx) => {
    // The live tickets of the queue (locked, so none joins or leaves it meanwhile) lose their queue.
    const live = await tx
      .select({ id: tickets.id, userId: tickets.userId, status: tickets.status })
      .from(tickets)
      .where(and(eq(tickets.companyId, companyId), eq(tickets.queueId, id), ne(tickets.status, 'closed')))
      .for('update');
    const deleted = await tx
      .delete(queues)
      .where(and(eq(queues.companyId, companyId), eq(queues.id, id)))
      .returning({ id: queues.id });
    if (!deleted.length) throw new AppError('ERR_NO_QUEUE_FOUND');
    return live;
  });
  ctx.realtime.toCompany(companyId, 'queue', { action: 'delete', queueId: id });
  // Each live ticket now has no queue: the queue's members lose it, the no-queue room gains it.
  const before = new Map(moved.map((t) => [t.id, t]));
  for (const ticket of await findTickets(ctx.db, companyId, [...before.keys()])) {
    const old = before.get(ticket.id)!;
    ctx.realtime.ticketMoved({ companyId, queueId: id, userId: old.userId, status: old.status }, ticket, {
      action: 'update',
      ticket,
    });
  }
}

async function assertQueue(db: Executor, companyId: number, queueId: number): Promise<void> {
  const [row] = await db
    .select({ id: queues.id })
    .from(queues)
    .where(and(eq(queues.companyId, companyId), eq(queues.id, queueId)));
  if (!row) throw new AppError('ERR_NO_QUEUE_FOUND');
}

async function findOption(db: Executor, companyId: number, id: number) {
  const [row] = await db
    .select(optionColumns)
    .from(queueOptions)
    .where(and(eq(queueOptions.companyId, companyId), eq(queueOptions.id, id)));
  return row;
}

/**
 * GET /queue-options: the options of a queue under `parentId` (-1: top level), ordered by option
 * number. @throws ERR_NO_QUEUE_FOUND for another company's queue.
 */
export async function listOptions(
  ctx: AppContext,
  companyId: number,
  queueId: number,
  parentId: number,
): Promise<QueueOption[]> {
  await assertQueue(ctx.db, companyId, queueId);
  return ctx.db
    .select(optionColumns)
    .from(queueOptions)
    .where(
      and(
        eq(queueOptions.companyId, companyId),
        eq(queueOptions.queueId, queueId),
        parentId === -1 ? isNull(queueOptions.parentId) : eq(queueOptions.parentId, parentId),
      ),
    )
    .orderBy(...optionOrder);
}

/**
 * POST /queue-options (admin): adds an option under `parentId` (null/-1: top level) of the
 * company's queue; without `option` it takes the next number among its siblings.
 * @throws ERR_NO_QUEUE_FOUND, ERR_NOT_FOUND (parent not in that queue), ERR_VALIDATION.
 */
export async function createOption(
  ctx: AppContext,
  companyId: number,
  input: CreateQueueOptionBody,
): Promise<QueueOption> {
  const body = ZCreateQueueOptionBody.parse(input);
  await assertQueue(ctx.db, companyId, body.queueId);
  if (body.parentId !== null) {
    const parent = await findOption(ctx.db, companyId, body.parentId);
    if (!parent || parent.queueId !== body.queueId)
      throw new AppError('ERR_NOT_FOUND', { extra: { field: 'parentId' } });
  }
  let option = body.option === undefined || body.option === '' ? undefined : String(body.option);
  if (option === undefined) {
    const [siblings] = await ctx.db
      .select({ value: count() })
      .from(queueOptions)
      .where(
        and(
          eq(queueOptions.companyId, companyId),
          eq(queueOptions.queueId, body.queueId),
          body.parentId === null ? isNull(queueOptions.parentId) : eq(queueOptions.parentId, body.parentId),
        ),
      );
    option = String((siblings?.value ?? 0) + 1);
  }
  const [row] = await ctx.db
    .insert(queueOptions)
    .values({
      companyId,
      queueId: body.queueId,
      parentId: body.parentId,
      title: body.title,
      message: body.message,
      option,
    })
    .returning(optionColumns);
  return row!;
}

/** PUT /queue-options/:id (admin): edits title, message and option number. @throws ERR_NOT_FOUND. */
export async function updateOption(
  ctx: AppContext,
  companyId: number,
  id: number,
  input: Partial<UpdateQueueOptionBody>,
): Promise<QueueOption> {
  const body = parsePatch(ZUpdateQueueOptionBody, input);
  const [row] = await ctx.db
    .update(queueOptions)
    .set({
      title: body.title,
      message: body.message,
      ...(body.option === undefined ? {} : { option: String(body.option) }),
      updatedAt: sql`now()`,
    })
    .where(and(eq(queueOptions.companyId, companyId), eq(queueOptions.id, id)))
    .returning(optionColumns);
  return orNotFound(row);
}

/** DELETE /queue-options/:id (admin): removes the option and its whole subtree. @throws ERR_NOT_FOUND. */
export async function deleteOption(ctx: AppContext, companyId: number, id: number): Promise<void> {
  const deleted = await ctx.db
    .delete(queueOptions)
    .where(and(eq(queueOptions.companyId, companyId), eq(queueOptions.id, id)))
    .returning({ id: queueOptions.id });
  if (!deleted.length) throw new AppError('ERR_NOT_FOUND');
}
