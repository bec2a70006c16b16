import {
  type ContactListBody,
  type ContactListEntry,
  type ContactListImport,
  type ContactListItemBody,
  type ContactListItemsPage,
  type ContactListsPage,
  type ContactListWithCount,
  parsePatch,
  ZContactListBody,
  ZContactListItemBody,
  ZEmail,
  ZListNumber,
} from '@zapdesk/shared';
import { and, asc, count, desc, eq, gt, ilike, isNull, or, sql } from 'drizzle-orm';
import type { SessionManager } from '../../channels/session-manager.js';
import type { AppContext } from '../../context.js';
import {
  type ContactListImportError,
  contactListImports,
  contactListItems,
  contactLists,
  whatsapps,
} from '../../db/schema/index.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import { AppError, orNotFound } from '../../lib/app-error.js';
import { pickColumns } from '../../lib/columns.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { containsTerm, escapeLike, readPage, type SearchPageQuery } from '../../lib/search-page.js';
import { readListSheet, type SheetRow } from './sheet-reader.js';

/** Lists and items per page of GET /contact-lists and GET /contact-list-items. */
export const CONTACT_LISTS_PAGE_SIZE = 20;
export const CONTACT_LIST_ITEMS_PAGE_SIZE = 40;
/** Rows written per insert (and progress event) while importing a sheet. */
export const IMPORT_CHUNK = 1000;
/** Rows an import keeps at most; further rows get a `tooManyRows` error. */
export const IMPORT_MAX_ROWS = 100_000;
/** Rejected rows kept in an import's error bag (the count beyond is still reported). */
export const IMPORT_MAX_ERRORS = 1000;
/** Numbers checked per validity job. */
export const VALIDATE_BATCH = 200;

export const CONTACT_LIST_IMPORT_JOB = 'contact-list-import';
export const CONTACT_LIST_VALIDATE_JOB = 'contact-list-validate';

const itemColumns = pickColumns(contactListItems, [
  'id',
  'name',
  'number',
  'email',
  'isWhatsappValid',
  'companyId',
  'contactListId',
]);

const importColumns = pickColumns(contactListImports, [
  'id',
  'contactListId',
  'status',
  'total',
  'processed',
  'imported',
  'duplicates',
  'errors',
]);

/** Lists with their item counts: select from this, then filter, order and page. */
const listsWithCount = (db: AppContext['db']) =>
  db
    .select({ id: contactLists.id, name: contactLists.name, contactsCount: count(contactListItems.id) })
    .from(contactLists)
    .leftJoin(contactListItems, eq(contactListItems.contactListId, contactLists.id))
    .groupBy(contactLists.id)
    .$dynamic();

function duplicateNumber(error: unknown): never {
  if (isUniqueViolation(error))
    throw new AppError('ERR_ALREADY_EXISTS', { extra: { field: 'number', message: 'duplicated' } });
  throw error;
}

/**
 * Contact lists and their items (document 2 sections 3–7): CRUD, sheet import as a
 * job with progress events, WhatsApp validity checked through the company's default connection in
 * background jobs, and `validRecipients` for campaigns. Realtime `company-{id}-ContactListWithCount` and
 * `company-{id}-ContactListEntry`.
 */
export class ContactListService {
  constructor(
    private readonly ctx: AppContext,
    private readonly jobs: JobQueue,
    private readonly sessions: SessionManager,
  ) {}

  /** Declares the import and validity jobs (before the queue starts). */
  register(): void {
    this.jobs.define<{ importId: number }>(CONTACT_LIST_IMPORT_JOB, (data) => this.runImport(data.importId), {
      key: (data) => `import-${data.importId}`,
      concurrency: 2,
    });
    this.jobs.define<{ companyId: number; contactListId: number }>(
      CONTACT_LIST_VALIDATE_JOB,
      (data) => this.validateBatch(data.companyId, data.contactListId),
      { key: (data) => `list-${data.contactListId}` },
    );
  }

