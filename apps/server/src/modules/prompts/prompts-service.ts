import { type Prompt, type PromptBody, parsePatch, ZPromptBody } from '@zapdesk/shared';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { prompts, queues, tickets, whatsapps } from '../../db/schema/index.js';
import { AppError, orNotFound } from '../../lib/app-error.js';
import { promptView } from '../../lib/secret-views.js';
import { decryptSecret, encryptSecret, maskSecret } from '../../lib/secrets.js';

type PromptRow = typeof prompts.$inferSelect;

/** The API form of a prompt row: the key masked, the handover queue named. */
function present(ctx: AppContext, row: PromptRow, queueName: string | null): Prompt {
  let key = '';
  try {
    key = decryptSecret(row.apiKey, ctx.secrets.sessionKey);
  } catch {
    key = '';
  }
  return {
    id: row.id,
    name: row.name,
    prompt: row.prompt,
    model: row.model,
    maxTokens: row.maxTokens,
    temperature: row.temperature,
    maxMessages: row.maxMessages,
    apiKey: maskSecret(key),
    queueId: row.queueId,
    queue: row.queueId !== null && queueName !== null ? { id: row.queueId, name: queueName } : null,
  };
}

async function select(ctx: AppContext, companyId: number, id?: number): Promise<Prompt[]> {
  const rows = await ctx.db
    .select({ prompt: prompts, queueName: queues.name })
    .from(prompts)
    .leftJoin(queues, eq(queues.id, prompts.queueId))
    .where(and(eq(prompts.companyId, companyId), id === undefined ? undefined : eq(prompts.id, id)))
    .orderBy(asc(prompts.name), asc(prompts.id));
  return rows.map((r) => present(ctx, r.prompt, r.queueName));
}

/** Throws 404 unless `queueId` is one of the company's queues. @throws ERR_NO_QUEUE_FOUND. */
async function checkQueue(db: Tx, companyId: number, queueId: number | null | undefined): Promise<void> {
  if (queueId === null || queueId === undefined) return;
  const [row] = await db
    .select({ id: queues.id })
    .from(queues)
    .where(and(eq(queues.companyId, companyId), eq(queues.id, queueId)));
  if (!row) throw new AppError('ERR_NO_QUEUE_FOUND');
}

/**
 * Throws 404 unless `promptId` is a prompt of the company (queue, connection and ticket pickers:
 * another company's prompt cannot be attached). @throws ERR_NOT_FOUND.
 */
export async function assertPromptOfCompany(
  db: Tx,
  companyId: number,
  promptId: number | null | undefined,
): Promise<void> {
  if (promptId === null || promptId === undefined) return;
  const [row] = await db
    .select({ id: prompts.id })
    .from(prompts)
    .where(and(eq(prompts.companyId, companyId), eq(prompts.id, promptId)));
  if (!row) throw new AppError('ERR_NOT_FOUND', { extra: { field: 'promptId' } });
}

/** GET /prompt (document 2 section 7): the company's prompts by name. */
export async function listPrompts(ctx: AppContext, companyId: number): Promise<{ prompts: Prompt[] }> {
  return { prompts: await select(ctx, companyId) };
}

/** GET /prompt/:id. @throws ERR_NOT_FOUND (also for another company's prompt). */
export async function getPrompt(ctx: AppContext, companyId: number, id: number): Promise<Prompt> {
  const [row] = await select(ctx, companyId, id);
  return orNotFound(row);
}

/**
 * The stored prompt with its API key in clear, for the answering engine (never for the browser).
 * @returns undefined when the prompt is not the company's.
 */
export async function loadPromptForRun(
  ctx: AppContext,
  companyId: number,
  id: number,
): Promise<(PromptRow & { apiKeyPlain: string }) | undefined> {
  const [row] = await ctx.db
    .select()
    .from(prompts)
    .where(and(eq(prompts.companyId, companyId), eq(prompts.id, id)));
  if (!row) return undefined;
  let apiKeyPlain = '';
  try {
    apiKeyPlain = decryptSecret(row.apiKey, ctx.secrets.sessionKey);
  } catch {
    apiKeyPlain = '';
  }
  return { ...row, apiKeyPlain };
}

/** POST /prompt: creates a prompt (key encrypted). @throws ERR_VALIDATION, ERR_NO_QUEUE_FOUND. */
export async function createPrompt(ctx: AppContext, companyId: number, input: PromptBody): Promise<Prompt> {
  const body = ZPromptBody.parse(input);
  await checkQueue(ctx.db, companyId, body.queueId);
  const [row] = await ctx.db
    .insert(prompts)
    .values({ ...body, apiKey: encryptSecret(body.apiKey, ctx.secrets.sessionKey), companyId })
    .returning({ id: prompts.id });
  const prompt = await getPrompt(ctx, companyId, row!.id);
  ctx.realtime.toCompanyPerViewer(companyId, 'prompt', (viewer) => ({
    action: 'create',
    prompt: promptView(viewer, prompt),
  }));
  return prompt;
}

/**
 * PUT /prompt/:id: changes the fields given. An apiKey containing the mask character '…' (the
 * masked key the browser was given) keeps the stored key. @throws ERR_NOT_FOUND, ERR_VALIDATION,
 * ERR_NO_QUEUE_FOUND.
 */
export async function updatePrompt(
  ctx: AppContext,
  companyId: number,
  id: number,
  input: Partial<PromptBody>,
): Promise<Prompt> {
  const body = parsePatch(ZPromptBody, input);
  await getPrompt(ctx, companyId, id);
  await checkQueue(ctx.db, companyId, body.queueId);
  const { apiKey, ...rest } = body;
  const set: Partial<PromptRow> = { ...rest };
  if (apiKey !== undefined && !apiKey.includes('…')) {
    set.apiKey = encryptSecret(apiKey, ctx.secrets.sessionKey);
  }
  await ctx.db
    .update(prompts)
    .set({ ...set, updatedAt: sql`now()` })
    .where(and(eq(prompts.companyId, companyId), eq(prompts.id, id)));
  const prompt = await getPrompt(ctx, companyId, id);
  ctx.realtime.toCompanyPerViewer(companyId, 'prompt', (viewer) => ({
    action: 'update',
    prompt: promptView(viewer, prompt),
  }));
  return prompt;
}

/**
 * DELETE /prompt/:id: removes the prompt and detaches it from queues, connections and tickets (a
 * ticket it was answering waits for a human). @throws ERR_NOT_FOUND.
 */
export async function deletePrompt(ctx: AppContext, companyId: number, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const deleted = await tx
      .delete(prompts)
      .where(and(eq(prompts.companyId, companyId), eq(prompts.id, id)))
      .returning({ id: prompts.id });
    if (!deleted.length) throw new AppError('ERR_NOT_FOUND');
    await tx
      .update(queues)
      .set({ promptId: null })
      .where(and(eq(queues.companyId, companyId), eq(queues.promptId, id)));
    await tx
      .update(whatsapps)
      .set({ promptId: null })
      .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.promptId, id)));
    await tx
      .update(tickets)
      .set({ promptId: null, useIntegration: false })
      .where(and(eq(tickets.companyId, companyId), eq(tickets.promptId, id)));
  });
  ctx.realtime.toCompany(companyId, 'prompt', { action: 'delete', promptId: id });
}
