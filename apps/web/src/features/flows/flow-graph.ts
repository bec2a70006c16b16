/**
 * The flow editor's pure logic (document 3 sections 3, 4 and 9): node ids, placement of new and
 * duplicated nodes, the stored graph <-> React Flow mapping, highlight, deletion, content
 * validation, upload limits and the question variables list. No React, no React Flow import (its
 * types only), so it is unit-tested alone.
 */

import type { Edge, Node } from '@xyflow/react';
import type { FlowGraphProblem } from '@zapdesk/shared';
import {
  type ContentElement,
  FLOW_LIMITS,
  FLOW_MESSAGES,
  type FlowConnection,
  type FlowNode,
  type FlowNodeType,
  flowSourceHandles,
  START_NODE_ID,
  START_NODE_LABEL,
} from './flow-types';

/** A node as the editor holds it: React Flow's node with the stored data. */
export type EditorNode = Node<Record<string, unknown>, FlowNodeType>;
export type EditorEdge = Edge;

/** Width assumed for a node React Flow has not measured yet, in px. */
export const DEFAULT_NODE_WIDTH = 220;
/** Where the first node goes on an empty canvas. */
export const FIRST_NODE_POSITION = { x: 100, y: 100 } as const;
/** Keys that remove the selected nodes or edges. */
export const DELETE_KEYS = ['Delete', 'Backspace'] as const;

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random alphanumeric node id of 30 characters (document 3 section 3). */
export function randomNodeId(length: number = FLOW_LIMITS.nodeIdLength): string {
  const bytes = new Uint8Array(length);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => ID_ALPHABET[b % ID_ALPHABET.length]).join('');
}

/** True when `key` (a KeyboardEvent.key) removes the selection. */
export function isDeleteKey(key: string): boolean {
  return (DELETE_KEYS as readonly string[]).includes(key);
}

/** The width of a node: measured by React Flow, else given, else (unmeasured or 0) DEFAULT_NODE_WIDTH. */
export function nodeWidth(node: { measured?: { width?: number }; width?: number | null }): number {
  return node.measured?.width || node.width || DEFAULT_NODE_WIDTH;
}

/**
 * Where a new node goes (document 3 section 4): right of the last node (its x plus its width plus
 * 40) at its y; FIRST_NODE_POSITION on an empty canvas.
 */
export function nextNodePosition(nodes: readonly EditorNode[]): { x: number; y: number } {
  const last = nodes[nodes.length - 1];
  if (!last) return { ...FIRST_NODE_POSITION };
  return { x: last.position.x + nodeWidth(last) + FLOW_LIMITS.newNodeSpacing, y: last.position.y };
}

/** Where a duplicate goes: 240 right of the rightmost node, at the original's y. */
export function duplicatePosition(
  nodes: readonly EditorNode[],
  original: EditorNode,
): { x: number; y: number } {
  const maxX = Math.max(...nodes.map((n) => n.position.x), original.position.x);
  return { x: maxX + FLOW_LIMITS.duplicateOffset, y: original.position.y };
}

/** The start node (id '1', label 'Inicio do fluxo'). */
export function startNode(position: { x: number; y: number } = FIRST_NODE_POSITION): EditorNode {
  return { id: START_NODE_ID, type: 'start', position, data: { label: START_NODE_LABEL }, deletable: false };
}

/** A new node of `type` with `data`, placed after the last node. */
export function createNode(
  nodes: readonly EditorNode[],
  type: FlowNodeType,
  data: Record<string, unknown>,
): EditorNode {
  return { id: randomNodeId(), type, position: nextNodePosition(nodes), data };
}

/** Appends a copy of node `id` (new id, copied data) 240 right of the rightmost node; the start node is not copied. */
export function duplicateNode(nodes: readonly EditorNode[], id: string): EditorNode[] {
  const original = nodes.find((n) => n.id === id);
  if (!original || original.id === START_NODE_ID) return [...nodes];
  const copy: EditorNode = {
    id: randomNodeId(),
    type: original.type,
    position: duplicatePosition(nodes, original),
    data: structuredClone(original.data),
  };
  return [...nodes, copy];
}

/** Removes node `id` and the edges touching it; the start node stays. */
export function removeNode(
  nodes: readonly EditorNode[],
  edges: readonly EditorEdge[],
  id: string,
): { nodes: EditorNode[]; edges: EditorEdge[] } {
  if (id === START_NODE_ID) return { nodes: [...nodes], edges: [...edges] };
  return {
    nodes: nodes.filter((n) => n.id !== id),
    edges: edges.filter((e) => e.source !== id && e.target !== id),
  };
}

/**
 * Removes the selected nodes (but the start node), the selected edges and the edges of removed
 * nodes: what Delete and Backspace do.
 */