  /** GET /contact-lists: the company's lists by name, with `contactsCount`, 20 a page. */
  async list(companyId: number, query: SearchPageQuery): Promise<ContactListsPage> {
    const { page, hasMore } = await readPage(query.pageNumber, CONTACT_LISTS_PAGE_SIZE, ({ limit, offset }) =>
      listsWithCount(this.ctx.db)
        .where(and(eq(contactLists.companyId, companyId), containsTerm(query.searchParam, contactLists.name)))
        .orderBy(asc(contactLists.name), asc(contactLists.id))
        .limit(limit)
        .offset(offset),
    );
    return { records: page, hasMore };
  }

  /** GET /contact-lists/list: every list of the company by name (selects, campaigns). */
  all(companyId: number): Promise<ContactListWithCount[]> {
    return listsWithCount(this.ctx.db)
      .where(eq(contactLists.companyId, companyId))
      .orderBy(asc(contactLists.name), asc(contactLists.id));
  }

  /** GET /contact-lists/:id. @throws ERR_NOT_FOUND (also for another company's list). */
  async get(companyId: number, id: number): Promise<ContactListWithCount> {
    const [row] = await listsWithCount(this.ctx.db).where(
      and(eq(contactLists.companyId, companyId), eq(contactLists.id, id)),
    );
    return orNotFound(row);
  }

  /** POST /contact-lists. Emits `ContactListWithCount` create. @throws ERR_VALIDATION. */
  async create(companyId: number, input: ContactListBody): Promise<ContactListWithCount> {
    const body = ZContactListBody.parse(input);
    const [row] = await this.ctx.db
      .insert(contactLists)
      .values({ companyId, name: body.name })
      .returning({ id: contactLists.id, name: contactLists.name });
    const record = { ...row!, contactsCount: 0 };
    this.ctx.realtime.toCompany(companyId, 'ContactList', { action: 'create', record });
    return record;
  }

  /** PUT /contact-lists/:id (partial). Emits `ContactListWithCount` update. @throws ERR_NOT_FOUND, ERR_VALIDATION. */
  async update(
    companyId: number,
    id: number,
    input: Partial<ContactListBody>,
  ): Promise<ContactListWithCount> {
    const body = parsePatch(ZContactListBody, input);
    if (body.name !== undefined) {
      const updated = await this.ctx.db
        .update(contactLists)
        .set({ name: body.name, updatedAt: sql`now()` })
        .where(and(eq(contactLists.companyId, companyId), eq(contactLists.id, id)))
        .returning({ id: contactLists.id });
      if (!updated.length) throw new AppError('ERR_NOT_FOUND');
    }
    const record = await this.get(companyId, id);
    this.ctx.realtime.toCompany(companyId, 'ContactList', { action: 'update', record });
    return record;
  }

  /** DELETE /contact-lists/:id with its items. Emits `ContactListWithCount` delete. @throws ERR_NOT_FOUND. */
  async remove(companyId: number, id: number): Promise<void> {
    const deleted = await this.ctx.db
      .delete(contactLists)
      .where(and(eq(contactLists.companyId, companyId), eq(contactLists.id, id)))
      .returning({ id: contactLists.id });
    if (!deleted.length) throw new AppError('ERR_NOT_FOUND');
    this.ctx.realtime.toCompany(companyId, 'ContactList', { action: 'delete', id });
  }

  /**
   * GET /contact-list-items: a list's items by name, searched in name, number and email, 40 a page.
   * @throws ERR_NOT_FOUND for a list that is not the company's.
   */
  async listItems(
    companyId: number,
    query: SearchPageQuery & { contactListId: number },
  ): Promise<ContactListItemsPage> {
    await this.get(companyId, query.contactListId);
    const term = query.searchParam.trim();
    const like = `%${escapeLike(term)}%`;
    const digits = term.replace(/\D/g, '');
    const { page, hasMore } = await readPage(
      query.pageNumber,
      CONTACT_LIST_ITEMS_PAGE_SIZE,
      ({ limit, offset }) =>
        this.ctx.db
          .select(itemColumns)
          .from(contactListItems)
          .where(
            and(
              eq(contactListItems.companyId, companyId),
              eq(contactListItems.contactListId, query.contactListId),
              term
                ? or(
                    ilike(contactListItems.name, like),
                    ilike(contactListItems.email, like),
                    digits ? ilike(contactListItems.number, `%${digits}%`) : undefined,
                  )
                : undefined,
            ),
          )
          .orderBy(asc(contactListItems.name), asc(contactListItems.id))
          .limit(limit)
          .offset(offset),
    );
    return { contacts: page, hasMore };
  }

