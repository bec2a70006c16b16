/**
 * Shapes of the flow builder screens (document 3 sections 3, 5 and 9), as the web client reads and
 * sends them. The request/response contract lives in packages/shared (schemas/flows.ts); these are the
 * editor's own types and the form schemas of its dialogs.
 */
import { z } from 'zod';

/** Flow constants (document 3 section 9). */
export const FLOW_LIMITS = {
  /** Length of a generated node id. */
  nodeIdLength: 30,
  /** Gap in px between the last node and a new one. */
  newNodeGap: 40,
  /** Offset in px of a duplicate to the right of the rightmost node. */
  duplicateOffset: 240,
  /** Longest interval node, in seconds. */
  intervalMaxSec: 120,
  /** Randomizer percent step. */
  randomizerStep: 10,
  /** Upload limits in bytes. */
  imageMaxBytes: 2 * 1024 * 1024,
  audioMaxBytes: 5 * 1024 * 1024,
  videoMaxBytes: 20 * 1024 * 1024,
  /** Browser image compression quality (0..1). */
  imageQuality: 0.7,
  /** Delay before the saved flow is requested, in ms. */
  loadDelayMs: 500,
  /** Delay before a node dialog submits, in ms. */
  dialogSubmitDelayMs: 400,
} as const;

/** Id and label of the start node (document 3 section 3). */
export const START_NODE_ID = '1';
export const START_NODE_LABEL = 'Inicio do fluxo';

/** Every node type of the stored graph (document 3 section 3, node types table). */
export const FLOW_NODE_TYPES = [
  'start',
  'message',
  'interval',
  'condition',
  'menu',
  'img',
  'audio',
  'video',
  'randomizer',
  'singleBlock',
  'ticket',
  'typebot',
  'openai',
  'question',
] as const;
export type FlowNodeType = (typeof FLOW_NODE_TYPES)[number];

/** The node types of the speed-dial, in the spec's order (Inicio ... Pergunta). */
export const CREATABLE_NODE_TYPES = [
  'start',
  'singleBlock',
  'menu',
  'randomizer',
  'interval',
  'ticket',
  'typebot',
  'openai',
  'question',
] as const satisfies readonly FlowNodeType[];
export type CreatableNodeType = (typeof CREATABLE_NODE_TYPES)[number];

/** A node of the stored graph: id, position, free-form data per type, type. */
export interface FlowNode {
  id: string;
  position: { x: number; y: number };
  data: Record<string, unknown>;
  type: FlowNodeType;
  /** Size React Flow measured, kept when the server echoes it (used for placement). */
  width?: number | null;
  height?: number | null;
}

/** A connection of the stored graph (an edge from a source handle to a target node). */
export interface FlowConnection {
  id: string;
  source: string;
  target: string;
  sourceHandle?: string | null;
  targetHandle?: string | null;
}

/** A flow of the list (GET /flowbuilder). */
export interface FlowSummary {
  id: number;
  name: string;
  active: boolean;
  /** Set by the server when the flow references a deleted queue or integration (issue 14 item 4). */
  brokenReferences?: boolean | string[];
}

export interface FlowsPage {
  flows: FlowSummary[];
  hasMore: boolean;
}

/** GET /flowbuilder/flow/:id: `flow.flow` holds the graph, null when nothing was saved. */
export interface FlowGraphAnswer {
  flow: FlowSummary & { flow: { nodes: FlowNode[]; connections: FlowConnection[] } | null };
}

/** A flow campaign (document 3 section 3). */
export interface FlowCampaign {
  id: number;
  name: string;
  flowId: number;
  whatsappId: number;
  phrase: string;
  status: boolean;
}

/** A typebot node's integration (document 3 section 3 "Typebot integration"). */
export interface TypebotData {
  name: string;
  projectName: string;
  urlN8N: string;
  typebotSlug: string;
  typebotExpires: number;
  typebotDelayMessage: number;
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotUnknownMessage: string;
  typebotRestartMessage: string;
}

/** Voices of the OpenAI node: text, then pt-BR neural voices (document 3 section 3). */
export const OPENAI_VOICES = [
  'texto',
  'pt-BR-FranciscaNeural',
  'pt-BR-AntonioNeural',
  'pt-BR-BrendaNeural',
  'pt-BR-DonatoNeural',
  'pt-BR-ElzaNeural',
  'pt-BR-FabioNeural',
  'pt-BR-GiovannaNeural',
  'pt-BR-HumbertoNeural',
  'pt-BR-JulioNeural',
  'pt-BR-LeilaNeural',
  'pt-BR-LeticiaNeural',
  'pt-BR-ManuelaNeural',
  'pt-BR-NicolauNeural',
  'pt-BR-ValerioNeural',
  'pt-BR-YaraNeural',
] as const;

/** An OpenAI node's integration with its defaults (document 3 sections 3 and 9). */
export interface OpenAiData {
  name: string;
  prompt: string;
  voice: string;
  voiceKey: string;
  voiceRegion: string;
  maxTokens: number;
  temperature: number;
  apiKey: string;
  queueId: number | null;
  maxMessages: number;
}

export const OPENAI_DEFAULTS = {
  voice: 'texto',
  maxTokens: 100,
  temperature: 1,
  maxMessages: 10,
  queueId: null,
} as const;

/** A question node's integration: the message and the variable that keeps the answer. */
export interface QuestionData {
  message: string;
  answerKey: string;
}

/** A menu option: its number (1, 2, ...) and text. */
export interface MenuOption {
  number: number;
  value: string;
}

/** One element of a content (singleBlock) node. */
export interface ContentElement {
  type: 'message' | 'interval' | 'img' | 'audio' | 'video';
  /** The element's id in `seq`: message1, interval2, img1... */
  number: string;
  /** The text, the seconds, or the stored file name. */
  value: string;
  /** The uploaded file's original name. */
  original?: string;
  /** Audio recorded on the spot (default true as the spec says). */
  record?: boolean;
}

/** The messages of the spec's validation, as keys of the `flows.validation` locale section. */
export const FLOW_MESSAGES = {
  nameRequired: 'nameRequired',
  tooShort: 'tooShort',
  tooLong: 'tooLong',
  interval: 'interval',
  intervalMax: 'intervalMax',
  emptyMessage: 'emptyMessage',
  emptyCards: 'emptyCards',
  queue: 'queue',
  required: 'required',
} as const;

const required = (max: number) =>
  z.string().trim().min(1, FLOW_MESSAGES.required).max(max, FLOW_MESSAGES.tooLong);

/** Flow name: required ('Digite um nome!'), 2 to 50 characters (document 3 section 5). */
export const ZFlowNameForm = z.object({
  name: z
    .string()
    .trim()
    .min(1, FLOW_MESSAGES.nameRequired)
    .min(2, FLOW_MESSAGES.tooShort)
    .max(50, FLOW_MESSAGES.tooLong),
});

/** Flow campaign: name, flow, phrase non-empty and a connection chosen (document 3 section 5). */
export const ZFlowCampaignForm = z.object({
  name: required(255),
  flowId: z.number({ error: FLOW_MESSAGES.required }).int().positive(FLOW_MESSAGES.required),
  whatsappId: z.number({ error: FLOW_MESSAGES.required }).int().positive(FLOW_MESSAGES.required),
  phrase: required(255),
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
  urlN8N: required(2000),
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
  message: required(4000),
  answerKey: required(100),
});
