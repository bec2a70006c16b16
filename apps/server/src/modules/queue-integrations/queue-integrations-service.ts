import crypto from 'node:crypto';
import {
  integrationProblem,
  parsePatch,
  type QueueIntegration,
  type QueueIntegrationBody,
  type QueueIntegrationsPage,
  type TestSessionBody,
  type TestSessionResult,
  ZQueueIntegrationBody,
} from '@zapdesk/shared';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { BotServiceError } from '../../automation/bots/bot-error.js';
import { detectIntent } from '../../automation/bots/dialogflow-runner.js';
import { typebotStart } from '../../automation/bots/typebot-runner.js';
import { postToWebhook } from '../../automation/bots/webhook-runner.js';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { queueIntegrations, queues, tickets, whatsapps } from '../../db/schema/index.js';
import { AppError, orNotFound } from '../../lib/app-error.js';
import { assertUrlAllowed, outboundPolicy } from '../../lib/outbound-url.js';
import { containsTerm, readPage, type SearchPageQuery } from '../../lib/search-page.js';
import { queueIntegrationView } from '../../lib/secret-views.js';
import { decryptSecret, encryptSecret } from '../../lib/secrets.js';

/** Queue integrations per page of GET /queueIntegration. */
export const INTEGRATIONS_PAGE_SIZE = 20;

type Row = typeof queueIntegrations.$inferSelect;

/** The API form: the service-account JSON never leaves the server. */
function present(row: Row): QueueIntegration {
  const { companyId: _c, createdAt: _a, updatedAt: _u, jsonContent, ...rest } = row;
  return { ...rest, jsonContent: '', hasJsonContent: jsonContent !== '' };
}

/** n8n, webhook, typebot and flowbuilder keep projectName equal to the name (document 2 section 5). */
function withProjectName<T extends { type?: string; name?: string; projectName?: string }>(body: T): T {
  if (body.type && body.type !== 'dialogflow' && body.name !== undefined)
    return { ...body, projectName: body.name };
  return body;
}

/**
 * Throws 404 unless `integrationId` is a queue integration of the company (queue, connection and
 * ticket pickers). @throws ERR_NOT_FOUND.
 */
export async function assertIntegrationOfCompany(
  db: Tx,
  companyId: number,
  integrationId: number | null | undefined,
): Promise<void> {
  if (integrationId === null || integrationId === undefined) return;
  const [row] = await db
    .select({ id: queueIntegrations.id })
    .from(queueIntegrations)
    .where(and(eq(queueIntegrations.companyId, companyId), eq(queueIntegrations.id, integrationId)));
  if (!row) throw new AppError('ERR_NOT_FOUND', { extra: { field: 'integrationId' } });
}

/**
 * GET /queueIntegration (document 2 section 7): the company's integrations by name, filtered by
 * `searchParam` on name and type, 20 a page (`queueIntegrations`, `count`, `hasMore`).
 */
export async function listIntegrations(
  ctx: AppContext,
  companyId: number,
  query: SearchPageQuery,
): Promise<QueueIntegrationsPage> {
  const where = and(
    eq(queueIntegrations.companyId, companyId),
    containsTerm(query.searchParam, queueIntegrations.name, queueIntegrations.type),
  );
  const { page, hasMore } = await readPage(query.pageNumber, INTEGRATIONS_PAGE_SIZE, ({ limit, offset }) =>
    ctx.db
      .select()
      .from(queueIntegrations)
      .where(where)
      .orderBy(asc(queueIntegrations.name), asc(queueIntegrations.id))
      .limit(limit)
      .offset(offset),
  );
  const [total] = await ctx.db.select({ n: count() }).from(queueIntegrations).where(where);
  return { queueIntegrations: page.map(present), count: total?.n ?? 0, hasMore };
}

async function getRow(ctx: AppContext, companyId: number, id: number): Promise<Row> {
  const [row] = await ctx.db
    .select()
    .from(queueIntegrations)
    .where(and(eq(queueIntegrations.companyId, companyId), eq(queueIntegrations.id, id)));
  return orNotFound(row);
}

/** GET /queueIntegration/:id. @throws ERR_NOT_FOUND (also for another company's). */
export async function getIntegration(
  ctx: AppContext,
  companyId: number,
  id: number,
): Promise<QueueIntegration> {
  return present(await getRow(ctx, companyId, id));
}