  /** GET /contact-list-items/:id. @throws ERR_NOT_FOUND. */
  async getItem(companyId: number, id: number): Promise<ContactListEntry> {
    const [row] = await this.ctx.db
      .select(itemColumns)
      .from(contactListItems)
      .where(and(eq(contactListItems.companyId, companyId), eq(contactListItems.id, id)));
    return orNotFound(row);
  }

  /**
   * POST /contact-list-items: adds a contact (number kept as digits, unique per list) and queues its
   * validity check. Emits `ContactListEntry` create.
   * @throws ERR_NOT_FOUND (list), ERR_ALREADY_EXISTS (number already in the list), ERR_VALIDATION.
   */
  async createItem(companyId: number, input: ContactListItemBody): Promise<ContactListEntry> {
    const body = ZContactListItemBody.parse(input);
    await this.get(companyId, body.contactListId);
    const [row] = await this.ctx.db
      .insert(contactListItems)
      .values({ companyId, ...body })
      .returning(itemColumns)
      .catch(duplicateNumber);
    this.ctx.realtime.toCompany(companyId, 'ContactListItem', { action: 'create', record: row! });
    await this.queueValidation(companyId, body.contactListId);
    return row!;
  }

  /**
   * PUT /contact-list-items/:id (partial; the list cannot change). A new number is checked again.
   * Emits `ContactListEntry` update. @throws ERR_NOT_FOUND, ERR_ALREADY_EXISTS, ERR_VALIDATION.
   */
  async updateItem(
    companyId: number,
    id: number,
    input: Partial<ContactListItemBody>,
  ): Promise<ContactListEntry> {
    const { contactListId: _ignored, ...body } = parsePatch(ZContactListItemBody, input);
    const current = await this.getItem(companyId, id);
    const renumbered = body.number !== undefined && body.number !== current.number;
    const [row] = await this.ctx.db
      .update(contactListItems)
      .set({ ...body, ...(renumbered ? { isWhatsappValid: null } : {}), updatedAt: sql`now()` })
      .where(and(eq(contactListItems.companyId, companyId), eq(contactListItems.id, id)))
      .returning(itemColumns)
      .catch(duplicateNumber);
    if (!row) throw new AppError('ERR_NOT_FOUND');
    this.ctx.realtime.toCompany(companyId, 'ContactListItem', { action: 'update', record: row });
    if (renumbered) await this.queueValidation(companyId, row.contactListId);
    return row;
  }

  /** DELETE /contact-list-items/:id. Emits `ContactListEntry` delete. @throws ERR_NOT_FOUND. */
  async removeItem(companyId: number, id: number): Promise<void> {
    const deleted = await this.ctx.db
      .delete(contactListItems)
      .where(and(eq(contactListItems.companyId, companyId), eq(contactListItems.id, id)))
      .returning({ id: contactListItems.id });
    if (!deleted.length) throw new AppError('ERR_NOT_FOUND');
    this.ctx.realtime.toCompany(companyId, 'ContactListItem', { action: 'delete', id });
  }

  /**
   * For campaigns: one page of a list's recipients whose number WhatsApp confirmed
   * (`isWhatsappValid` true; with `includeUnchecked` also those not checked yet), by id after
   * `afterId` (keyset paging: pass the last id of the previous page; 0 to start), at most `limit`
   * (1–5000, default 1000). An empty page means the end. @throws ERR_NOT_FOUND for another company's list.
   */
  async validRecipients(
    companyId: number,
    contactListId: number,
    options: { afterId?: number; limit?: number; includeUnchecked?: boolean } = {},
  ): Promise<ContactListEntry[]> {
    await this.get(companyId, contactListId);
    const limit = Math.min(5000, Math.max(1, options.limit ?? 1000));
    return this.ctx.db
      .select(itemColumns)
      .from(contactListItems)
      .where(
        and(
          eq(contactListItems.companyId, companyId),
          eq(contactListItems.contactListId, contactListId),
          gt(contactListItems.id, options.afterId ?? 0),
          options.includeUnchecked
            ? or(eq(contactListItems.isWhatsappValid, true), isNull(contactListItems.isWhatsappValid))
            : eq(contactListItems.isWhatsappValid, true),
        ),
      )
      .orderBy(asc(contactListItems.id))
      .limit(limit);
  }