export function removeSelected(
  nodes: readonly EditorNode[],
  edges: readonly EditorEdge[],
): { nodes: EditorNode[]; edges: EditorEdge[] } {
  const removed = new Set(nodes.filter((n) => n.selected && n.id !== START_NODE_ID).map((n) => n.id));
  return {
    nodes: nodes.filter((n) => !removed.has(n.id)),
    edges: edges.filter((e) => !e.selected && !removed.has(e.source) && !removed.has(e.target)),
  };
}

/**
 * Adds the edge a user drew; an output handle leads to one node, so an edge already leaving the
 * same handle is replaced (the server refuses two, `handleInUse`). Self-loops are ignored.
 */
export function connectEdge(
  edges: readonly EditorEdge[],
  connection: { source: string; target: string; sourceHandle?: string | null; targetHandle?: string | null },
): EditorEdge[] {
  if (connection.source === connection.target) return [...edges];
  const handle = connection.sourceHandle ?? null;
  const kept = edges.filter((e) => !(e.source === connection.source && (e.sourceHandle ?? null) === handle));
  return [
    ...kept,
    {
      id: `e-${randomNodeId(16)}`,
      source: connection.source,
      target: connection.target,
      ...(connection.sourceHandle ? { sourceHandle: connection.sourceHandle } : {}),
      ...(connection.targetHandle ? { targetHandle: connection.targetHandle } : {}),
    },
  ];
}

/** Replaces node `id`'s data (an edit dialog's save). */
export function replaceNodeData(
  nodes: readonly EditorNode[],
  id: string,
  data: Record<string, unknown>,
): EditorNode[] {
  return nodes.map((n) => (n.id === id ? { ...n, data } : n));
}

/** Class name React Flow puts on the highlighted node's wrapper. */
export const HIGHLIGHT_CLASS = 'flow-node-highlighted';

/** Class of the node a test run executes or waits on (a green dashed outline, apart from the blue). */
export const RUN_CLASS = 'flow-node-running';

/**
 * The nodes to draw with node `runNodeId` (the test run's node) marked by RUN_CLASS next to its own
 * class; the others unchanged. The editor's state keeps its nodes unmarked.
 */
export function markRunNode(nodes: EditorNode[], runNodeId: string | null): EditorNode[] {
  if (runNodeId === null) return nodes;
  return nodes.map((n) =>
    n.id === runNodeId ? { ...n, className: [n.className, RUN_CLASS].filter(Boolean).join(' ') } : n,
  );
}

/** Highlights node `id` (blue) and resets every other; `null` (an edge was clicked) resets all. */
export function highlightNodes(nodes: readonly EditorNode[], id: string | null): EditorNode[] {
  return nodes.map((n) => {
    const highlighted = n.id === id;
    if ((n.className === HIGHLIGHT_CLASS) === highlighted) return n;
    const { className: _drop, ...rest } = n;
    return highlighted ? { ...rest, className: HIGHLIGHT_CLASS } : rest;
  });
}

/**
 * The source handles of a node, as the server names them (`flowSourceHandles`): one per menu option
 * (`a1`, `a2`...), `a`/`b` for randomizer and condition, none for ticket, else `a`.
 */
export function sourceHandlesOf(type: FlowNodeType, data: Record<string, unknown>): string[] {
  return flowSourceHandles({ type, data });
}

/** The stored graph as React Flow nodes and edges (the start node cannot be deleted). */
export function toEditor(graph: { nodes: FlowNode[]; connections: FlowConnection[] } | null): {
  nodes: EditorNode[];
  edges: EditorEdge[];
} {
  if (!graph || graph.nodes.length === 0) return { nodes: [startNode()], edges: [] };
  const nodes = graph.nodes.map(
    (n): EditorNode => ({
      id: n.id,
      type: n.type,
      position: { x: n.position.x, y: n.position.y },
      data: n.data ?? {},
      ...(n.id === START_NODE_ID ? { deletable: false } : {}),
    }),
  );
  const edges = graph.connections.map(
    (c): EditorEdge => ({
      id: c.id,
      source: c.source,
      target: c.target,
      ...(c.sourceHandle ? { sourceHandle: c.sourceHandle } : {}),
      ...(c.targetHandle ? { targetHandle: c.targetHandle } : {}),
    }),
  );
  return { nodes, edges };
}

/** The editor's nodes and edges as the stored graph (no highlight, selection or measures). */
export function fromEditor(
  nodes: readonly EditorNode[],
  edges: readonly EditorEdge[],
): { nodes: FlowNode[]; connections: FlowConnection[] } {
  return {
    nodes: nodes.map((n) => ({
      id: n.id,
      type: n.type as FlowNodeType,
      position: { x: Math.round(n.position.x), y: Math.round(n.position.y) },
      data: n.data,
    })),
    connections: edges.map((e) => ({
      id: e.id,
      source: e.source,
      target: e.target,
      sourceHandle: e.sourceHandle ?? null,
      targetHandle: e.targetHandle ?? null,
    })),
  };
}