function checkFields(record: Parameters<typeof integrationProblem>[0]): void {
  const field = integrationProblem(record);
  if (field) throw new AppError('ERR_VALIDATION', { extra: { field, message: 'required' } });
}

/** The token_uri of a service-account JSON, when it names one. */
function tokenUriOf(jsonContent: string): string | undefined {
  try {
    const uri = (JSON.parse(jsonContent) as { token_uri?: unknown }).token_uri;
    return typeof uri === 'string' ? uri : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Applies the outbound-URL policy to the URLs an integration makes the server call: urlN8N of the
 * n8n, webhook and Typebot types, the key's token_uri of Dialogflow. `jsonContent` is checked only
 * when given. @throws ERR_URL_NOT_ALLOWED (field urlN8N or jsonContent).
 */
async function checkUrls(
  ctx: AppContext,
  record: { type?: string; urlN8N?: string; jsonContent?: string },
): Promise<void> {
  if (record.type && ['n8n', 'webhook', 'typebot'].includes(record.type) && record.urlN8N) {
    await assertUrlAllowed(ctx, record.urlN8N, 'urlN8N');
  }
  const tokenUri =
    record.type === 'dialogflow' && record.jsonContent ? tokenUriOf(record.jsonContent) : undefined;
  if (tokenUri !== undefined) await assertUrlAllowed(ctx, tokenUri, 'jsonContent');
}

/**
 * POST /queueIntegration: creates an integration with a fresh signing secret; the JSON key is
 * stored encrypted. @throws ERR_VALIDATION (with `field` for a field its type requires).
 */
export async function createIntegration(
  ctx: AppContext,
  companyId: number,
  input: QueueIntegrationBody,
): Promise<QueueIntegration> {
  const body = withProjectName(ZQueueIntegrationBody.parse(input));
  checkFields(body);
  await checkUrls(ctx, body);
  const [row] = await ctx.db
    .insert(queueIntegrations)
    .values({
      ...body,
      jsonContent: body.jsonContent ? encryptSecret(body.jsonContent, ctx.secrets.sessionKey) : '',
      secret: crypto.randomBytes(24).toString('base64url'),
      companyId,
    })
    .returning();
  const integration = present(row!);
  ctx.realtime.toCompanyPerViewer(companyId, 'queueIntegration', (viewer) => ({
    action: 'create',
    queueIntegration: queueIntegrationView(viewer, integration),
  }));
  return integration;
}

/**
 * PUT /queueIntegration/:id: changes the fields given; an empty or absent jsonContent keeps the
 * stored key. @throws ERR_NOT_FOUND, ERR_VALIDATION.
 */
export async function updateIntegration(
  ctx: AppContext,
  companyId: number,
  id: number,
  input: Partial<QueueIntegrationBody>,
): Promise<QueueIntegration> {
  const patch = parsePatch(ZQueueIntegrationBody, input);
  const current = await getRow(ctx, companyId, id);
  const { jsonContent, ...rest } = patch;
  const merged = withProjectName({ ...current, ...rest });
  const plainJson = jsonContent ? jsonContent : decryptSecret(current.jsonContent, ctx.secrets.sessionKey);
  checkFields({ ...merged, jsonContent: plainJson });
  // A URL saved before is not judged again unless the change touches it.
  if (rest.urlN8N !== undefined || rest.type !== undefined || jsonContent) {
    await checkUrls(ctx, { type: merged.type, urlN8N: merged.urlN8N, jsonContent: jsonContent || undefined });
  }
  const set: Partial<Row> = { ...rest, projectName: merged.projectName };
  if (jsonContent) set.jsonContent = encryptSecret(jsonContent, ctx.secrets.sessionKey);
  const [row] = await ctx.db
    .update(queueIntegrations)
    .set({ ...set, updatedAt: sql`now()` })
    .where(and(eq(queueIntegrations.companyId, companyId), eq(queueIntegrations.id, id)))
    .returning();
  const integration = present(row!);
  ctx.realtime.toCompanyPerViewer(companyId, 'queueIntegration', (viewer) => ({
    action: 'update',
    queueIntegration: queueIntegrationView(viewer, integration),
  }));
  return integration;
}

/**
 * DELETE /queueIntegration/:id: removes it and detaches it from queues, connections and tickets (a
 * ticket it was answering waits for a human). @throws ERR_NOT_FOUND.
 */
export async function deleteIntegration(ctx: AppContext, companyId: number, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const deleted = await tx
      .delete(queueIntegrations)
      .where(and(eq(queueIntegrations.companyId, companyId), eq(queueIntegrations.id, id)))
      .returning({ id: queueIntegrations.id });
    if (!deleted.length) throw new AppError('ERR_NOT_FOUND');
    await tx
      .update(queues)
      .set({ integrationId: null })
      .where(and(eq(queues.companyId, companyId), eq(queues.integrationId, id)));
    await tx
      .update(whatsapps)
      .set({ integrationId: null })
      .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.integrationId, id)));
    await tx
      .update(tickets)
      .set({ integrationId: null, useIntegration: false })
      .where(and(eq(tickets.companyId, companyId), eq(tickets.integrationId, id)));
  });
  ctx.realtime.toCompany(companyId, 'queueIntegration', { action: 'delete', integrationId: id });
}

