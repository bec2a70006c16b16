/**
 * The form schemas of the flow dialogs (document 3 sections 3 and 5), apart from flow-types.ts so
 * that zod loads only with a dialog (docs/web.md, "Web delivery").
 */
import { FLOW_LIMITS, ZFlowVariableName } from '@zapdesk/shared';
import { z } from 'zod';
import { FLOW_MESSAGES } from './flow-types';

const required = (max: number) =>
  z.string().trim().min(1, FLOW_MESSAGES.required).max(max, FLOW_MESSAGES.tooLong);

/** Flow name: required ('Digite um nome!'), 2 to 50 characters (document 3 section 5). */
export const ZFlowNameForm = z.object({
  name: z
    .string()
    .trim()
    .min(1, FLOW_MESSAGES.nameRequired)
    .min(FLOW_LIMITS.nameMin, FLOW_MESSAGES.tooShort)
    .max(FLOW_LIMITS.nameMax, FLOW_MESSAGES.tooLong),
});

/** Flow campaign: name, flow, phrase non-empty and a connection chosen (document 3 section 5). */
export const ZFlowCampaignForm = z.object({
  name: required(100),
  flowId: z.number({ error: FLOW_MESSAGES.required }).int().positive(FLOW_MESSAGES.required),
  whatsappId: z.number({ error: FLOW_MESSAGES.required }).int().positive(FLOW_MESSAGES.required),
  phrase: required(200),
  status: z.boolean(),
});
export type FlowCampaignForm = z.infer<typeof ZFlowCampaignForm>;

/** Interval node: greater than 0, at most 120 seconds. */
export const ZIntervalForm = z.object({
  sec: z
    .number({ error: FLOW_MESSAGES.interval })
    .int(FLOW_MESSAGES.interval)
    .min(1, FLOW_MESSAGES.interval)
    .max(FLOW_LIMITS.intervalMaxSec, FLOW_MESSAGES.intervalMax),
});

/** Typebot node: name, urlN8N and typebotSlug required. */
export const ZTypebotForm = z.object({
  name: required(100),
  urlN8N: required(2000).regex(/^https?:\/\/\S+$/i, FLOW_MESSAGES.invalid),
  typebotSlug: required(255),
  typebotExpires: z.number().int().min(0).max(10_080),
  typebotDelayMessage: z.number().int().min(0).max(60_000),
  typebotKeywordFinish: z.string().max(255, FLOW_MESSAGES.tooLong),
  typebotKeywordRestart: z.string().max(255, FLOW_MESSAGES.tooLong),
  typebotUnknownMessage: z.string().max(1000, FLOW_MESSAGES.tooLong),
  typebotRestartMessage: z.string().max(1000, FLOW_MESSAGES.tooLong),
});

/** OpenAI node: name, apiKey and prompt required. */
export const ZOpenAiForm = z.object({
  name: required(100),
  prompt: required(20_000),
  voice: z.string().max(100),
  voiceKey: z.string().max(500, FLOW_MESSAGES.tooLong),
  voiceRegion: z.string().max(100, FLOW_MESSAGES.tooLong),
  maxTokens: z.number().int().min(1).max(32_000),
  temperature: z.number().min(0).max(2),
  apiKey: required(500),
  queueId: z.number().int().positive().nullable(),
  maxMessages: z.number().int().min(1).max(100),
});

/** Question node: message and answerKey required (the answer variable, a word). */
export const ZQuestionForm = z.object({
  message: required(4096),
  answerKey: ZFlowVariableName,
});
