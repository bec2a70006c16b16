import type { MediaType } from '@zapdesk/shared';
import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import mime from 'mime-types';
import type { MediaStore } from '../../channels/media-store.js';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { type campaigns, contacts, messages, tickets } from '../../db/schema/index.js';
import { getFileListFiles } from '../files/files-service.js';

/** One outbound message row of a shipping (as `OutboundSender.storeWithin` takes it). */
export interface ShippingRow {
  body: string;
  mediaType: MediaType;
  mediaUrl: string | null;
  mediaName: string | null;
}

/** The Cloud API's customer-service window, ms (24 hours since the customer last wrote). */
const CLOUD_WINDOW_MS = 24 * 60 * 60 * 1000;

/** An opt-out keyword or answer compared without case, accents or surrounding spaces. */
export function normalizeKeyword(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').trim().toUpperCase();
}

/** The message kind of a stored file by its MIME type. */
function kindOf(mimetype: string): MediaType {
  if (mimetype.startsWith('image/')) return 'image';
  if (mimetype.startsWith('video/')) return 'video';
  if (mimetype.startsWith('audio/')) return 'audio';
  return 'document';
}

/**
 * The stored files every shipping of a campaign carries after its text: each file of its file list.
 * Read once per campaign and batch (the files are not copied per recipient).
 * @throws ERR_NOT_FOUND (file list gone).
 */
export async function campaignFiles(
  ctx: AppContext,
  media: MediaStore,
  campaign: typeof campaigns.$inferSelect,
): Promise<ShippingRow[]> {
  if (!campaign.fileListId) return [];
  const files = await getFileListFiles(ctx, media, campaign.companyId, campaign.fileListId);
  return files.map((file) => ({
    body: '',
    mediaType: kindOf(file.mediaType),
    mediaUrl: file.storedName,
    mediaName: file.name,
  }));
}

/**
 * The messages of one shipping: the text `body` (as the caption of the campaign's media when it
 * has one), then `files` (campaignFiles). Pure.
 */
export function shippingRows(
  campaign: typeof campaigns.$inferSelect,
  body: string,
  files: ShippingRow[],
): ShippingRow[] {
  const rows: ShippingRow[] = [];
  if (campaign.mediaPath) {
    const mimetype = mime.lookup(campaign.mediaPath) || 'application/octet-stream';
    rows.push({
      body,
      mediaType: kindOf(mimetype),
      mediaUrl: campaign.mediaPath,
      mediaName: campaign.mediaName ?? campaign.mediaPath,
    });
  } else if (body.trim()) {
    rows.push({ body, mediaType: 'chat', mediaUrl: null, mediaName: null });
  }
  return [...rows, ...files];
}

/**
 * The company's contacts with these numbers (`name` names a missing one; the number when empty),
 * found in one SELECT and the missing ones created in one INSERT. @returns contact by number.
 */
export async function contactsFor(
  tx: Tx,
  companyId: number,
  wanted: { number: string; name: string }[],
): Promise<Map<string, { id: number; name: string }>> {
  const found = new Map<string, { id: number; name: string }>();
  if (!wanted.length) return found;
  const select = async (numbers: string[]) => {
    // One unique-index probe per number. Written as a range: with `number = …` (or IN) the planner
    // takes the number's trigram index (contacts_number_trgm_idx), whose posting lists hold every
    // contact sharing the country and area code: hundreds of ms per batch at 10,000 contacts.
    const result = await tx.execute(sql`
      select c.id, c.name, c.number
      from unnest(array[${sql.join(
        numbers.map((n) => sql`${n}`),
        sql`, `,
      )}]::text[]) as n(number)
      join contacts c on c.company_id = ${companyId} and c.number >= n.number and c.number <= n.number`);
    const rows = (result as unknown as { rows: { id: number; name: string; number: string }[] }).rows;
    for (const row of rows) found.set(row.number, { id: row.id, name: row.name });
  };
  await select([...new Set(wanted.map((w) => w.number))]);
  const missing = new Map<string, string>();
  for (const w of wanted) if (!found.has(w.number)) missing.set(w.number, w.name || w.number);
  if (!missing.size) return found;
  const created = await tx
    .insert(contacts)
    .values([...missing].map(([number, name]) => ({ companyId, number, name })))
    .onConflictDoNothing()
    .returning({ id: contacts.id, name: contacts.name, number: contacts.number });
  for (const row of created) found.set(row.number, { id: row.id, name: row.name });
  // Created meanwhile by another transaction (an inbound message): read them.
  const raced = [...missing.keys()].filter((n) => !found.has(n));
  if (raced.length) await select(raced);
  return found;
}

/**
 * The conversation each contact's campaign message is stored on: its live ticket on the
 * connection, else its latest ticket there, else a new CLOSED ticket (one SELECT, one INSERT for
 * the missing) — a campaign never opens a pending ticket; the conversation enters the inbox when
 * the customer answers. @returns ticket by contact id.
 */
export async function ticketsFor(
  tx: Tx,
  companyId: number,
  contactIds: number[],
  whatsappId: number,
): Promise<Map<number, typeof tickets.$inferSelect>> {
  const byContact = new Map<number, typeof tickets.$inferSelect>();
  const ids = [...new Set(contactIds)];
  if (!ids.length) return byContact;
  const existing = await tx
    .selectDistinctOn([tickets.contactId])
    .from(tickets)
    .where(
      and(
        eq(tickets.companyId, companyId),
        inArray(tickets.contactId, ids),
        eq(tickets.whatsappId, whatsappId),
      ),
    )
    .orderBy(tickets.contactId, sql`${tickets.status} = 'closed'`, desc(tickets.id));
  for (const ticket of existing) byContact.set(ticket.contactId, ticket);
  const missing = ids.filter((id) => !byContact.has(id));
  if (missing.length) {
    const created = await tx
      .insert(tickets)
      .values(
        missing.map((contactId) => ({
          companyId,
          contactId,
          whatsappId,
          status: 'closed' as const,
          closedAt: new Date(),
        })),
      )
      .returning();
    for (const ticket of created) byContact.set(ticket.contactId, ticket);
  }
  return byContact;
}

/**
 * Of these contacts, those who wrote to the connection in the last 24 hours (Cloud API: free text
 * allowed), in one query.
 */
export async function cloudWindowsOpen(
  tx: Tx,
  companyId: number,
  contactIds: number[],
  whatsappId: number,
): Promise<Set<number>> {
  if (!contactIds.length) return new Set();
  const rows = await tx
    .select({ contactId: messages.contactId })
    .from(messages)
    .where(
      and(
        eq(messages.companyId, companyId),
        eq(messages.whatsappId, whatsappId),
        inArray(messages.contactId, [...new Set(contactIds)]),
        eq(messages.fromMe, false),
        gt(messages.createdAt, new Date(Date.now() - CLOUD_WINDOW_MS)),
      ),
    )
    .groupBy(messages.contactId);
  return new Set(rows.map((r) => r.contactId).filter((id): id is number => id !== null));
}