  /**
   * POST /contact-lists/:id/upload: stores the sheet (already checked to be .xlsx) as a pending
   * import and queues its job; answers at once. @throws ERR_NOT_FOUND (list).
   */
  async startImport(companyId: number, contactListId: number, sheet: Buffer): Promise<ContactListImport> {
    await this.get(companyId, contactListId);
    const [row] = await this.ctx.db
      .insert(contactListImports)
      .values({ companyId, contactListId, sheet: sheet.toString('base64') })
      .returning(importColumns);
    await this.jobs.send(CONTACT_LIST_IMPORT_JOB, { importId: row!.id });
    const record = row as ContactListImport;
    this.ctx.realtime.toCompany(companyId, 'ContactList', { action: 'import', import: record });
    return record;
  }

  /**
   * GET /contact-lists/:id/import: the list's latest import, or null when the list has none yet.
   * @throws ERR_NOT_FOUND when the list is not the company's.
   */
  async latestImport(companyId: number, contactListId: number): Promise<ContactListImport | null> {
    const [row] = await this.ctx.db
      .select(importColumns)
      .from(contactListImports)
      .where(
        and(eq(contactListImports.companyId, companyId), eq(contactListImports.contactListId, contactListId)),
      )
      .orderBy(desc(contactListImports.id))
      .limit(1);
    if (row) return row as ContactListImport;
    await this.get(companyId, contactListId);
    return null;
  }

  /**
   * The import job: streams the sheet's rows, validates each (name 2–50, number 8–50 with 8–20
   * digits, email valid or empty), skips numbers repeated in the sheet or already in the list,
   * inserts the valid rows 1,000 at a time, records the error bag and emits progress after each
   * chunk. Runs once: a finished import is left alone.
   */
  async runImport(importId: number): Promise<void> {
    const [job] = await this.ctx.db
      .select({ ...importColumns, companyId: contactListImports.companyId, sheet: contactListImports.sheet })
      .from(contactListImports)
      .where(eq(contactListImports.id, importId));
    if (!job || job.status === 'done' || job.status === 'failed' || !job.sheet) return;
    const { companyId, contactListId } = job;
    const state = {
      total: 0,
      processed: 0,
      imported: 0,
      duplicates: 0,
      errors: [] as ContactListImportError[],
    };
    const seen = new Set<string>();
    let chunk: { companyId: number; contactListId: number; name: string; number: string; email: string }[] =
      [];
    const save = async (status: ContactListImport['status']) => {
      const [row] = await this.ctx.db
        .update(contactListImports)
        .set({ ...state, status, updatedAt: sql`now()`, ...(status === 'running' ? {} : { sheet: null }) })
        .where(eq(contactListImports.id, importId))
        .returning(importColumns);
      if (row)
        this.ctx.realtime.toCompany(companyId, 'ContactList', {
          action: 'import',
          import: row as ContactListImport,
        });
    };
    const reject = (row: number, field: string, message: string) => {
      if (state.errors.length < IMPORT_MAX_ERRORS) state.errors.push({ row, field, message });
    };
    const flush = async () => {
      if (!chunk.length) return;
      const inserted = await this.ctx.db
        .insert(contactListItems)
        .values(chunk)
        .onConflictDoNothing({ target: [contactListItems.contactListId, contactListItems.number] })
        .returning({ id: contactListItems.id });
      state.imported += inserted.length;
      state.duplicates += chunk.length - inserted.length;
      chunk = [];
    };
    await save('running');
    try {
      for await (const sheetRow of readListSheet(Buffer.from(job.sheet, 'base64'))) {
        state.total++;
        state.processed++;
        if (state.total > IMPORT_MAX_ROWS) {
          reject(sheetRow.row, 'row', 'tooManyRows');
          continue;
        }
        const item = checkRow(sheetRow, reject);
        if (!item) continue;
        if (seen.has(item.number)) {
          state.duplicates++;
          continue;
        }
        seen.add(item.number);
        chunk.push({ companyId, contactListId, ...item });
        if (chunk.length >= IMPORT_CHUNK) {
          await flush();
          await save('running');
        }
      }
      await flush();
    } catch (error) {
      this.ctx.log.warn({ err: error, importId }, 'contact list import failed');
      reject(0, 'file', 'unreadable');
      await save('failed');
      return;
    }
    if (state.total === 0) reject(0, 'file', 'empty');
    await save('done');
    const record = await this.get(companyId, contactListId).catch(() => undefined);
    if (record) this.ctx.realtime.toCompany(companyId, 'ContactList', { action: 'update', record });
    this.ctx.realtime.toCompany(companyId, 'ContactListItem', { action: 'reload', contactListId });
    if (state.imported) await this.queueValidation(companyId, contactListId);
  }

