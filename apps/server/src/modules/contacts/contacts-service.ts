import {
  type Contact,
  type ContactImportResult,
  type ContactListItem,
  type ContactsQuery,
  PAGE_SIZE,
  parsePatch,
  withoutBidiControls,
  ZContactBody,
} from '@zapdesk/shared';
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { pageTotal } from '../../db/page-total.js';
import { contactCustomFields, contacts, tickets } from '../../db/schema/index.js';
import { ticketAudienceColumns } from '../../db/ticket-visibility.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthContext } from '../../lib/guards.js';
import { dayEnd, dayStart } from '../../lib/local-days.js';
import { canonicalNumber, numberVariants } from '../../lib/phone-number.js';
import { containsTerm } from '../../lib/search-page.js';

type ContactInput = z.output<typeof ZContactBody>;
type ExtraInfo = { id: number; name: string; value: string };
type ContactRow = typeof contacts.$inferSelect;

/** The contact's extra info rows as one JSON array, computed inside the same statement. */
const extraInfoJson = sql<ExtraInfo[]>`coalesce((
  select json_agg(json_build_object('id', f.id, 'name', f.name, 'value', f.value) order by f.id)
  from contact_custom_fields f
  where f.company_id = "contacts"."company_id" and f.contact_id = "contacts"."id"), '[]'::json)`;

type ContactWhatsapp = { id: number; name: string } | null;

/**
 * The contact's connection (`whatsapp{id,name}`, core section 3): the one its most recently updated
 * ticket runs on, null before any ticket; computed inside the same statement.
 */
const whatsappJson = sql<ContactWhatsapp>`(
  select json_build_object('id', w.id, 'name', w.name)
  from tickets t join whatsapps w on w.id = t.whatsapp_id
  where t.company_id = "contacts"."company_id" and t.contact_id = "contacts"."id"
  order by t.updated_at desc, t.id desc limit 1)`;

