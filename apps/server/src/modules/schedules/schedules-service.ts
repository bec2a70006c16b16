import {
  parsePatch,
  SCHEDULE_MEDIA_TYPES,
  type Schedule,
  type ScheduleBody,
  type SchedulesPage,
  ZScheduleBody,
} from '@zapdesk/shared';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { fillVariables } from '../../automation/message-variables.js';
import type { MediaStore } from '../../channels/media-store.js';
import type { OutboundSender } from '../../channels/outbound-sender.js';
import { inspectUpload, type UploadedFile } from '../../channels/outbound-upload.js';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { contacts, schedules, tickets, whatsapps } from '../../db/schema/index.js';
import {
  assertMayActOnContact,
  assertMayActOnTicket,
  loadUserViewer,
  loadViewer,
} from '../../db/ticket-visibility.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import { AppError, orNotFound } from '../../lib/app-error.js';
import { pickColumns } from '../../lib/columns.js';
import { companyRefusal } from '../../lib/company-entitlement.js';
import type { AuthContext } from '../../lib/guards.js';
import { containsTerm, readPage, type SearchPageQuery } from '../../lib/search-page.js';
import { swapStoredMedia } from '../../lib/stored-media.js';

/** Schedules per page of GET /schedules. */
export const SCHEDULES_PAGE_SIZE = 20;

/** The job sending one schedule at its sendAt (keyed `schedule-{id}`). */
export const SCHEDULE_SEND_JOB = 'schedule-send';

/** What a schedule job carries: the schedule and the sendAt it was queued for (ISO). */
export interface ScheduleSendJob {
  companyId: number;
  scheduleId: number;
  sendAt: string;
}

/** The ticket a schedule's job sends on, with what the acting check reads. */
interface ScheduleTicket {
  id: number;
  createdAt: Date;
  userId: number | null;
  queueId: number | null;
  status: string;
}

const keyOf = (scheduleId: number) => `schedule-${scheduleId}`;

const columns = {
  ...pickColumns(schedules, [
    'id',
    'body',
    'sendAt',
    'sentAt',
    'status',
    'error',
    'contactId',
    'userId',
    'ticketId',
    'mediaPath',
    'mediaName',
    'createdAt',
  ]),
  contactName: contacts.name,
  contactNumber: contacts.number,
};

interface Row {
  id: number;
  body: string;
  sendAt: Date;
  sentAt: Date | null;
  status: Schedule['status'];
  error: string | null;
  contactId: number;
  userId: number | null;
  ticketId: number | null;
  mediaPath: string | null;
  mediaName: string | null;
  createdAt: Date;
  contactName: string;
  contactNumber: string;
}

