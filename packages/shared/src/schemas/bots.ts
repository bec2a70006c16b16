import { z } from 'zod';
import { countedPageOf, ZNamedRef } from './answers.js';
import { boundedString, V, ZId } from './common.js';

/** The models the prompt dialog offers (document 2 section 3 "Prompt"); any compatible name is accepted. */
export const PROMPT_MODELS = ['gpt-3.5-turbo-1106', 'gpt-4o-mini'] as const;

/** Prompt defaults (document 2 section 9). */
export const PROMPT_DEFAULTS = {
  model: 'gpt-3.5-turbo-1106',
  maxTokens: 100,
  temperature: 1,
  maxMessages: 10,
} as const;

/**
 * POST /prompt body (document 2 section 5 "Prompt"): name 5..100, prompt text at least 50
 * characters, model, maxTokens, temperature (0..1, step 0.1), maxMessages, apiKey and queueId (the
 * queue that takes the ticket when the customer asks for a human). PUT takes any subset; an
 * apiKey equal to the masked one it was given keeps the stored key.
 */
export const ZPromptBody = z.object({
  name: boundedString(5, 100),
  prompt: boundedString(50, 20_000),
  model: boundedString(1, 100).default(PROMPT_DEFAULTS.model),
  maxTokens: z.number().int().min(1).max(32_000).default(PROMPT_DEFAULTS.maxTokens),
  temperature: z.number().min(0).max(1).default(PROMPT_DEFAULTS.temperature),
  maxMessages: z.number().int().min(1).max(100).default(PROMPT_DEFAULTS.maxMessages),
  apiKey: boundedString(1, 500),
  queueId: ZId,
});
export type PromptBody = z.input<typeof ZPromptBody>;

/** A prompt as the API answers it: the API key masked (`sk-…abcd`), never in full. */
export const ZPrompt = z.object({
  id: z.number(),
  name: z.string(),
  prompt: z.string(),
  model: z.string(),
  maxTokens: z.number(),
  temperature: z.number(),
  maxMessages: z.number(),
  apiKey: z.string(),
  queueId: z.number().nullable(),
  queue: ZNamedRef.nullable(),
});
export type Prompt = z.infer<typeof ZPrompt>;

export const ZPromptsList = z.object({ prompts: z.array(ZPrompt) });

/** Queue integration types (document 2 section 3 "Queue integration"). */
export const INTEGRATION_TYPES = ['dialogflow', 'n8n', 'webhook', 'typebot', 'flowbuilder'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];
export const INTEGRATION_LANGUAGES = ['pt-BR', 'en', 'es'] as const;

/** Integration defaults (document 2 section 9): delay 1000 ms, expires 1 minute. */
export const INTEGRATION_DEFAULTS = {
  typebotDelayMessage: 1000,
  typebotExpires: 1,
  language: 'pt-BR',
} as const;

/** An http(s) URL, or empty. */
const ZHttpUrl = z
  .string()
  .trim()
  .max(2000, V.tooLong)
  .refine((value) => value === '' || /^https?:\/\/[^\s]+$/i.test(value), V.invalid);

/**
 * POST /queueIntegration body: the spec's fields and defaults. Which fields each type requires
 * (url for n8n, webhook and typebot; slug for typebot; the service-account JSON for dialogflow) is
 * checked by the server on the merged record (see `integrationProblem`).
 */
export const ZQueueIntegrationBody = z.object({
  type: z.enum(INTEGRATION_TYPES),
  name: boundedString(2, 50),
  projectName: z.string().trim().max(200, V.tooLong).default(''),
  jsonContent: z.string().max(20_000, V.tooLong).default(''),
  language: z.enum(INTEGRATION_LANGUAGES).default(INTEGRATION_DEFAULTS.language),
  urlN8N: ZHttpUrl.default(''),
  typebotSlug: z.string().trim().max(200, V.tooLong).default(''),
  typebotExpires: z.number().int().min(0).max(10_080).default(INTEGRATION_DEFAULTS.typebotExpires),
  typebotDelayMessage: z.number().int().min(0).max(60_000).default(INTEGRATION_DEFAULTS.typebotDelayMessage),
  typebotKeywordFinish: z.string().trim().max(100, V.tooLong).default(''),
  typebotKeywordRestart: z.string().trim().max(100, V.tooLong).default(''),
  typebotRestartMessage: z.string().max(4000, V.tooLong).default(''),
  typebotUnknownMessage: z.string().max(4000, V.tooLong).default(''),
});
export type QueueIntegrationBody = z.input<typeof ZQueueIntegrationBody>;

/**
 * The field a queue integration lacks for its type, or null: url (n8n, webhook, typebot), slug
 * (typebot), jsonContent (dialogflow, a service-account key with client_email and private_key).
 */
export function integrationProblem(record: {
  type: IntegrationType;
  urlN8N: string;
  typebotSlug: string;
  jsonContent: string;
}): 'urlN8N' | 'typebotSlug' | 'jsonContent' | null {
  if (['n8n', 'webhook', 'typebot'].includes(record.type) && !record.urlN8N) return 'urlN8N';
  if (record.type === 'typebot' && !record.typebotSlug) return 'typebotSlug';
  if (record.type === 'dialogflow') {
    try {
      const key = JSON.parse(record.jsonContent) as Record<string, unknown>;
      if (typeof key.client_email !== 'string' || typeof key.private_key !== 'string') return 'jsonContent';
    } catch {
      return 'jsonContent';
    }
  }
  return null;
}

/**
 * A queue integration as the API answers it. `jsonContent` (a private key) is never returned:
 * `hasJsonContent` says one is stored, and a PUT without it keeps it. `secret` signs the n8n and
 * webhook requests (header X-Zapdesk-Signature).
 */
export const ZQueueIntegration = ZQueueIntegrationBody.omit({ jsonContent: true }).extend({
  id: z.number(),
  name: z.string(),
  projectName: z.string(),
  urlN8N: z.string(),
  typebotSlug: z.string(),
  typebotKeywordFinish: z.string(),
  typebotKeywordRestart: z.string(),
  typebotRestartMessage: z.string(),
  typebotUnknownMessage: z.string(),
  language: z.string(),
  jsonContent: z.literal(''),
  hasJsonContent: z.boolean(),
  secret: z.string(),
});
export type QueueIntegration = z.infer<typeof ZQueueIntegration>;

export const ZQueueIntegrationsPage = countedPageOf('queueIntegrations', ZQueueIntegration);
export type QueueIntegrationsPage = z.infer<typeof ZQueueIntegrationsPage>;

/**
 * POST /queueIntegration/testSession body: the spec's projectName, jsonContent and language
 * (Dialogflow), or `id` of a saved integration of any type, or the unsaved fields of the dialog.
 */
export const ZTestSessionBody = ZQueueIntegrationBody.partial().extend({
  id: ZId.optional(),
  /** What the test sends as the customer's message. */
  message: z.string().trim().max(1000, V.tooLong).optional(),
});
export type TestSessionBody = z.input<typeof ZTestSessionBody>;

/** The outcome of a test session: what the bot answered, or why it failed (never a 5xx). */
export const ZTestSessionResult = z.object({
  ok: z.boolean(),
  replies: z.array(z.string()),
  error: z.string().optional(),
});
export type TestSessionResult = z.infer<typeof ZTestSessionResult>;
