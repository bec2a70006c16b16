import { z } from 'zod';
import {
  FLOW_CONDITION_OPERATORS,
  FLOW_LIMITS,
  FLOW_NODE_TYPES,
  FLOW_OPENAI_VOICES,
  type FlowNodeType,
} from '../flows.js';
import { pageOf, timestampFields, ZNamedRef } from './answers.js';
import { boundedString, V, ZCoercedId, ZId, ZPageQuery } from './common.js';

/**
 * Flow builder and flow campaigns (document 3 sections 2–9). A flow is a graph of nodes
 * joined by connections (React Flow edges). The graph is stored as the editor draws it and is
 * validated on save (`POST /flowbuilder/flow`) by the server (see `flowGraphProblem` on the server).
 */

/** A variable name of a question node (`{{name}}` placeholders): letters, digits and '_'. */
export const ZFlowVariableName = z
  .string({ error: V.required })
  .trim()
  .min(1, V.required)
  .max(50, V.tooLong)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, V.invalid);

/** A stored upload name answered by POST /flowbuilder/img|audio|content (or a URL). */
const ZMediaName = z.string({ error: V.required }).trim().min(1, V.required).max(500, V.tooLong);

/** Text of a message (WhatsApp's 4096-character limit). */
const ZMessageText = z.string({ error: V.required }).trim().min(1, V.required).max(4096, V.tooLong);

const ZIntervalSec = z.coerce
  .number({ error: V.required })
  .int(V.invalid)
  .min(FLOW_LIMITS.intervalMinSec, V.required)
  .max(FLOW_LIMITS.intervalMaxSec, V.tooLong);

export const ZFlowStartData = z.object({ label: z.string().max(100).default(FLOW_LIMITS.startLabel) });
export const ZFlowMessageData = z.object({ label: ZMessageText });
/** Interval node: waits `sec` seconds (1..120, 'Adicione o valor de intervalo'). */
export const ZFlowIntervalData = z.object({ label: z.string().max(100).optional(), sec: ZIntervalSec });
export const ZFlowConditionData = z.object({
  key: ZFlowVariableName,
  condition: z.enum(FLOW_CONDITION_OPERATORS),
  value: z.string().max(1000, V.tooLong),
});
/** A menu option: the number the customer answers and its text. Handle id `a{number}`. */
export const ZFlowMenuOption = z.object({
  number: z.number().int().min(1).max(999),
  value: z.string({ error: V.required }).trim().min(1, V.required).max(200, V.tooLong),
});
export const ZFlowMenuData = z.object({
  message: ZMessageText,
  arrayOption: z.array(ZFlowMenuOption).min(1, V.required).max(FLOW_LIMITS.maxMenuOptions, V.tooLong),
});
export const ZFlowImgData = z.object({ url: ZMediaName });
/** Audio node: `record` says it was recorded on the spot (sent as a voice note), default true. */
export const ZFlowAudioData = z.object({ url: ZMediaName, record: z.boolean().default(true) });
export const ZFlowVideoData = z.object({ url: ZMediaName });
/** Randomizer: `percent` (0..100, steps of 10) goes to handle 'a', the rest to handle 'b'. */
export const ZFlowRandomizerData = z.object({
  percent: z
    .number()
    .int()
    .min(0)
    .max(100)
    .refine((value) => value % FLOW_LIMITS.randomizerStep === 0, V.invalid),
});

/** Kinds of a content node's elements; an element's `number` is the kind plus a counter ('img2'). */
export const FLOW_CONTENT_KINDS = ['message', 'interval', 'img', 'audio', 'video'] as const;
export type FlowContentKind = (typeof FLOW_CONTENT_KINDS)[number];

/**
 * One element of a content node: `number` names it ('message1', 'interval2'), `value` is the text,
 * the seconds of an interval (1..120) or the stored media name; `original` the uploaded file's
 * name; `record` whether an audio is a voice note.
 */
export const ZFlowContentElement = z.object({
  number: z
    .string()
    .max(30)
    .regex(/^(message|interval|img|audio|video)\d{1,6}$/, V.invalid),
  type: z.enum(FLOW_CONTENT_KINDS).optional(),
  value: z.string().max(4096, V.tooLong),
  original: z.string().max(500).optional(),
  record: z.boolean().optional(),
});
export type FlowContentElement = z.infer<typeof ZFlowContentElement>;

