import {
  connectionHandle,
  type FlowGraph,
  flowContentKind,
  flowSourceHandles,
  type MediaType,
  type TypedFlowNode,
} from '@zapdesk/shared';
import type { flowRuns } from '../../db/schema/index.js';
import type { TicketWithContactName } from '../bots/bot-ticket.js';
import { fillVariables } from '../message-variables.js';
import { menuOf } from '../queue-bot.js';
import { fillFlowVariables, normalizeText } from './flow-text.js';

/**
 * What executing a flow node does (the engine in flow-engine.ts stores it): pure
 * functions of the graph, the run and the ticket.
 */

export type RunRow = typeof flowRuns.$inferSelect;
export type TicketRow = TicketWithContactName;
export interface OutRow {
  body: string;
  mediaType: MediaType;
  mediaUrl: string | null;
  mediaName: string | null;
}
/** Where a run goes after a step: its next position and state, what to send, and side effects. */
export interface Outcome {
  nodeId: string | null;
  contentIndex: number;
  status: RunRow['status'];
  waitSec?: number;
  send: OutRow[];
  variables?: Record<string, string>;
  queueId?: number;
  note?: string;
  /** The outside bot's state on the node the run stays on (cleared when not given). */
  botState?: RunRow['botState'];
  /** How many nodes the outcome covers (`executeThrough`; the run's step number moves by it; default 1). */
  nodes?: number;
}

/** The most nodes one step job executes (`executeThrough`), so a loop of silent nodes still yields. */
export const NODES_PER_STEP = 10;

const MEDIA: Record<'img' | 'audio' | 'video', MediaType> = { img: 'image', audio: 'audio', video: 'video' };

/** What executing `node` at the run's position does (one node, or one element of a content node). */
export function execute(graph: FlowGraph, node: TypedFlowNode, run: RunRow, ticket: TicketRow): Outcome {
  const next = (handle: string) => nextAfter(graph, node, handle);
  switch (node.type) {
    case 'start':
      return { ...next('a'), send: [] };
    case 'message':
      return { ...next('a'), send: [textRow(node.data.label, ticket, run)] };
    case 'img':
    case 'audio':
    case 'video':
      return { ...next('a'), send: [mediaRow(node.type, node.data.url)] };
    case 'interval':
      return { ...next('a'), status: 'waitingUntil', waitSec: node.data.sec, send: [] };
    case 'randomizer':
      return { ...next(Math.random() * 100 < node.data.percent ? 'a' : 'b'), send: [] };
    case 'condition': {
      const value = run.variables[node.data.key] ?? '';
      return { ...next(compare(value, node.data.condition, node.data.value) ? 'a' : 'b'), send: [] };
    }
    case 'menu':
      return {
        nodeId: node.id,
        contentIndex: 0,
        status: 'waitingInput',
        send: [textRow(menuText(node), ticket, run)],
      };
    case 'question':
      return {
        nodeId: node.id,
        contentIndex: 0,
        status: 'waitingInput',
        send: [textRow(node.data.typebotIntegration.message, ticket, run)],
      };
    case 'singleBlock': {
      const byNumber = new Map(node.data.elements.map((element) => [element.number, element]));
      const order = node.data.seq.length
        ? node.data.seq
        : node.data.elements.map((element) => element.number);
      const element = byNumber.get(order[run.contentIndex] ?? '');
      if (!element) return { ...next('a'), send: [] };
      const stay = { nodeId: node.id, contentIndex: run.contentIndex + 1, status: 'running' as const };
      const kind = flowContentKind(element);
      if (kind === 'interval')
        return { ...stay, status: 'waitingUntil', waitSec: Number(element.value), send: [] };
      if (kind === 'message') return { ...stay, send: [textRow(element.value, ticket, run)] };
      return { ...stay, send: [mediaRow(kind, element.value, element.original)] };
    }
    case 'ticket':
      return { nodeId: null, contentIndex: 0, status: 'ended', send: [], queueId: node.data.data.id };
    case 'openai':
      // The assistant answers the customer's next messages (see `aiTurn`).
      return { nodeId: node.id, contentIndex: 0, status: 'waitingInput', send: [] };
    default:
      // Typebot nodes run outside the transaction (see `step`); reaching one here hands over.
      return {
        nodeId: null,
        contentIndex: 0,
        status: 'ended',
        send: [],
        note: `O fluxo chegou a um bloco que ainda não é executado automaticamente (${node.type}). O ticket aguarda um atendente.`,
      };
  }
}

/**
 * Executes `node` and, in the same step, the nodes that follow while nothing has to wait: after a
 * node that sends nothing (start, randomizer, condition, the end of a content node) the next node
 * runs too, and after one that sends, a following interval node (it only schedules the next step).
 * So a step sends at most one node's messages, and a run pauses only at an interval, an answer or
 * its end; a Typebot node waits for a step of its own. At most NODES_PER_STEP nodes. @returns the combined outcome (`nodes` says how many).
 */