/** A contact row (with its extra info rows and connection) in the API shape. */
export function toContact(
  row: ContactRow,
  extraInfo: ExtraInfo[] = [],
  whatsapp: ContactWhatsapp = null,
): Contact {
  return {
    id: row.id,
    name: row.name,
    number: row.number,
    email: row.email,
    profilePicUrl: row.profilePicUrl,
    isGroup: row.isGroup,
    companyId: row.companyId,
    extraInfo,
    whatsapp,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * Serialises contact creation within a company (transaction-scoped advisory lock), so two
 * requests cannot create the same phone in its two Brazilian forms at once.
 */
async function lockCompanyContacts(tx: Tx, companyId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${0x5a0c}, ${companyId})`);
}

/** The company's contact with any form of `number`, ignoring `exceptId`. */
async function findByNumber(tx: Tx, companyId: number, number: string, exceptId?: number) {
  const rows = await tx
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), inArray(contacts.number, numberVariants(number))));
  return rows.find((r) => r.id !== exceptId);
}

/**
 * GET /contacts (core section 7): page of 20 by name, searching name, number and e-mail
 * (case-insensitive substring), created on local day `date` or between `dateStart` and `dateEnd`
 * (whole days, either end open); extra info rows come in the same query. Answers
 * `{ contacts, count, hasMore }`.
 */
export async function listContacts(ctx: AppContext, auth: AuthContext, query: ContactsQuery) {
  const first = query.date ?? query.dateStart;
  const last = query.date ?? query.dateEnd;
  const where = and(
    eq(contacts.companyId, auth.companyId),
    containsTerm(query.searchParam, contacts.name, contacts.number, contacts.email),
    first ? sql`${contacts.createdAt} >= ${dayStart(first)}` : undefined,
    last ? sql`${contacts.createdAt} < ${dayEnd(last)}` : undefined,
  );
  const offset = (query.pageNumber - 1) * PAGE_SIZE;
  // One round trip: the count rides on the page as an uncorrelated sub-select.
  const countSql = sql<number>`(select count(*)::int from ${contacts} where ${where})`;
  const rows = await ctx.db
    .select({ contact: contacts, extraInfo: extraInfoJson, whatsapp: whatsappJson, total: countSql })
    .from(contacts)
    .where(where)
    .orderBy(asc(contacts.name), asc(contacts.id))
    .limit(PAGE_SIZE)
    .offset(offset);
  const totalCount = await pageTotal(
    rows,
    offset,
    async () => (await ctx.db.select({ value: count() }).from(contacts).where(where))[0]?.value ?? 0,
  );
  return {
    contacts: rows.map((r) => toContact(r.contact, r.extraInfo, r.whatsapp)),
    count: totalCount,
    hasMore: offset + rows.length < totalCount,
  };
}

/** GET /contacts/list: id, name and number of every company contact, by name (pickers). */
export async function listContactsForPicker(ctx: AppContext, auth: AuthContext): Promise<ContactListItem[]> {
  return ctx.db
    .select({ id: contacts.id, name: contacts.name, number: contacts.number })
    .from(contacts)
    .where(eq(contacts.companyId, auth.companyId))
    .orderBy(asc(contacts.name), asc(contacts.id));
}

/** GET /contacts/:id with its extra info. @throws ERR_NO_CONTACT_FOUND (also another company's). */
export async function getContact(ctx: AppContext | { db: Tx }, companyId: number, id: number) {
  const [row] = await ctx.db
    .select({ contact: contacts, extraInfo: extraInfoJson, whatsapp: whatsappJson })
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), eq(contacts.id, id)));
  if (!row) throw new AppError('ERR_NO_CONTACT_FOUND');
  return toContact(row.contact, row.extraInfo, row.whatsapp);
}

async function replaceExtraInfo(
  tx: Tx,
  companyId: number,
  contactId: number,
  extraInfo: ContactInput['extraInfo'],
) {
  await tx
    .delete(contactCustomFields)
    .where(and(eq(contactCustomFields.companyId, companyId), eq(contactCustomFields.contactId, contactId)));
  if (extraInfo?.length) {
    await tx
      .insert(contactCustomFields)
      .values(extraInfo.map((f) => ({ companyId, contactId, name: f.name, value: f.value })));
  }
}

/**
 * POST /contacts (core section 7): creates the contact with its extra info rows and emits
 * `company-{id}-contact` create. @throws ERR_DUPLICATED_CONTACT (409, field number) when the
 * number, in any of its forms (ninth digit), already belongs to a company contact.
 */
export async function createContact(ctx: AppContext, auth: AuthContext, body: ContactInput) {
  const contact = await ctx.db.transaction(async (tx) => {
    await lockCompanyContacts(tx, auth.companyId);
    if (await findByNumber(tx, auth.companyId, body.number)) {
      throw new AppError('ERR_DUPLICATED_CONTACT', { extra: { field: 'number' } });
    }
    const [row] = await tx
      .insert(contacts)
      .values({ companyId: auth.companyId, name: body.name, number: body.number, email: body.email })
      .returning({ id: contacts.id });
    await replaceExtraInfo(tx, auth.companyId, row!.id, body.extraInfo);
    return getContact({ db: tx }, auth.companyId, row!.id);
  });
  ctx.realtime.toCompany(auth.companyId, 'contact', { action: 'create', contact });
  return contact;
}

/**
 * PUT /contacts/:id: updates name, number and e-mail; when `extraInfo` is given its rows replace
 * the old ones (omitted: kept). Emits `company-{id}-contact` update.
 * @throws ERR_NO_CONTACT_FOUND, ERR_DUPLICATED_CONTACT (another contact has a form of the number).
 */
export async function updateContact(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  input: Partial<ContactInput>,
) {
  const body = parsePatch(ZContactBody, input);
  const contact = await ctx.db.transaction(async (tx) => {
    await lockCompanyContacts(tx, auth.companyId);
    // Checked before the update: the unique index would otherwise refuse it first.
    if (body.number !== undefined && (await findByNumber(tx, auth.companyId, body.number, id))) {
      throw new AppError('ERR_DUPLICATED_CONTACT', { extra: { field: 'number' } });
    }
    const [row] = await tx
      .update(contacts)
      .set({ name: body.name, number: body.number, email: body.email, updatedAt: new Date() })
      .where(and(eq(contacts.companyId, auth.companyId), eq(contacts.id, id)))
      .returning({ id: contacts.id });
    if (!row) throw new AppError('ERR_NO_CONTACT_FOUND');
    if (body.extraInfo) await replaceExtraInfo(tx, auth.companyId, id, body.extraInfo);
    return getContact({ db: tx }, auth.companyId, id);
  });
  ctx.realtime.toCompany(auth.companyId, 'contact', { action: 'update', contact });
  return contact;
}

/**
 * DELETE /contacts/:id (admins): deletes the contact; its tickets and their messages go with it
 * (database cascade), its extra info too. Emits `ticket` delete for each ticket and `contact`
 * delete with `contactId`. @throws ERR_NO_CONTACT_FOUND.
 */
export async function deleteContact(ctx: AppContext, auth: AuthContext, id: number): Promise<void> {
  const removed = await ctx.db.transaction(async (tx) => {
    const gone = await tx
      .select(ticketAudienceColumns)
      .from(tickets)
      .where(and(eq(tickets.companyId, auth.companyId), eq(tickets.contactId, id)));
    const [row] = await tx
      .delete(contacts)
      .where(and(eq(contacts.companyId, auth.companyId), eq(contacts.id, id)))
      .returning({ id: contacts.id });
    if (!row) throw new AppError('ERR_NO_CONTACT_FOUND');
    return gone;
  });
  for (const ticket of removed) {
    ctx.realtime.toTicket(ticket, 'ticket', { action: 'delete', ticketId: ticket.id });
  }
  ctx.realtime.toCompany(auth.companyId, 'contact', { action: 'delete', contactId: id });
}

/** One spreadsheet row of an import: raw texts. */
export interface ImportRow {
  name: string;
  number: string;
  email: string;
}

const IMPORT_BATCH = 500;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Validates one row: the contact to insert or the errorBag code. */
function checkRow(row: ImportRow): { name: string; number: string; email: string } | { error: string } {
  const name = withoutBidiControls(row.name).trim();
  const number = row.number.replace(/\D/g, '');
  const email = row.email.trim();
  if (!name) return { error: 'ERR_MISSING_NAME' };
  if (name.length < 2 || name.length > 50) return { error: 'ERR_INVALID_NAME' };
  if (number.length < 8 || number.length > 50) return { error: 'ERR_INVALID_NUMBER' };
  if (email && (!EMAIL.test(email) || email.length > 254)) return { error: 'ERR_INVALID_EMAIL' };
  return { name, number, email };
}

/**
 * POST /contacts/upload (core section 7): creates the rows whose number is new (in any form) and
 * answers `{ newContacts, errorBag }` with one errorBag entry per failing row (missing or invalid
 * name, invalid number or e-mail, duplicate in the company or earlier in the sheet). Rows go in
 * batches of 500, one transaction and one multi-row INSERT ... ON CONFLICT DO NOTHING each. Emits
 * `company-{id}-contact` create for each new contact.
 */
export async function importContacts(
  ctx: AppContext,
  auth: AuthContext,
  rows: ImportRow[],
): Promise<ContactImportResult> {
  const result: ContactImportResult = { newContacts: [], errorBag: [] };
  const errors: { row: number; contactName: string; error: string }[] = [];
  const seen = new Set<string>();
  for (let start = 0; start < rows.length; start += IMPORT_BATCH) {
    const batch: { row: number; name: string; number: string; email: string }[] = [];
    rows.slice(start, start + IMPORT_BATCH).forEach((row, i) => {
      const checked = checkRow(row);
      const contactName = withoutBidiControls(row.name).trim() || row.number.trim();
      if ('error' in checked) {
        errors.push({ row: start + i, contactName, error: checked.error });
      } else if (seen.has(canonicalNumber(checked.number))) {
        errors.push({ row: start + i, contactName, error: 'ERR_DUPLICATED_CONTACT' });
      } else {
        seen.add(canonicalNumber(checked.number));
        batch.push({ row: start + i, ...checked });
      }
    });
    if (!batch.length) continue;
    const inserted = await ctx.db.transaction(async (tx) => {
      await lockCompanyContacts(tx, auth.companyId);
      const existing = await tx
        .select({ number: contacts.number })
        .from(contacts)
        .where(
          and(
            eq(contacts.companyId, auth.companyId),
            inArray(
              contacts.number,
              batch.flatMap((c) => numberVariants(c.number)),
            ),
          ),
        );
      const taken = new Set(existing.map((e) => canonicalNumber(e.number)));
      const fresh = batch.filter((c) => !taken.has(canonicalNumber(c.number)));
      if (!fresh.length) return [];
      return tx
        .insert(contacts)
        .values(
          fresh.map((c) => ({ companyId: auth.companyId, name: c.name, number: c.number, email: c.email })),
        )
        .onConflictDoNothing()
        .returning();
    });
    const created = new Set(inserted.map((c) => c.number));
    for (const contact of inserted) {
      result.newContacts.push({ contactId: contact.id, contactName: contact.name });
      ctx.realtime.toCompany(auth.companyId, 'contact', { action: 'create', contact: toContact(contact) });
    }
    for (const c of batch) {
      if (!created.has(c.number)) {
        errors.push({ row: c.row, contactName: c.name, error: 'ERR_DUPLICATED_CONTACT' });
      }
    }
  }
  errors.sort((x, y) => x.row - y.row);
  result.errorBag = errors.map(({ contactName, error }) => ({ contactName, error }));
  return result;
}