/** The kind of a content element, from its `number` ('audio3' → 'audio'). */
export function flowContentKind(element: Pick<FlowContentElement, 'number'>): FlowContentKind {
  return element.number.replace(/\d+$/, '') as FlowContentKind;
}

/**
 * Content node ('Conteudo', type singleBlock): `seq` orders the element numbers; every element is
 * non-empty ('Campos de mensagem vazio!', 'Delete os cards vazios(Imagem, Audio e Video)') and an
 * interval is 1..120 seconds.
 */
export const ZFlowSingleBlockData = z
  .object({
    seq: z.array(z.string().max(30)).max(FLOW_LIMITS.maxContentElements),
    elements: z.array(ZFlowContentElement).min(1, V.required).max(FLOW_LIMITS.maxContentElements),
  })
  .superRefine((data, issue) => {
    const numbers = new Set(data.elements.map((element) => element.number));
    if (numbers.size !== data.elements.length)
      issue.addIssue({ code: 'custom', message: V.invalid, path: ['elements'] });
    data.seq.forEach((number, index) => {
      if (!numbers.has(number)) issue.addIssue({ code: 'custom', message: V.invalid, path: ['seq', index] });
    });
    data.elements.forEach((element, index) => {
      const kind = flowContentKind(element);
      if (kind === 'interval') {
        const sec = Number(element.value);
        if (!Number.isInteger(sec) || sec < FLOW_LIMITS.intervalMinSec || sec > FLOW_LIMITS.intervalMaxSec)
          issue.addIssue({ code: 'custom', message: V.invalid, path: ['elements', index, 'value'] });
      } else if (element.value.trim() === '') {
        issue.addIssue({ code: 'custom', message: V.required, path: ['elements', index, 'value'] });
      }
    });
  });
export type FlowSingleBlockData = z.infer<typeof ZFlowSingleBlockData>;

/** Ticket node ('Adicione uma fila'): `data` holds the chosen queue (its id, and name/color as shown). */
export const ZFlowTicketData = z.object({
  data: z.object({
    id: ZId,
    name: z.string().max(200).optional(),
    color: z.string().max(30).optional(),
  }),
});

/** Typebot node: the integration's fields inline (document 3 section 3 "Typebot integration"). */
export const ZFlowTypebotIntegration = z.object({
  name: boundedString(1, 100),
  projectName: z.string().max(200).optional(),
  urlN8N: z
    .string({ error: V.required })
    .trim()
    .min(1, V.required)
    .max(2000, V.tooLong)
    .regex(/^https?:\/\/\S+$/i, V.invalid),
  typebotSlug: boundedString(1, 200),
  typebotExpires: z.number().int().min(0).max(10_080).default(1),
  typebotDelayMessage: z.number().int().min(0).max(60_000).default(1000),
  typebotKeywordFinish: z.string().max(100).default(''),
  typebotKeywordRestart: z.string().max(100).default(''),
  typebotUnknownMessage: z.string().max(4000).default(''),
  typebotRestartMessage: z.string().max(4000).default(''),
});
export const ZFlowTypebotData = z.object({ typebotIntegration: ZFlowTypebotIntegration });

/**
 * OpenAI node: the prompt's fields inline, defaults of section 9. The API key is stored encrypted
 * and answered masked; saving the masked value again keeps the stored key.
 */
export const ZFlowOpenAiIntegration = z.object({
  name: boundedString(1, 100),
  prompt: boundedString(1, 20_000),
  voice: z.enum(FLOW_OPENAI_VOICES).default('texto'),
  voiceKey: z.string().max(500).default(''),
  voiceRegion: z.string().max(100).default(''),
  maxTokens: z.number().int().min(1).max(32_000).default(100),
  temperature: z.number().min(0).max(2).default(1),
  apiKey: boundedString(1, 500),
  queueId: ZId.nullable().default(null),
  maxMessages: z.number().int().min(1).max(100).default(10),
  model: z.string().max(100).optional(),
});
export const ZFlowOpenAiData = z.object({ typebotIntegration: ZFlowOpenAiIntegration });

