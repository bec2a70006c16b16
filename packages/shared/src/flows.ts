/**
 * Flow limits, node types and output handles (document 3 sections 3 and 9). No zod here, so the
 * flow editor loads no schema code until a dialog opens or the graph is saved (docs/web.md,
 * "Web delivery"); the graph and request schemas are in schemas/flows.ts.
 */

/** Flow limits (document 3 section 9). Sizes in bytes, times in seconds. */
export const FLOW_LIMITS = {
  /** Length of a generated node id; the start node's id is '1'. */
  nodeIdLength: 30,
  startNodeId: '1',
  startLabel: 'Inicio do fluxo',
  /** Horizontal gap after the last node for a new node, and the offset of a duplicate. */
  newNodeSpacing: 40,
  duplicateOffset: 240,
  intervalMinSec: 1,
  intervalMaxSec: 120,
  randomizerStep: 10,
  imageMaxBytes: 2 * 1024 * 1024,
  audioMaxBytes: 5 * 1024 * 1024,
  videoMaxBytes: 20 * 1024 * 1024,
  imageQuality: 0.7,
  /** Most nodes and connections a graph may hold. */
  maxNodes: 500,
  maxConnections: 2000,
  /** Most options of a menu node and elements of a content node. */
  maxMenuOptions: 50,
  maxContentElements: 100,
  nameMin: 2,
  nameMax: 50,
} as const;

/** Upload kinds (document 3 section 5 "Uploads"): extensions and MIME types each endpoint accepts. */
export const FLOW_UPLOAD_TYPES = {
  img: { extensions: ['png', 'jpg', 'jpeg'], mimeTypes: ['image/png', 'image/jpeg'] },
  audio: {
    extensions: ['ogg', 'mp3', 'opus', 'mp4'],
    mimeTypes: ['audio/ogg', 'audio/mpeg', 'audio/mp3', 'audio/opus', 'video/mp4'],
  },
} as const;

/** Node types of the spec's table (document 3 section 3 "Flow node"). `start` is the 'Inicio' node. */
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

/** Node types that wait for the customer or the clock; a cycle must pass through one of them. */
export const FLOW_WAITING_NODE_TYPES: readonly FlowNodeType[] = ['menu', 'question', 'interval'];

/** Comparisons of a condition node: the variable `key` against `value` (texts compared without case). */
export const FLOW_CONDITION_OPERATORS = [
  'equals',
  'notEquals',
  'contains',
  'greaterThan',
  'lessThan',
] as const;

/** OpenAI voices (document 3 section 3): 'texto' answers in text, the others are pt-BR neural voices. */
export const FLOW_OPENAI_VOICES = [
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

/**
 * The output handles of a node: 'a' for nodes with one output; `a{number}` per menu option;
 * 'a' (percent) and 'b' (the rest) for a randomizer; 'a' (true) and 'b' (false) for a condition;
 * none for a ticket node (the flow ends in the queue).
 */
export function flowSourceHandles(node: { type: FlowNodeType; data: Record<string, unknown> }): string[] {
  switch (node.type) {
    case 'menu': {
      const options = Array.isArray(node.data.arrayOption) ? node.data.arrayOption : [];
      return options.map((option) => `a${(option as { number?: unknown }).number}`);
    }
    case 'randomizer':
    case 'condition':
      return ['a', 'b'];
    case 'ticket':
      return [];
    default:
      return ['a'];
  }
}