function toSchedule(row: Row): Schedule {
  return {
    id: row.id,
    body: row.body,
    sendAt: row.sendAt.toISOString(),
    sentAt: row.sentAt ? row.sentAt.toISOString() : null,
    status: row.status,
    error: row.error,
    contactId: row.contactId,
    contact: { id: row.contactId, name: row.contactName, number: row.contactNumber },
    userId: row.userId,
    ticketId: row.ticketId,
    mediaPath: row.mediaPath,
    mediaName: row.mediaName,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Schedules (document 2 section 5): CRUD, media, and the job that sends each one
 * at its sendAt. Build one per app; `register(jobs)` before the queue starts. Other modules
 * (campaigns) may call `create`, `find` and `sendDue`-style helpers through this class.
 */
export class ScheduleService {
  constructor(
    private readonly ctx: AppContext,
    private readonly jobs: JobQueue,
    private readonly sender: OutboundSender,
    private readonly media: MediaStore,
  ) {}

  /** Declares the `schedule-send` job (one at a time per schedule). */
  register(): void {
    this.jobs.define<ScheduleSendJob>(SCHEDULE_SEND_JOB, (data) => this.runJob(data), {
      key: (data) => keyOf(data.scheduleId),
    });
  }

  /** Emits `company-{id}-schedule` to the company. */
  private emit(companyId: number, payload: { schedule: Schedule; action: 'create' | 'update' }): void {
    this.ctx.realtime.toCompany(companyId, 'schedule', payload);
  }

  /** One schedule of the company with its contact, or undefined. */
  async find(companyId: number, id: number): Promise<Schedule | undefined> {
    const [row] = await this.ctx.db
      .select(columns)
      .from(schedules)
      .innerJoin(contacts, eq(contacts.id, schedules.contactId))
      .where(and(eq(schedules.companyId, companyId), eq(schedules.id, id)));
    return row ? toSchedule(row as Row) : undefined;
  }

  /** GET /schedules/:id. @throws ERR_NOT_FOUND (also another company's id). */
  async get(auth: AuthContext, id: number): Promise<Schedule> {
    const found = await this.find(auth.companyId, id);
    return orNotFound(found);
  }

  /**
   * GET /schedules: the company's schedules by sendAt (newest first), filtered by `searchParam` on
   * the body and the contact's name and by `contactId`, 20 a page (`schedules`, `hasMore`).
   */
  async list(auth: AuthContext, query: SearchPageQuery & { contactId?: number }): Promise<SchedulesPage> {
    const { page, hasMore } = await readPage(query.pageNumber, SCHEDULES_PAGE_SIZE, ({ limit, offset }) =>
      this.ctx.db
        .select(columns)
        .from(schedules)
        .innerJoin(contacts, eq(contacts.id, schedules.contactId))
        .where(
          and(
            eq(schedules.companyId, auth.companyId),
            query.contactId ? eq(schedules.contactId, query.contactId) : undefined,
            containsTerm(query.searchParam, schedules.body, contacts.name),
          ),
        )
        .orderBy(desc(schedules.sendAt), asc(schedules.id))
        .limit(limit)
        .offset(offset),
    );
    return { schedules: page.map((r) => toSchedule(r as Row)), hasMore };
  }

  private async assertContact(companyId: number, contactId: number): Promise<void> {
    const [found] = await this.ctx.db
      .select({ id: contacts.id })
      .from(contacts)
      .where(and(eq(contacts.companyId, companyId), eq(contacts.id, contactId)));
    if (!found) throw new AppError('ERR_NO_CONTACT_FOUND', { extra: { field: 'contactId' } });
  }

  /** Queues the schedule's job due at `sendAt` (at once when past), inside `tx`. */
  private async queue(tx: Tx, companyId: number, scheduleId: number, sendAt: Date): Promise<void> {
    const seconds = Math.max(0, Math.ceil((sendAt.getTime() - Date.now()) / 1000));
    await this.jobs.send<ScheduleSendJob>(
      SCHEDULE_SEND_JOB,
      { companyId, scheduleId, sendAt: sendAt.toISOString() },
      { tx, startAfterSeconds: seconds },
    );
  }

  /**
   * The caller may write to the contact: it exists in the company and the caller may open each of
   * its live tickets (docs/security.md "Acting on a ticket").
   * @throws ERR_NO_CONTACT_FOUND, ERR_NO_PERMISSION (403).
   */
  private async assertMayWriteTo(auth: AuthContext, contactId: number): Promise<void> {
    await this.assertContact(auth.companyId, contactId);
    await assertMayActOnContact(this.ctx.db, await loadViewer(this.ctx.db, auth), contactId);
  }

  /**
   * POST /schedules: a PENDENTE schedule of the caller for a company contact, and its job due at
   * sendAt. @throws ERR_VALIDATION, ERR_NO_CONTACT_FOUND (no such contact in the company),
   * ERR_NO_PERMISSION (403: the contact has a live ticket the caller may not open).
   */
  async create(auth: AuthContext, input: ScheduleBody): Promise<Schedule> {
    const body = ZScheduleBody.parse(input);
    await this.assertMayWriteTo(auth, body.contactId);
    const sendAt = new Date(body.sendAt);
    const id = await this.ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(schedules)
        .values({
          companyId: auth.companyId,
          userId: auth.userId,
          contactId: body.contactId,
          body: body.body,
          sendAt,
        })
        .returning({ id: schedules.id });
      await this.queue(tx, auth.companyId, row!.id, sendAt);
      return row!.id;
    });
    this.jobs.wake(SCHEDULE_SEND_JOB);
    const schedule = (await this.find(auth.companyId, id))!;
    this.emit(auth.companyId, { action: 'create', schedule });
    return schedule;
  }

  /**
   * PUT /schedules/:id: edits body, contact and sendAt. The schedule becomes PENDENTE again (error
   * and sentAt cleared: editing is how a failed or sent schedule is sent again), its queued job is
   * cancelled and a new one queued at the new sendAt. The editor re-arms it: the editor must be able
   * to write to its (new) contact, and the job then sends on the editor's behalf (`userId`).
   * @throws ERR_NOT_FOUND, ERR_NO_CONTACT_FOUND, ERR_NO_PERMISSION (403, as in `create`).
   */
  async update(auth: AuthContext, id: number, input: Partial<ScheduleBody>): Promise<Schedule> {
    const patch = parsePatch(ZScheduleBody, input);
    const current = await this.get(auth, id);
    await this.assertMayWriteTo(auth, patch.contactId ?? current.contactId);
    await this.ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .update(schedules)
        .set({
          ...(patch.body !== undefined ? { body: patch.body } : {}),
          ...(patch.contactId !== undefined ? { contactId: patch.contactId } : {}),
          ...(patch.sendAt !== undefined ? { sendAt: new Date(patch.sendAt) } : {}),
          userId: auth.userId,
          status: 'PENDENTE',
          error: null,
          sentAt: null,
          updatedAt: sql`now()`,
        })
        .where(and(eq(schedules.companyId, auth.companyId), eq(schedules.id, id)))
        .returning({ sendAt: schedules.sendAt });
      if (!row) throw new AppError('ERR_NOT_FOUND');
      await this.jobs.cancelKey(SCHEDULE_SEND_JOB, keyOf(id), { tx });
      await this.queue(tx, auth.companyId, id, row.sendAt);
    });
    this.jobs.wake(SCHEDULE_SEND_JOB);
    const schedule = (await this.find(auth.companyId, id))!;
    this.emit(auth.companyId, { action: 'update', schedule });
    return schedule;
  }

  /** DELETE /schedules/:id: removes it, its media and its queued job. @throws ERR_NOT_FOUND. */
  async remove(auth: AuthContext, id: number): Promise<void> {
    const current = await this.get(auth, id);
    await this.ctx.db.transaction(async (tx) => {
      await tx.delete(schedules).where(and(eq(schedules.companyId, auth.companyId), eq(schedules.id, id)));
      await this.jobs.cancelKey(SCHEDULE_SEND_JOB, keyOf(id), { tx });
    });
    await this.media.remove(auth.companyId, current.mediaPath);
    this.ctx.realtime.toCompany(auth.companyId, 'schedule', { action: 'delete', scheduleId: id });
  }

  /**
   * POST /schedules/:id/media-upload: stores a png/jpg/jpeg (checked by content) as the schedule's
   * media, replacing any previous one. The caller must be able to write to the schedule's contact.
   * @throws ERR_NOT_FOUND, ERR_NO_PERMISSION (403), ERR_UNSUPPORTED_MEDIA_TYPE, ERR_PAYLOAD_TOO_LARGE.
   */
  async uploadMedia(auth: AuthContext, id: number, file: UploadedFile): Promise<Schedule> {
    const current = await this.get(auth, id);
    await this.assertMayWriteTo(auth, current.contactId);
    const inspected = await inspectUpload(file);
    if (!(SCHEDULE_MEDIA_TYPES as readonly string[]).includes(inspected.mimetype))
      throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', { extra: { field: 'file' } });
    const next = { data: file.data, extension: inspected.ext, name: file.fileName };
    return this.swapMedia(auth.companyId, current, next);
  }

  /** DELETE /schedules/:id/media-upload: removes the media. @throws ERR_NOT_FOUND. */
  async deleteMedia(auth: AuthContext, id: number): Promise<Schedule> {
    return this.swapMedia(auth.companyId, await this.get(auth, id), null);
  }

  /** Puts `next` (null: none) in place of the schedule's media; answers the schedule, told to the company. */
  private async swapMedia(
    companyId: number,
    current: Schedule,
    next: Parameters<typeof swapStoredMedia>[3],
  ): Promise<Schedule> {
    await swapStoredMedia(this.media, companyId, current.mediaPath, next, (fields) =>
      this.ctx.db
        .update(schedules)
        .set({ ...fields, updatedAt: sql`now()` })
        .where(and(eq(schedules.companyId, companyId), eq(schedules.id, current.id))),
    );
    const schedule = (await this.find(companyId, current.id))!;
    this.emit(companyId, { action: 'update', schedule });
    return schedule;
  }

  /**
   * The contact's conversation to store the message on: its live (open or pending) ticket, else a
   * new CLOSED ticket on the company's default connection — a scheduled message does not open a
   * pending ticket by itself; the conversation enters the inbox when the customer answers.
   * @throws ERR_NO_DEF_WAPP_FOUND.
   */
  private async ticketFor(companyId: number, contactId: number): Promise<ScheduleTicket> {
    const ticketColumns = {
      id: tickets.id,
      createdAt: tickets.createdAt,
      userId: tickets.userId,
      queueId: tickets.queueId,
      status: tickets.status,
    };
    const [live] = await this.ctx.db
      .select(ticketColumns)
      .from(tickets)
      .where(
        and(
          eq(tickets.companyId, companyId),
          eq(tickets.contactId, contactId),
          sql`${tickets.status} <> 'closed'`,
        ),
      )
      .orderBy(desc(tickets.updatedAt))
      .limit(1);
    if (live) return live;
    const [connection] = await this.ctx.db
      .select({ id: whatsapps.id })
      .from(whatsapps)
      .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.isDefault, true)));
    if (!connection) throw new AppError('ERR_NO_DEF_WAPP_FOUND');
    const [created] = await this.ctx.db
      .insert(tickets)
      .values({ companyId, contactId, whatsappId: connection.id, status: 'closed', closedAt: new Date() })
      .returning(ticketColumns);
    return created!;
  }

  /**
   * The `schedule-send` handler. Sends only when the schedule still exists, is PENDENTE and its
   * sendAt is the one the job was queued for (an edit queued another job); it claims the schedule
   * (PENDENTE -> ENVIADA) in one statement before sending, so a job run twice, or an old job next
   * to a new one, sends once. A failure (no default connection, the provider refused) records ERRO
   * with the reason and no `sentAt` (nothing was sent); the job itself succeeds (no retry sends twice). The schedule's user (its creator
   * or last editor) must still exist and be able to open the ticket the job picks, as at the time of
   * the request (docs/security.md "Acting on a ticket"): otherwise ERRO with ERR_NO_PERMISSION and
   * nothing is sent. A company no longer allowed to send schedules when the job runs (plan without
   * useSchedules, inactive or past its dueDate; see companyRefusal) gets ERRO with that refusal's
   * code and nothing is sent.
   */
  async runJob(data: ScheduleSendJob): Promise<void> {
    const [claimed] = await this.ctx.db
      .update(schedules)
      .set({ status: 'ENVIADA', sentAt: sql`now()`, error: null, updatedAt: sql`now()` })
      .where(
        and(
          eq(schedules.companyId, data.companyId),
          eq(schedules.id, data.scheduleId),
          eq(schedules.status, 'PENDENTE'),
          eq(schedules.sendAt, new Date(data.sendAt)),
        ),
      )
      .returning();
    if (!claimed) return;
    let ticketId: number | null = null;
    let error: string | null = null;
    try {
      const refusal = await companyRefusal(this.ctx, data.companyId, 'useSchedules');
      if (refusal) throw new AppError(refusal);
      const [contact] = await this.ctx.db
        .select({ name: contacts.name })
        .from(contacts)
        .where(eq(contacts.id, claimed.contactId));
      const viewer =
        claimed.userId === null
          ? undefined
          : await loadUserViewer(this.ctx.db, data.companyId, claimed.userId);
      if (!viewer) throw new AppError('ERR_NO_PERMISSION');
      const ticket = await this.ticketFor(data.companyId, claimed.contactId);
      assertMayActOnTicket(viewer, ticket);
      ticketId = ticket.id;
      const body = fillVariables(claimed.body, {
        contactName: contact?.name ?? '',
        ticketId: ticket.id,
        ticketCreatedAt: ticket.createdAt,
      });
      const files: UploadedFile[] = [];
      if (claimed.mediaPath) {
        const bytes = await this.media.read(data.companyId, claimed.mediaPath);
        files.push({ data: bytes, fileName: claimed.mediaName ?? claimed.mediaPath, mimetype: 'image/jpeg' });
      }
      await this.sender.sendAsCompany(data.companyId, ticket.id, { body, files });
    } catch (caught) {
      error =
        caught instanceof AppError ? caught.code : caught instanceof Error ? caught.message : String(caught);
    }
    await this.ctx.db
      .update(schedules)
      .set({
        ticketId,
        ...(error ? { status: 'ERRO' as const, error, sentAt: null } : {}),
        updatedAt: sql`now()`,
      })
      .where(eq(schedules.id, claimed.id));
    const schedule = await this.find(data.companyId, claimed.id);
    if (schedule) this.emit(data.companyId, { action: 'update', schedule });
  }
}