/** Question node ('Adicionar Perguta ao fluxo'): asks `message`, keeps the answer as `{{answerKey}}`. */
export const ZFlowQuestionIntegration = z.object({ message: ZMessageText, answerKey: ZFlowVariableName });
export const ZFlowQuestionData = z.object({ typebotIntegration: ZFlowQuestionIntegration });

/** The data schema of each node type. */
export const FLOW_NODE_DATA = {
  start: ZFlowStartData,
  message: ZFlowMessageData,
  interval: ZFlowIntervalData,
  condition: ZFlowConditionData,
  menu: ZFlowMenuData,
  img: ZFlowImgData,
  audio: ZFlowAudioData,
  video: ZFlowVideoData,
  randomizer: ZFlowRandomizerData,
  singleBlock: ZFlowSingleBlockData,
  ticket: ZFlowTicketData,
  typebot: ZFlowTypebotData,
  openai: ZFlowOpenAiData,
  question: ZFlowQuestionData,
} as const satisfies Record<FlowNodeType, z.ZodType>;

/** Node ids: '1' for the start node, otherwise 1..64 letters, digits, '_' or '-' (30 when generated). */
export const ZFlowNodeId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, V.invalid);

const ZCoordinate = z.number().finite().min(-1_000_000).max(1_000_000);

/** A node of the stored graph: id, position, type and its data (checked against FLOW_NODE_DATA on save). */
export const ZFlowNode = z.object({
  id: ZFlowNodeId,
  type: z.enum(FLOW_NODE_TYPES),
  position: z.object({ x: ZCoordinate, y: ZCoordinate }),
  data: z.record(z.string().max(100), z.unknown()),
  width: z.number().finite().min(0).max(100_000).nullish(),
  height: z.number().finite().min(0).max(100_000).nullish(),
});
export type FlowNode = z.infer<typeof ZFlowNode>;

/** A node with its data typed by its type. */
export type TypedFlowNode = {
  [K in FlowNodeType]: Omit<FlowNode, 'type' | 'data'> & {
    type: K;
    data: z.infer<(typeof FLOW_NODE_DATA)[K]>;
  };
}[FlowNodeType];

/**
 * A connection (React Flow edge): from `source` at its `sourceHandle` to `target`. Handles are
 * named by `flowSourceHandles`; a null sourceHandle means 'a' on a node with one output.
 */
export const ZFlowConnection = z.object({
  id: z.string().min(1).max(200),
  source: ZFlowNodeId,
  sourceHandle: z.string().max(20).nullish(),
  target: ZFlowNodeId,
  targetHandle: z.string().max(20).nullish(),
  type: z.string().max(50).optional(),
  animated: z.boolean().optional(),
  style: z.record(z.string().max(50), z.union([z.string().max(200), z.number().finite()])).optional(),
});
export type FlowConnection = z.infer<typeof ZFlowConnection>;

/** The stored graph: nodes and connections. */
export const ZFlowGraph = z.object({
  nodes: z.array(ZFlowNode).max(FLOW_LIMITS.maxNodes),
  connections: z.array(ZFlowConnection).max(FLOW_LIMITS.maxConnections),
});
export type FlowGraph = z.infer<typeof ZFlowGraph>;

/** The flow name rules (document 3 section 5): 2..50 characters, required. */
export const ZFlowName = boundedString(FLOW_LIMITS.nameMin, FLOW_LIMITS.nameMax);

/** A flow as the list answers it. `broken` flags a graph referencing a deleted queue. */
export const ZFlow = z.object({
  id: z.number(),
  name: z.string(),
  active: z.boolean(),
  broken: z.boolean(),
  ...timestampFields,
});
export type Flow = z.infer<typeof ZFlow>;

/** GET /flowbuilder: a page of 20 flows by name and whether more follow. */
export const ZFlowsPage = pageOf('flows', ZFlow);
export type FlowsPage = z.infer<typeof ZFlowsPage>;

/** POST /flowbuilder body. */
export const ZFlowCreateBody = z.object({ name: ZFlowName });
export type FlowCreateBody = z.input<typeof ZFlowCreateBody>;

/** PUT /flowbuilder body: the flow's id and its new name and/or active state. */
export const ZFlowUpdateBody = z.object({ flowId: ZId, name: ZFlowName, active: z.boolean() });
export type FlowUpdateBody = z.input<typeof ZFlowUpdateBody>;