  /** Queues a validity check of the list's unchecked numbers (one job per list runs at a time). */
  async queueValidation(companyId: number, contactListId: number): Promise<void> {
    await this.jobs.send(CONTACT_LIST_VALIDATE_JOB, { companyId, contactListId });
  }

  /**
   * The validity job: asks the driver of the company's default connection (running here and
   * CONNECTED) whether each of up to 200 unchecked numbers has WhatsApp and stores the answer, then
   * queues the next batch while unchecked numbers remain. Without a ready connection the numbers
   * stay unchecked (null) and the job ends; a driver error on one number leaves it unchecked.
   */
  async validateBatch(companyId: number, contactListId: number): Promise<void> {
    const [connection] = await this.ctx.db
      .select({ id: whatsapps.id })
      .from(whatsapps)
      .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.isDefault, true)));
    const driver = connection ? this.sessions.ready(connection.id) : undefined;
    if (!driver) return;
    const pending = await this.ctx.db
      .select({ id: contactListItems.id, number: contactListItems.number })
      .from(contactListItems)
      .where(
        and(
          eq(contactListItems.companyId, companyId),
          eq(contactListItems.contactListId, contactListId),
          isNull(contactListItems.isWhatsappValid),
        ),
      )
      .orderBy(asc(contactListItems.id))
      .limit(VALIDATE_BATCH);
    let checked = 0;
    for (const item of pending) {
      const answer = await driver.checkNumber(item.number).catch(() => undefined);
      if (!answer) continue;
      checked++;
      await this.ctx.db
        .update(contactListItems)
        .set({ isWhatsappValid: answer.exists, updatedAt: sql`now()` })
        .where(eq(contactListItems.id, item.id));
    }
    if (checked)
      this.ctx.realtime.toCompany(companyId, 'ContactListItem', { action: 'reload', contactListId });
    if (pending.length === VALIDATE_BATCH && checked) await this.queueValidation(companyId, contactListId);
  }
}

/** Validates one sheet row with the item rules; reports the first bad field and answers undefined. */
function checkRow(
  row: SheetRow,
  reject: (row: number, field: string, message: string) => void,
): { name: string; number: string; email: string } | undefined {
  const name = ZContactListItemBody.shape.name.safeParse(row.name);
  if (!name.success) return void reject(row.row, 'name', name.error.issues[0]?.message ?? 'invalid');
  const number = ZListNumber.safeParse(row.number);
  if (!number.success) return void reject(row.row, 'number', number.error.issues[0]?.message ?? 'invalid');
  let email = '';
  if (row.email) {
    const parsed = ZEmail.safeParse(row.email);
    if (!parsed.success) return void reject(row.row, 'email', parsed.error.issues[0]?.message ?? 'invalid');
    email = parsed.data;
  }
  return { name: name.data, number: number.data, email };
}

export type { ContactListImportError };
