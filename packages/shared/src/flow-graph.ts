import { FLOW_LIMITS, FLOW_WAITING_NODE_TYPES, flowSourceHandles } from './flows.js';
import {
  FLOW_NODE_DATA,
  type FlowConnection,
  type FlowGraph,
  type FlowNode,
  flowContentKind,
  type TypedFlowNode,
} from './schemas/flows.js';

/** Why a graph is refused on save (ERR_FLOW_INVALID `reason`). */
export const FLOW_GRAPH_PROBLEMS = [
  /** No start node with id '1', or a start node with another id, or two start nodes. */
  'startNode',
  /** Two nodes share an id. */
  'duplicateNode',
  /** A node's data does not fit its type (`field` names the data field). */
  'invalidData',
  /** Two connections share an id. */
  'duplicateConnection',
  /** A connection starts or ends at a node that does not exist, or ends at the start node. */
  'unknownNode',
  /** A connection leaves from a handle its node does not have. */
  'unknownHandle',
  /** Two connections leave from the same handle. */
  'handleInUse',
  /** A cycle passes through no waiting node (menu, question, interval): it would loop forever. */
  'cycleWithoutWait',
  /** A ticket or OpenAI node names a queue the company does not have. */
  'queueNotFound',
] as const;
export type FlowGraphProblemReason = (typeof FLOW_GRAPH_PROBLEMS)[number];

/** A refused graph: the rule, the node (or connection) it concerns and the data field. */
export interface FlowGraphProblem {
  reason: FlowGraphProblemReason;
  node?: string;
  connection?: string;
  field?: string;
}

/** The handle a connection leaves from: a null handle is 'a' on a node with only that output. */
export function connectionHandle(connection: FlowConnection, handles: string[]): string | null {
  if (connection.sourceHandle) return connection.sourceHandle;
  return handles.length === 1 && handles[0] === 'a' ? 'a' : null;
}

/** True when executing the node waits for the customer or the clock (a cycle through it is safe). */
export function isWaitingNode(node: TypedFlowNode): boolean {
  if (FLOW_WAITING_NODE_TYPES.includes(node.type)) return true;
  // Typebot and OpenAI nodes hand the conversation over and wait for the customer.
  if (node.type === 'typebot' || node.type === 'openai') return true;
  if (node.type === 'singleBlock')
    return node.data.elements.some((element) => flowContentKind(element) === 'interval');
  return false;
}

/**
 * Checks a flow graph on save (document 3 sections 3 and 5): one start node with id
 * '1'; every node's data fits its type (defaults filled in); connections join existing nodes
 * from existing, unused handles and never end at the start node; every cycle passes through a
 * waiting node. @returns the typed graph, or the first problem found.
 */
export function checkFlowGraph(
  graph: FlowGraph,
):
  | { ok: true; nodes: TypedFlowNode[]; connections: FlowConnection[] }
  | { ok: false; problem: FlowGraphProblem } {
  const fail = (problem: FlowGraphProblem) => ({ ok: false as const, problem });
  const starts = graph.nodes.filter((node) => node.type === 'start');
  if (starts.length !== 1 || starts[0]!.id !== FLOW_LIMITS.startNodeId) {
    return fail({ reason: 'startNode', node: starts[1]?.id ?? starts[0]?.id });
  }
  const byId = new Map<string, TypedFlowNode>();
  const nodes: TypedFlowNode[] = [];
  for (const node of graph.nodes) {
    if (byId.has(node.id)) return fail({ reason: 'duplicateNode', node: node.id });
    if (node.id === FLOW_LIMITS.startNodeId && node.type !== 'start')
      return fail({ reason: 'startNode', node: node.id });
    const parsed = FLOW_NODE_DATA[node.type].safeParse(node.data);
    if (!parsed.success) {
      const field = parsed.error.issues[0]?.path.join('.') || undefined;
      return fail({ reason: 'invalidData', node: node.id, field });
    }
    const typed = { ...node, data: parsed.data } as TypedFlowNode;
    byId.set(node.id, typed);
    nodes.push(typed);
  }
  const connectionIds = new Set<string>();
  const usedHandles = new Set<string>();
  const next = new Map<string, string[]>();
  for (const connection of graph.connections) {
    if (connectionIds.has(connection.id))
      return fail({ reason: 'duplicateConnection', connection: connection.id });
    connectionIds.add(connection.id);
    const source = byId.get(connection.source);
    const target = byId.get(connection.target);
    if (!source || !target || target.type === 'start') {
      return fail({
        reason: 'unknownNode',
        connection: connection.id,
        node: source ? connection.target : connection.source,
      });
    }
    const handles = flowSourceHandles(source as FlowNode);
    const handle = connectionHandle(connection, handles);
    if (!handle || !handles.includes(handle)) {
      return fail({ reason: 'unknownHandle', connection: connection.id, node: source.id });
    }
    const key = `${source.id}\u0000${handle}`;
    if (usedHandles.has(key))
      return fail({ reason: 'handleInUse', connection: connection.id, node: source.id });
    usedHandles.add(key);
    next.set(source.id, [...(next.get(source.id) ?? []), target.id]);
  }
  const loop = cycleWithoutWait(nodes, next);
  if (loop) return fail({ reason: 'cycleWithoutWait', node: loop });
  return { ok: true, nodes, connections: graph.connections };
}

/**
 * A node on a cycle that passes through no waiting node, or null: a depth-first search over the
 * graph without its waiting nodes (any cycle left there waits nowhere).
 */
function cycleWithoutWait(nodes: TypedFlowNode[], next: Map<string, string[]>): string | null {
  const running = new Set(nodes.filter((node) => !isWaitingNode(node)).map((node) => node.id));
  const state = new Map<string, 'open' | 'done'>();
  for (const root of running) {
    if (state.has(root)) continue;
    // Iterative DFS: a stack of [node, index of the next successor to visit].
    const stack: Array<[string, number]> = [[root, 0]];
    state.set(root, 'open');
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const successors = (next.get(top[0]) ?? []).filter((id) => running.has(id));
      if (top[1] >= successors.length) {
        state.set(top[0], 'done');
        stack.pop();
        continue;
      }
      const successor = successors[top[1]++]!;
      const seen = state.get(successor);
      if (seen === 'open') return successor;
      if (!seen) {
        state.set(successor, 'open');
        stack.push([successor, 0]);
      }
    }
  }
  return null;
}