/** POST /flowbuilder/duplicate body. */
export const ZFlowDuplicateBody = z.object({ flowId: ZId });

/** POST /flowbuilder/flow body: the graph to save for flow `idFlow`. */
export const ZFlowSaveBody = ZFlowGraph.extend({ idFlow: ZId });
export type FlowSaveBody = z.input<typeof ZFlowSaveBody>;

/** GET /flowbuilder/flow/:id answer: `flow.flow` is the graph, null when nothing was saved. */
export const ZFlowWithGraph = z.object({
  flow: ZFlow.extend({ flow: ZFlowGraph.nullable() }),
});
export type FlowWithGraph = z.infer<typeof ZFlowWithGraph>;

/** POST /flowbuilder/img|audio|content answer: the stored names (one per uploaded file). */
export const ZFlowUploadAnswer = z.array(z.string());

/** A flow campaign (document 3 section 3): a trigger phrase on a connection that starts a flow. */
export const ZFlowCampaign = z.object({
  id: z.number(),
  name: z.string(),
  flowId: z.number(),
  whatsappId: z.number(),
  phrase: z.string(),
  status: z.boolean(),
  flow: ZNamedRef.nullable(),
  whatsapp: ZNamedRef.nullable(),
  ...timestampFields,
});
export type FlowCampaign = z.infer<typeof ZFlowCampaign>;

/** GET /flowcampaign: the company's flow campaigns by name (`flow`), paged by 20. */
export const ZFlowCampaignsPage = pageOf('flow', ZFlowCampaign);
export type FlowCampaignsPage = z.infer<typeof ZFlowCampaignsPage>;

/**
 * POST /flowcampaign body (document 3 section 5): name, flow and phrase non-empty, a connection
 * chosen. The phrase matches case- and accent-insensitively.
 */
export const ZFlowCampaignBody = z.object({
  name: boundedString(1, 100),
  flowId: ZId,
  whatsappId: ZId,
  phrase: boundedString(1, 200),
  status: z.boolean().default(true),
});
export type FlowCampaignBody = z.input<typeof ZFlowCampaignBody>;

/** PUT /flowcampaign body: `id` and any subset of the fields. */
export const ZFlowCampaignUpdateBody = ZFlowCampaignBody.partial().extend({ id: ZId });
export type FlowCampaignUpdateBody = z.input<typeof ZFlowCampaignUpdateBody>;

/** GET /flowcampaign query. */
export const ZFlowCampaignsQuery = z.object({
  ...ZPageQuery.shape,
  flowId: ZCoercedId.optional(),
});

/**
 * GET /tickets/:id/flow-run: the flow a ticket's conversation is in and the node it
 * executes next or waits on; the answer is null when the ticket has no live run.
 */
export const ZTicketFlowRun = z
  .object({
    flowId: ZId,
    flowName: z.string(),
    nodeId: z.string(),
    /** The node's type, null when the node is no longer in the saved graph. */
    nodeType: z.enum(FLOW_NODE_TYPES).nullable(),
    status: z.enum(['running', 'waitingInput', 'waitingUntil']),
  })
  .nullable();
export type TicketFlowRun = z.infer<typeof ZTicketFlowRun>;

/** The phone a flow test run talks to unless the user types another (digits, with country code). */
export const FLOW_TEST_DEFAULT_NUMBER = '5511900000000';

/**
 * POST /flowbuilder/:id/test body ("test this flow"): the company's simulator
 * connection and the simulated phone (8 to 20 digits; other characters are dropped) the run talks to.
 */
export const ZFlowTestBody = z.object({
  whatsappId: ZId,
  number: z
    .string()
    .max(40)
    .transform((v) => v.replace(/\D/g, ''))
    .pipe(z.string().min(8, 'tooShort').max(20, 'tooLong')),
});
export type FlowTestBody = z.input<typeof ZFlowTestBody>;

/**
 * POST /flowbuilder/:id/test answer: the test phone's ticket the run started on, its contact, and
 * the ticket's newest message id before the run (messages after it belong to this run; 0 if none).
 */
export const ZFlowTestRun = z.object({
  ticketId: ZId,
  contactId: ZId,
  sinceMessageId: z.number().int().nonnegative(),
});
export type FlowTestRun = z.infer<typeof ZFlowTestRun>;
