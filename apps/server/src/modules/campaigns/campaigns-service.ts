import {
  CAMPAIGN_EDIT_LEAD_MS,
  CAMPAIGN_MESSAGE_KEYS,
  CAMPAIGN_SETTINGS_DEFAULTS,
  type Campaign,
  type CampaignBody,
  type CampaignDetail,
  type CampaignSettings,
  type CampaignShippingsPage,
  type CampaignsPage,
  type CampaignTotals,
  parsePatch,
  ZCampaignBody,
  type ZCampaignSettingsBody,
} from '@zapdesk/shared';
import { and, asc, desc, eq, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { MediaStore } from '../../channels/media-store.js';
import { inspectUpload, type UploadedFile } from '../../channels/outbound-upload.js';
import type { AppContext } from '../../context.js';
import {
  campaignSettings,
  campaignShippings,
  campaigns,
  contactLists,
  fileLists,
  tags,
  whatsapps,
} from '../../db/schema/index.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthContext } from '../../lib/guards.js';
import { containsTerm, readPage, type SearchPageQuery } from '../../lib/search-page.js';
import { swapStoredMedia } from '../../lib/stored-media.js';
import type { CampaignEngine } from './campaign-engine.js';

/** Campaigns and shippings per page of GET /campaigns and GET /campaigns/:id/shippings. */
export const CAMPAIGNS_PAGE_SIZE = 20;

type CampaignRow = typeof campaigns.$inferSelect & {
  contactListName: string | null;
  whatsappName: string | null;
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * Whether the campaign dialog may save it (document 2 section 4): INATIVA; PROGRAMADA more than
 * 1 hour before scheduledAt; CANCELADA ("can still be saved"). `now` in ms.
 */
export function isEditable(
  row: { status: Campaign['status']; scheduledAt: Date | null },
  now = Date.now(),
): boolean {
  if (row.status === 'INATIVA' || row.status === 'CANCELADA') return true;
  if (row.status === 'PROGRAMADA')
    return !row.scheduledAt || row.scheduledAt.getTime() - now > CAMPAIGN_EDIT_LEAD_MS;
  return false;
}

function toCampaign(row: CampaignRow): Campaign {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    message1: row.message1,
    message2: row.message2,
    message3: row.message3,
    message4: row.message4,
    message5: row.message5,
    confirmation: row.confirmation,
    confirmationMessage1: row.confirmationMessage1,
    confirmationMessage2: row.confirmationMessage2,
    confirmationMessage3: row.confirmationMessage3,
    confirmationMessage4: row.confirmationMessage4,
    confirmationMessage5: row.confirmationMessage5,
    scheduledAt: iso(row.scheduledAt),
    completedAt: iso(row.completedAt),
    whatsappId: row.whatsappId,
    contactListId: row.contactListId,
    tagId: row.tagId,
    fileListId: row.fileListId,
    companyId: row.companyId,
    mediaPath: row.mediaPath,
    mediaName: row.mediaName,
    templateName: row.templateName,
    templateLanguage: row.templateLanguage,
    contactList:
      row.contactListId && row.contactListName !== null
        ? { id: row.contactListId, name: row.contactListName }
        : null,
    whatsapp:
      row.whatsappId && row.whatsappName !== null ? { id: row.whatsappId, name: row.whatsappName } : null,
    editable: isEditable(row),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The settings row of a company as the API shows it (defaults when none was saved). */
function toSettings(row: typeof campaignSettings.$inferSelect | undefined): CampaignSettings {
  if (!row) return { ...CAMPAIGN_SETTINGS_DEFAULTS, variables: [] };
  return {
    messageInterval: row.messageInterval,
    longerIntervalAfter: row.longerIntervalAfter,
    greaterInterval: row.greaterInterval,
    variables: row.variables,
    jitterSeconds: row.jitterSeconds,
    sendWindowStart: row.sendWindowStart,
    sendWindowEnd: row.sendWindowEnd,
    dailyCap: row.dailyCap,
    optOutKeyword: row.optOutKeyword,
  };
}

/**
 * Campaigns (document 2 sections 3–9): CRUD with the editability rules, cancel and
 * restart, media, campaign settings and the report. Starting and sending are the engine's
 * (campaign-engine.ts). Realtime `company-{id}-campaign`.
 */
export class CampaignService {
  constructor(
    private readonly ctx: AppContext,
    private readonly media: MediaStore,
    private readonly engine: CampaignEngine,
  ) {}

  private selectCampaigns() {
    return this.ctx.db
      .select({
        campaign: campaigns,
        contactListName: contactLists.name,
        whatsappName: whatsapps.name,
      })
      .from(campaigns)
      .leftJoin(contactLists, eq(contactLists.id, campaigns.contactListId))
      .leftJoin(whatsapps, eq(whatsapps.id, campaigns.whatsappId))
      .$dynamic();
  }

  /** One campaign of the company, or undefined. */
  async find(companyId: number, id: number): Promise<Campaign | undefined> {
    const [row] = await this.selectCampaigns().where(
      and(eq(campaigns.companyId, companyId), eq(campaigns.id, id)),
    );
    return row
      ? toCampaign({ ...row.campaign, contactListName: row.contactListName, whatsappName: row.whatsappName })
      : undefined;
  }

  private async mustFind(companyId: number, id: number): Promise<Campaign> {
    const found = await this.find(companyId, id);
    if (!found) throw new AppError('ERR_NOT_FOUND');
    return found;
  }

  /** Emits the campaign (and its totals) on `company-{id}-campaign`. */
  async emit(companyId: number, id: number, action: 'create' | 'update' = 'update'): Promise<void> {
    const record = await this.find(companyId, id);
    if (!record) return;
    const totals = await this.totals(companyId, id);
    this.ctx.realtime.toCompany(companyId, 'campaign', { action, record, totals });
  }

  /**
   * GET /campaigns: the company's campaigns, newest first, filtered by `searchParam` on the name,
   * 20 a page: `records`, `count` (all matches) and `hasMore`.
   */
  async list(auth: AuthContext, query: SearchPageQuery): Promise<CampaignsPage> {
    const where = and(
      eq(campaigns.companyId, auth.companyId),
      containsTerm(query.searchParam, campaigns.name),
    );
    const { page, hasMore } = await readPage(query.pageNumber, CAMPAIGNS_PAGE_SIZE, ({ limit, offset }) =>
      this.selectCampaigns().where(where).orderBy(desc(campaigns.id)).limit(limit).offset(offset),
    );
    const [counted] = await this.ctx.db
      .select({ count: sql<number>`count(*)::int` })
      .from(campaigns)
      .where(where);
    return {
      records: page.map((r) =>
        toCampaign({ ...r.campaign, contactListName: r.contactListName, whatsappName: r.whatsappName }),
      ),
      count: counted?.count ?? 0,
      hasMore,
    };
  }

  /** Report totals of a campaign: recipients, delivered, pending, failed, skipped, confirmed. */
  async totals(companyId: number, id: number): Promise<CampaignTotals> {
    const [row] = await this.ctx.db
      .select({
        recipients: sql<number>`count(*)::int`,
        delivered: sql<number>`count(*) filter (where ${campaignShippings.status} = 'delivered')::int`,
        pending: sql<number>`count(*) filter (where ${campaignShippings.status} = 'pending')::int`,
        failed: sql<number>`count(*) filter (where ${campaignShippings.status} = 'failed')::int`,
        skipped: sql<number>`count(*) filter (where ${campaignShippings.status} = 'skipped')::int`,
        confirmed: sql<number>`count(${campaignShippings.confirmedAt})::int`,
      })
      .from(campaignShippings)
      .where(and(eq(campaignShippings.campaignId, id), eq(campaignShippings.companyId, companyId)));
    return row ?? { recipients: 0, delivered: 0, pending: 0, failed: 0, skipped: 0, confirmed: 0 };
  }

  /** GET /campaigns/:id: the campaign with its report totals. @throws ERR_NOT_FOUND. */
  async get(auth: AuthContext, id: number): Promise<CampaignDetail> {
    const campaign = await this.mustFind(auth.companyId, id);
    return { ...campaign, totals: await this.totals(auth.companyId, id) };
  }

  /**
   * GET /campaigns/:id/shippings: the report's recipient table, by id, 20 a page, searched by name
   * or number and filtered by status. @throws ERR_NOT_FOUND.
   */
  async shippings(
    auth: AuthContext,
    id: number,
    query: SearchPageQuery & { status?: CampaignShippingsPage['records'][number]['status'] },
  ): Promise<CampaignShippingsPage> {
    await this.mustFind(auth.companyId, id);
    const where = and(
      eq(campaignShippings.campaignId, id),
      eq(campaignShippings.companyId, auth.companyId),
      query.status ? eq(campaignShippings.status, query.status) : undefined,
      containsTerm(query.searchParam, campaignShippings.name, campaignShippings.number),
    );
    const { page, hasMore } = await readPage(query.pageNumber, CAMPAIGNS_PAGE_SIZE, ({ limit, offset }) =>
      this.ctx.db
        .select()
        .from(campaignShippings)
        .where(where)
        .orderBy(asc(campaignShippings.id))
        .limit(limit)
        .offset(offset),
    );
    const [counted] = await this.ctx.db
      .select({ count: sql<number>`count(*)::int` })
      .from(campaignShippings)
      .where(where);
    return {
      records: page.map((s) => ({
        id: s.id,
        campaignId: s.campaignId,
        number: s.number,
        name: s.name,
        contactId: s.contactId,
        status: s.status,
        variant: s.variant,
        message: s.message,
        error: s.error,
        deliveredAt: iso(s.deliveredAt),
        confirmationRequestedAt: iso(s.confirmationRequestedAt),
        confirmedAt: iso(s.confirmedAt),
      })),
      count: counted?.count ?? 0,
      hasMore,
    };
  }

  /**
   * Checks that what a body names belongs to the company: connection (ERR_NO_WAPP_FOUND), contact
   * list, tag and file list (ERR_NOT_FOUND with `field`).
   */
  private async assertRefs(
    companyId: number,
    refs: {
      whatsappId?: number | null;
      contactListId?: number | null;
      tagId?: number | null;
      fileListId?: number | null;
    },
  ): Promise<void> {
    const check = async (
      table: typeof whatsapps | typeof contactLists | typeof tags | typeof fileLists,
      id: number,
    ) => {
      const [row] = await this.ctx.db
        .select({ id: table.id })
        .from(table)
        .where(and(eq(table.companyId, companyId), eq(table.id, id)));
      return !!row;
    };
    if (refs.whatsappId && !(await check(whatsapps, refs.whatsappId)))
      throw new AppError('ERR_NO_WAPP_FOUND', { extra: { field: 'whatsappId' } });
    if (refs.contactListId && !(await check(contactLists, refs.contactListId)))
      throw new AppError('ERR_NOT_FOUND', { extra: { field: 'contactListId' } });
    if (refs.tagId && !(await check(tags, refs.tagId)))
      throw new AppError('ERR_NOT_FOUND', { extra: { field: 'tagId' } });
    if (refs.fileListId && !(await check(fileLists, refs.fileListId)))
      throw new AppError('ERR_NOT_FOUND', { extra: { field: 'fileListId' } });
  }

  /** A body's values for the campaigns table (`tagListId` is the form's name for `tagId`). */
  private valuesOf(body: Partial<z.output<typeof ZCampaignBody>>) {
    const { tagListId, scheduledAt, ...rest } = body;
    return {
      ...rest,
      ...(tagListId !== undefined && (body.tagId === undefined || body.tagId === null)
        ? { tagId: tagListId }
        : {}),
      ...(scheduledAt !== undefined ? { scheduledAt: scheduledAt ? new Date(scheduledAt) : null } : {}),
    };
  }

  /** The saved campaign must have a message and a recipient source. */
  private assertComplete(row: typeof campaigns.$inferSelect): void {
    if (!CAMPAIGN_MESSAGE_KEYS.some((key) => row[key].trim()))
      throw new AppError('ERR_CAMPAIGN_NO_MESSAGE', { extra: { field: 'message1' } });
    if (!row.contactListId && !row.tagId)
      throw new AppError('ERR_CAMPAIGN_NO_LIST', { extra: { field: 'contactListId' } });
  }

  /**
   * POST /campaigns: a campaign of the company; with scheduledAt it is PROGRAMADA and its start job
   * is queued for that instant (at once when past), without it INATIVA (started by
   * POST /campaigns/:id/restart). @throws ERR_VALIDATION, ERR_CAMPAIGN_NO_MESSAGE,
   * ERR_CAMPAIGN_NO_LIST, ERR_NO_WAPP_FOUND, ERR_NOT_FOUND (list, tag or file list of another company).
   */
  async create(auth: AuthContext, input: CampaignBody): Promise<Campaign> {
    const body = ZCampaignBody.parse(input);
    const values = this.valuesOf(body);
    await this.assertRefs(auth.companyId, values);
    const id = await this.ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(campaigns)
        .values({
          ...values,
          name: body.name,
          companyId: auth.companyId,
          status: values.scheduledAt ? 'PROGRAMADA' : 'INATIVA',
        })
        .returning();
      this.assertComplete(row!);
      if (row!.scheduledAt) await this.engine.queueStart(tx, auth.companyId, row!.id, row!.scheduledAt);
      return row!.id;
    });
    this.engine.wake();
    await this.emit(auth.companyId, id, 'create');
    return (await this.find(auth.companyId, id))!;
  }

  /**
   * PUT /campaigns/:id: edits an editable campaign (document 2 section 4). INATIVA and PROGRAMADA
   * campaigns follow their scheduledAt (queued again; none makes it INATIVA); a CANCELADA one stays
   * CANCELADA (restart resumes it). @throws ERR_NOT_FOUND, ERR_CAMPAIGN_NOT_EDITABLE, and the
   * create errors.
   */
  async update(auth: AuthContext, id: number, input: Partial<CampaignBody>): Promise<Campaign> {
    const patch = parsePatch(ZCampaignBody, input);
    const values = this.valuesOf(patch);
    await this.assertRefs(auth.companyId, values);
    await this.ctx.db.transaction(async (tx) => {
      const [current] = await tx
        .select()
        .from(campaigns)
        .where(and(eq(campaigns.companyId, auth.companyId), eq(campaigns.id, id)))
        .for('update');
      if (!current) throw new AppError('ERR_NOT_FOUND');
      if (!isEditable(current)) throw new AppError('ERR_CAMPAIGN_NOT_EDITABLE');
      const scheduledAt = values.scheduledAt !== undefined ? values.scheduledAt : current.scheduledAt;
      const status =
        current.status === 'CANCELADA'
          ? 'CANCELADA'
          : scheduledAt
            ? ('PROGRAMADA' as const)
            : ('INATIVA' as const);
      const [row] = await tx
        .update(campaigns)
        .set({ ...values, status, updatedAt: sql`now()` })
        .where(eq(campaigns.id, id))
        .returning();
      this.assertComplete(row!);
      await this.engine.cancelStart(tx, id);
      if (status === 'PROGRAMADA' && row!.scheduledAt)
        await this.engine.queueStart(tx, auth.companyId, id, row!.scheduledAt);
    });
    this.engine.wake();
    await this.emit(auth.companyId, id);
    return (await this.find(auth.companyId, id))!;
  }

  /** DELETE /campaigns/:id: removes it with its shippings, media and start job. @throws ERR_NOT_FOUND. */
  async remove(auth: AuthContext, id: number): Promise<void> {
    const current = await this.mustFind(auth.companyId, id);
    await this.ctx.db.transaction(async (tx) => {
      await tx.delete(campaigns).where(and(eq(campaigns.companyId, auth.companyId), eq(campaigns.id, id)));
      await this.engine.cancelStart(tx, id);
    });
    await this.media.remove(auth.companyId, current.mediaPath);
    this.ctx.realtime.toCompany(auth.companyId, 'campaign', { action: 'delete', id });
  }

  /**
   * POST /campaigns/:id/cancel: an EM_ANDAMENTO or PROGRAMADA campaign becomes CANCELADA; its
   * pending shippings stay pending (no further send: the pace job claims only EM_ANDAMENTO
   * campaigns, so sending stops within one interval). @throws ERR_NOT_FOUND, ERR_CAMPAIGN_NOT_CANCELLABLE.
   */
  async cancel(auth: AuthContext, id: number): Promise<Campaign> {
    await this.mustFind(auth.companyId, id);
    await this.ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .update(campaigns)
        .set({ status: 'CANCELADA', updatedAt: sql`now()` })
        .where(
          and(
            eq(campaigns.companyId, auth.companyId),
            eq(campaigns.id, id),
            or(eq(campaigns.status, 'EM_ANDAMENTO'), eq(campaigns.status, 'PROGRAMADA')),
          ),
        )
        .returning({ id: campaigns.id });
      if (!row) throw new AppError('ERR_CAMPAIGN_NOT_CANCELLABLE');
      await this.engine.cancelStart(tx, id);
    });
    await this.emit(auth.companyId, id);
    return (await this.find(auth.companyId, id))!;
  }

  /**
   * POST /campaigns/:id/restart: a CANCELADA campaign (or an INATIVA one: "start now") becomes
   * EM_ANDAMENTO; recipients already delivered are never sent again, the pending ones resume.
   * @throws ERR_NOT_FOUND, ERR_CAMPAIGN_NOT_RESTARTABLE, ERR_CAMPAIGN_NO_RECIPIENTS,
   *   ERR_NO_DEF_WAPP_FOUND.
   */
  async restart(auth: AuthContext, id: number): Promise<Campaign> {
    const current = await this.mustFind(auth.companyId, id);
    if (current.status !== 'CANCELADA' && current.status !== 'INATIVA')
      throw new AppError('ERR_CAMPAIGN_NOT_RESTARTABLE');
    await this.engine.start(auth.companyId, id, { from: ['CANCELADA', 'INATIVA'], strict: true });
    return (await this.find(auth.companyId, id))!;
  }

  /**
   * POST /campaigns/:id/media-upload: stores the campaign's media (any type the outbound sender
   * accepts, checked by content), replacing the previous one; spaces of its name become
   * underscores (document 2 section 5). @throws ERR_NOT_FOUND, ERR_CAMPAIGN_NOT_EDITABLE,
   * ERR_UNSUPPORTED_MEDIA_TYPE, ERR_PAYLOAD_TOO_LARGE.
   */
  async uploadMedia(auth: AuthContext, id: number, file: UploadedFile): Promise<Campaign> {
    const current = await this.mustFind(auth.companyId, id);
    if (!current.editable) throw new AppError('ERR_CAMPAIGN_NOT_EDITABLE');
    const inspected = await inspectUpload(file);
    const name = file.fileName.replace(/\s/g, '_');
    return this.swapMedia(auth.companyId, current, { data: file.data, extension: inspected.ext, name });
  }

  /** DELETE /campaigns/:id/media-upload. @throws ERR_NOT_FOUND, ERR_CAMPAIGN_NOT_EDITABLE. */
  async deleteMedia(auth: AuthContext, id: number): Promise<Campaign> {
    const current = await this.mustFind(auth.companyId, id);
    if (!current.editable) throw new AppError('ERR_CAMPAIGN_NOT_EDITABLE');
    return this.swapMedia(auth.companyId, current, null);
  }

  /** Puts `next` (null: none) in place of the campaign's media; answers the campaign, told to the company. */
  private async swapMedia(
    companyId: number,
    current: Campaign,
    next: Parameters<typeof swapStoredMedia>[3],
  ): Promise<Campaign> {
    await swapStoredMedia(this.media, companyId, current.mediaPath, next, (fields) =>
      this.ctx.db
        .update(campaigns)
        .set({ ...fields, updatedAt: sql`now()` })
        .where(and(eq(campaigns.companyId, companyId), eq(campaigns.id, current.id))),
    );
    await this.emit(companyId, current.id);
    return (await this.find(companyId, current.id))!;
  }

  /** The company's campaign settings (defaults when never saved). */
  async settings(companyId: number): Promise<CampaignSettings> {
    const [row] = await this.ctx.db
      .select()
      .from(campaignSettings)
      .where(eq(campaignSettings.companyId, companyId));
    return toSettings(row);
  }

  /**
   * POST /campaign-settings `{ settings }`: saves the fields given and keeps the others; variables
   * with duplicate keys are refused (ERR_VALIDATION, field settings.variables). The company's
   * connections take the new pace from their last send (`CampaignEngine.repace`).
   */
  async saveSettings(
    auth: AuthContext,
    body: z.output<typeof ZCampaignSettingsBody>,
  ): Promise<{ settings: CampaignSettings }> {
    const merged = { ...(await this.settings(auth.companyId)), ...body.settings };
    await this.ctx.db
      .insert(campaignSettings)
      .values({ companyId: auth.companyId, ...merged })
      .onConflictDoUpdate({ target: campaignSettings.companyId, set: { ...merged, updatedAt: sql`now()` } });
    const settings = await this.settings(auth.companyId);
    await this.engine.repace(auth.companyId, settings.messageInterval);
    return { settings };
  }
}