export function executeThrough(
  graph: FlowGraph,
  node: TypedFlowNode,
  run: RunRow,
  ticket: TicketRow,
): Outcome {
  const send: OutRow[] = [];
  let position = run;
  let current = node;
  for (let nodes = 1; ; nodes++) {
    const outcome = execute(graph, current, position, ticket);
    send.push(...outcome.send);
    const goesOn =
      outcome.status === 'running' &&
      outcome.waitSec === undefined &&
      outcome.queueId === undefined &&
      outcome.note === undefined &&
      outcome.contentIndex === 0 &&
      outcome.nodeId !== null &&
      outcome.nodeId !== current.id;
    const next = goesOn
      ? (graph.nodes.find((n) => n.id === outcome.nodeId) as TypedFlowNode | undefined)
      : undefined;
    // A Typebot node is a step of its own: its chat starts outside the transaction (FlowEngine.step).
    const stop = !next || next.type === 'typebot' || (send.length > 0 && next.type !== 'interval');
    if (stop || nodes >= NODES_PER_STEP) {
      return { ...outcome, send, nodes };
    }
    position = { ...position, nodeId: next.id, contentIndex: 0 };
    current = next;
  }
}

/**
 * Goes on from an outcome that moved the run to a next node (an answered menu or question) into
 * that node and the ones after it that need no wait (`executeThrough`), in the same step, when
 * they leave the run running or waiting for an interval. Keeps the outcome as it is (the next node
 * gets a step job) when there is nothing to run, the next node is a Typebot node, or the nodes run
 * would wait for input, end the run or move the ticket to a queue.
 */
export function continueFrom(graph: FlowGraph, outcome: Outcome, run: RunRow, ticket: TicketRow): Outcome {
  if (outcome.status !== 'running' || outcome.nodeId === null || outcome.send.length > 0) return outcome;
  const node = graph.nodes.find((n) => n.id === outcome.nodeId) as TypedFlowNode | undefined;
  if (!node || node.type === 'typebot') return outcome;
  const variables = outcome.variables ?? run.variables;
  const position = { ...run, nodeId: node.id, contentIndex: outcome.contentIndex, variables };
  const through = executeThrough(graph, node, position, ticket);
  // Only a run left running or waiting for its timer: a redelivered answer (its bot job run again
  // after a crash) must find the run busy, not waiting for input (it would take the same message
  // as the next answer) nor ended.
  const busy = through.status === 'running' || through.status === 'waitingUntil';
  if (!busy || through.nodeId === null || through.queueId !== undefined) return outcome;
  return { ...through, variables, nodes: (outcome.nodes ?? 1) + (through.nodes ?? 1) };
}

/** The node after `node`'s `handle` (the run ends when nothing follows). */
export function nextAfter(
  graph: FlowGraph,
  node: TypedFlowNode,
  handle: string,
): Pick<Outcome, 'nodeId' | 'contentIndex' | 'status'> {
  const handles = flowSourceHandles(node as never);
  const edge = graph.connections.find((c) => c.source === node.id && connectionHandle(c, handles) === handle);
  return edge
    ? { nodeId: edge.target, contentIndex: 0, status: 'running' }
    : { nodeId: null, contentIndex: 0, status: 'ended' };
}

/** A menu node's message followed by its numbered options ('*1* - Vendas'). */
export function menuText(node: Extract<TypedFlowNode, { type: 'menu' }>): string {
  const options = menuOf(node.data.arrayOption.map((o) => ({ number: String(o.number), title: o.value })));
  return `${node.data.message}\n\n${options}`;
}

/** A text with the run's `{{variables}}` and the message variables ({{firstName}}, {{ms}}, …) filled in. */
export function textRow(body: string, ticket: TicketRow, run: RunRow): OutRow {
  const filled = fillVariables(fillFlowVariables(body, run.variables), {
    contactName: ticket.contactName,
    ticketId: ticket.id,
    ticketCreatedAt: ticket.createdAt,
  });
  return { body: filled, mediaType: 'chat', mediaUrl: null, mediaName: null };
}

/** A media message of a stored upload (`name`), shown with its original file name. */
export function mediaRow(kind: 'img' | 'audio' | 'video', name: string, original?: string): OutRow {
  return { body: '', mediaType: MEDIA[kind], mediaUrl: name, mediaName: original ?? name };
}

/** A condition node's comparison (texts without case or accents; numbers as numbers). */
function compare(value: string, operator: string, expected: string): boolean {
  const [a, b] = [normalizeText(value), normalizeText(expected)];
  switch (operator) {
    case 'equals':
      return a === b;
    case 'notEquals':
      return a !== b;
    case 'contains':
      return a.includes(b);
    case 'greaterThan':
      return Number(value) > Number(expected);
    case 'lessThan':
      return Number(value) < Number(expected);
    default:
      return false;
  }
}