/**
 * POST /queueIntegration/testSession: runs one exchange with the integration (a saved one by `id`,
 * or the dialog's unsaved fields; the spec's projectName, jsonContent and language run Dialogflow):
 * Dialogflow detectIntent, Typebot startChat, a signed test POST to n8n/webhook. A failure answers
 * `ok: false` with the reason, never a 5xx. A URL the outbound-URL policy refuses (before the call
 * or as the connection opens) answers ERR_URL_NOT_ALLOWED, whatever the address would have
 * answered. @throws ERR_NOT_FOUND (another company's id), ERR_URL_NOT_ALLOWED.
 */
export async function testSession(
  ctx: AppContext,
  companyId: number,
  input: TestSessionBody,
): Promise<TestSessionResult> {
  const saved = input.id ? await getRow(ctx, companyId, input.id) : undefined;
  const savedJson = saved ? decryptSecret(saved.jsonContent, ctx.secrets.sessionKey) : '';
  const pick = <K extends keyof Row>(key: K, fallback: Row[K]): Row[K] =>
    ((input as Record<string, unknown>)[key] || saved?.[key] || fallback) as Row[K];
  const type = pick('type', 'dialogflow');
  const record = {
    type,
    urlN8N: pick('urlN8N', ''),
    typebotSlug: pick('typebotSlug', ''),
    jsonContent: input.jsonContent || savedJson,
    projectName: pick('projectName', ''),
    language: pick('language', 'pt-BR'),
  };
  const problem = integrationProblem(record);
  if (problem) return { ok: false, replies: [], error: `${problem} required` };
  await checkUrls(ctx, record);
  const message = input.message || 'Olá';
  const timeoutMs = Math.min(ctx.config.BOT_TIMEOUT_MS, 10_000);
  const policy = outboundPolicy(ctx);
  try {
    switch (type) {
      case 'dialogflow': {
        const answer = await detectIntent(
          { ...record, baseUrl: ctx.config.DIALOGFLOW_BASE_URL, timeoutMs, policy },
          `test-${crypto.randomUUID()}`,
          message,
        );
        return { ok: true, replies: answer.texts };
      }
      case 'typebot': {
        const turn = await typebotStart({
          url: record.urlN8N,
          slug: record.typebotSlug,
          timeoutMs,
          policy,
        });
        return { ok: true, replies: [...turn.bubbles, ...turn.choices] };
      }
      case 'n8n':
      case 'webhook': {
        const answer = await postToWebhook(
          { url: record.urlN8N, secret: saved?.secret ?? 'test', timeoutMs, service: type, policy },
          { event: 'test', integration: { id: saved?.id ?? null, type }, message: { body: message } },
        );
        return { ok: true, replies: answer.replies };
      }
      default:
        return { ok: true, replies: [] };
    }
  } catch (error) {
    if (error instanceof BotServiceError && error.refusedUrl) {
      throw new AppError('ERR_URL_NOT_ALLOWED', {
        extra: { field: type === 'dialogflow' ? 'jsonContent' : 'urlN8N' },
      });
    }
    if (error instanceof BotServiceError) return { ok: false, replies: [], error: error.message };
    throw error;
  }
}