/** The next id of a content element of `type` in `seq` (message1, message2, img1...). */
export function nextElementNumber(elements: readonly ContentElement[], type: ContentElement['type']): string {
  const used = elements.filter((e) => e.type === type).map((e) => Number(e.number.slice(type.length)) || 0);
  return `${type}${Math.max(0, ...used) + 1}`;
}

/**
 * The first problem of a content node's elements (document 3 section 5), as a FLOW_MESSAGES key:
 * an empty text, an interval of 0 or over 120 s, an empty media card; null when it may be saved.
 */
export function contentProblem(elements: readonly ContentElement[]): string | null {
  for (const element of elements) {
    if (element.type === 'message' && element.value.trim() === '') return FLOW_MESSAGES.emptyMessage;
    if (element.type === 'interval') {
      const sec = Number(element.value);
      if (!Number.isFinite(sec) || sec <= 0) return FLOW_MESSAGES.interval;
      if (sec > FLOW_LIMITS.intervalMaxSec) return FLOW_MESSAGES.intervalMax;
    }
    if ((element.type === 'img' || element.type === 'audio' || element.type === 'video') && !element.value)
      return FLOW_MESSAGES.emptyCards;
  }
  return null;
}

/** The content node data of elements: `seq` in order and the elements (document 3 section 3). */
export function contentData(elements: readonly ContentElement[]): Record<string, unknown> {
  return { seq: elements.map((e) => e.number), elements: elements.map((e) => ({ ...e })) };
}

/** The elements of a content node's data, in `seq` order. */
export function contentElements(data: Record<string, unknown>): ContentElement[] {
  const elements = (data.elements as ContentElement[] | undefined) ?? [];
  const seq = (data.seq as string[] | undefined) ?? elements.map((e) => e.number);
  const byNumber = new Map(elements.map((e) => [e.number, e]));
  return seq.flatMap((number) => {
    const element = byNumber.get(number);
    if (!element) return [];
    const type = (element.type ?? number.replace(/\d+$/, '')) as ContentElement['type'];
    return [{ ...element, type, value: String(element.value ?? '') }];
  });
}

/** Upload limits and accepted types per media kind (document 3 section 5). */
export const UPLOAD_RULES = {
  img: {
    maxBytes: FLOW_LIMITS.imageMaxBytes,
    extensions: ['png', 'jpg', 'jpeg'],
    accept: 'image/png,image/jpeg',
  },
  audio: {
    maxBytes: FLOW_LIMITS.audioMaxBytes,
    extensions: ['ogg', 'mp3', 'opus'],
    accept: '.ogg,.mp3,.opus,audio/ogg,audio/mpeg,audio/opus',
  },
  video: { maxBytes: FLOW_LIMITS.videoMaxBytes, extensions: ['mp4'], accept: 'video/mp4,.mp4' },
} as const;

/**
 * Why `file` cannot be uploaded as `kind`: `{ tooLarge: N }` (N MB maximum, the spec's message),
 * `{ type: true }` for another extension, null when it fits.
 */
export function uploadProblem(
  kind: keyof typeof UPLOAD_RULES,
  file: { name: string; size: number },
): { tooLarge: number } | { type: true } | null {
  const rule = UPLOAD_RULES[kind];
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!(rule.extensions as readonly string[]).includes(extension)) return { type: true };
  if (file.size > rule.maxBytes) return { tooLarge: rule.maxBytes / (1024 * 1024) };
  return null;
}

/** The node (by id) and the locale key of a graph problem, for the editor's message and highlight. */
export function describeProblem(
  problem: FlowGraphProblem,
  nodes: readonly EditorNode[],
): { nodeId: string | null; nodeType: FlowNodeType | null; reason: string; field: string | undefined } {
  const node = problem.node ? nodes.find((n) => n.id === problem.node) : undefined;
  return {
    nodeId: node?.id ?? null,
    nodeType: (node?.type as FlowNodeType | undefined) ?? null,
    reason: problem.reason,
    field: problem.field,
  };
}

/** Local storage key of the question variables (document 3 section 3). */
export const VARIABLES_KEY = 'variables';

/** The stored question variable names. */
export function readVariables(storage: Storage = localStorage): string[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(VARIABLES_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * The variables after a question node is saved (document 3 section 4): creating adds `next`
 * (replacing a duplicate); editing removes the node's old variable `previous` and adds `next`.
 */
export function updateVariables(list: readonly string[], next: string, previous?: string): string[] {
  const kept = list.filter((v) => v !== next && (previous === undefined || v !== previous));
  return [...kept, next];
}

/** Stores the question variable names. */
export function writeVariables(list: readonly string[], storage: Storage = localStorage): void {
  storage.setItem(VARIABLES_KEY, JSON.stringify(list));
}
