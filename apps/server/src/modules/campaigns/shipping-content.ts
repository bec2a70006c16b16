import type { MediaType } from '@zapdesk/shared';
import { and, desc, eq, max, ne } from 'drizzle-orm';
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
 * The messages of one shipping: the text (as the caption of the campaign's media when it has one),
 * then each file of its file list. The files are the stored ones (not copied per recipient).
 * @throws ERR_NOT_FOUND (file list gone).
 */
export async function shippingRows(
  ctx: AppContext,
  media: MediaStore,
  campaign: typeof campaigns.$inferSelect,
  body: string,
): Promise<ShippingRow[]> {
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
  if (campaign.fileListId) {
    const files = await getFileListFiles(ctx, media, campaign.companyId, campaign.fileListId);
    for (const file of files)
      rows.push({
        body: '',
        mediaType: kindOf(file.mediaType),
        mediaUrl: file.storedName,
        mediaName: file.name,
      });
  }
  return rows;
}

/** The company's contact with this number, created (named after the list item) when missing. */
export async function contactFor(tx: Tx, companyId: number, number: string, name: string) {
  const find = async () =>
    (
      await tx
        .select({ id: contacts.id, name: contacts.name })
        .from(contacts)
        .where(and(eq(contacts.companyId, companyId), eq(contacts.number, number)))
    )[0];
  const found = await find();
  if (found) return found;
  const [created] = await tx
    .insert(contacts)
    .values({ companyId, number, name: name || number })
    .onConflictDoNothing()
    .returning({ id: contacts.id, name: contacts.name });
  return created ?? (await find())!;
}

/**
 * The conversation a campaign message is stored on: the contact's live ticket on the connection,
 * else its latest ticket there, else a new CLOSED ticket — a campaign never opens a pending ticket;
 * the conversation enters the inbox when the customer answers.
 */
export async function ticketFor(tx: Tx, companyId: number, contactId: number, whatsappId: number) {
  const of = and(
    eq(tickets.companyId, companyId),
    eq(tickets.contactId, contactId),
    eq(tickets.whatsappId, whatsappId),
  );
  const [live] = await tx
    .select()
    .from(tickets)
    .where(and(of, ne(tickets.status, 'closed')))
    .limit(1);
  if (live) return live;
  const [latest] = await tx.select().from(tickets).where(of).orderBy(desc(tickets.id)).limit(1);
  if (latest) return latest;
  const [created] = await tx
    .insert(tickets)
    .values({ companyId, contactId, whatsappId, status: 'closed', closedAt: new Date() })
    .returning();
  return created!;
}

/** Whether the contact wrote to the connection in the last 24 hours (Cloud API: free text allowed). */
export async function cloudWindowOpen(tx: Tx, companyId: number, contactId: number, whatsappId: number) {
  const [row] = await tx
    .select({ last: max(messages.createdAt) })
    .from(messages)
    .where(
      and(
        eq(messages.companyId, companyId),
        eq(messages.whatsappId, whatsappId),
        eq(messages.contactId, contactId),
        eq(messages.fromMe, false),
      ),
    );
  return !!row?.last && new Date(row.last).getTime() + CLOUD_WINDOW_MS > Date.now();
}
