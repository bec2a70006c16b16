/**
 * Shapes of the flow builder screens (document 3 sections 3, 5 and 9), as the web client reads and
 * sends them. The request/response contract lives in packages/shared (schemas/flows.ts); these are the
 * editor's own types and constants (the dialogs' form schemas are in flow-forms.ts, so that the
 * pages load zod only with a dialog).
 */

import { FLOW_LIMITS, type FlowNodeType } from '@zapdesk/shared';

export {
  FLOW_LIMITS,
  FLOW_NODE_TYPES,
  FLOW_OPENAI_VOICES,
  type Flow,
  type FlowCampaign,
  type FlowCampaignsPage,
  type FlowConnection,
  type FlowNode,
  type FlowNodeType,
  type FlowsPage,
  type FlowWithGraph,
  flowSourceHandles,
} from '@zapdesk/shared';

/** The editor's delays (document 3 sections 4 and 9), in ms: graph load after opening, dialog submit. */
export const FLOW_EDITOR_DELAYS = { loadMs: 500, dialogSubmitMs: 400 } as const;

/** Width of the editor's test panel ('Testar fluxo'), in px. */
export const FLOW_TEST_PANEL_WIDTH = 380;

/** Id and label of the start node (document 3 section 3). */
export const START_NODE_ID = FLOW_LIMITS.startNodeId;
export const START_NODE_LABEL = FLOW_LIMITS.startLabel;

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

/** Node types that have a create/edit dialog: every creatable one but the start. */
export const TYPES_WITH_DIALOG: readonly FlowNodeType[] = CREATABLE_NODE_TYPES.filter(
  (type) => type !== 'start',
);

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
  invalid: 'invalid',
} as const;

/**
 * Whether a user may change flows and flow campaigns: the server takes their writes from an admin or
 * a super user only (403 ERR_NO_PERMISSION otherwise); the `cshow` flag opens the screens to others
 * for reading, so their write controls stay hidden.
 */
export function canEditFlows(user: { profile: string; super: boolean }): boolean {
  return user.profile === 'admin' || user.super;
}
