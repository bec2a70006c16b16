import { describe, expect, it } from 'vitest';
import {
  connectEdge,
  contentData,
  contentElements,
  contentProblem,
  DEFAULT_NODE_WIDTH,
  describeProblem,
  duplicateNode,
  type EditorEdge,
  type EditorNode,
  FIRST_NODE_POSITION,
  fromEditor,
  HIGHLIGHT_CLASS,
  highlightNodes,
  isDeleteKey,
  nextElementNumber,
  nextNodePosition,
  randomNodeId,
  readVariables,
  removeNode,
  removeSelected,
  sourceHandlesOf,
  toEditor,
  updateVariables,
  uploadProblem,
  writeVariables,
} from './flow-graph';
import type { ContentElement, FlowConnection, FlowNode } from './flow-types';

const node = (id: string, x: number, y: number, extra: Partial<EditorNode> = {}): EditorNode => ({
  id,
  type: 'interval',
  position: { x, y },
  data: { label: 'x', sec: 5 },
  ...extra,
});

describe('flow graph logic', () => {
  it('makes 30-character alphanumeric node ids', () => {
    const ids = new Set(Array.from({ length: 50 }, () => randomNodeId()));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{30}$/);
  });

  it('places a new node 40 px right of the last node (its x plus its width) at its y', () => {
    expect(nextNodePosition([])).toEqual(FIRST_NODE_POSITION);
    const nodes = [node('1', 0, 0), node('b', 500, 80, { measured: { width: 300, height: 90 } })];
    expect(nextNodePosition(nodes)).toEqual({ x: 500 + 300 + 40, y: 80 });
    expect(nextNodePosition([node('c', 10, 20)])).toEqual({ x: 10 + DEFAULT_NODE_WIDTH + 40, y: 20 });
  });

  it('places a duplicate 240 px right of the rightmost node with a new id and copied data', () => {
    const nodes = [node('1', 0, 0, { type: 'start' }), node('a', 100, 50), node('b', 900, 300)];
    const next = duplicateNode(nodes, 'a');
    expect(next).toHaveLength(4);
    const copy = next[3] as EditorNode;
    expect(copy.position).toEqual({ x: 900 + 240, y: 50 });
    expect(copy.id).not.toBe('a');
    expect(copy.id).toHaveLength(30);
    expect(copy.data).toEqual(nodes[1]?.data);
    expect(copy.data).not.toBe(nodes[1]?.data);
    // The start node is never copied.
    expect(duplicateNode(nodes, '1')).toHaveLength(3);
  });

  it('deletes a node with its edges but never the start node', () => {
    const nodes = [node('1', 0, 0), node('a', 1, 1), node('b', 2, 2)];
    const edges: EditorEdge[] = [
      { id: 'e1', source: '1', target: 'a' },
      { id: 'e2', source: 'a', target: 'b' },
      { id: 'e3', source: '1', target: 'b' },
    ];
    const after = removeNode(nodes, edges, 'a');
    expect(after.nodes.map((n) => n.id)).toEqual(['1', 'b']);
    expect(after.edges.map((e) => e.id)).toEqual(['e3']);
    expect(removeNode(nodes, edges, '1').nodes).toHaveLength(3);
  });

  it('removes selected nodes and edges on Delete and Backspace only', () => {
    expect(isDeleteKey('Delete')).toBe(true);
    expect(isDeleteKey('Backspace')).toBe(true);
    expect(isDeleteKey('Enter')).toBe(false);
    const nodes = [node('1', 0, 0, { selected: true }), node('a', 1, 1, { selected: true }), node('b', 2, 2)];
    const edges: EditorEdge[] = [
      { id: 'e1', source: '1', target: 'a' },
      { id: 'e2', source: '1', target: 'b', selected: true },
      { id: 'e3', source: 'b', target: '1' },
    ];
    const after = removeSelected(nodes, edges);
    expect(after.nodes.map((n) => n.id)).toEqual(['1', 'b']);
    expect(after.edges.map((e) => e.id)).toEqual(['e3']);
  });

  it('highlights only the clicked node and resets all on an edge click', () => {
    const nodes = [node('1', 0, 0), node('a', 1, 1), node('b', 2, 2)];
    const one = highlightNodes(nodes, 'a');
    expect(one.map((n) => n.className)).toEqual([undefined, HIGHLIGHT_CLASS, undefined]);
    const other = highlightNodes(one, 'b');
    expect(other.map((n) => n.className)).toEqual([undefined, undefined, HIGHLIGHT_CLASS]);
    expect(highlightNodes(other, null).every((n) => n.className === undefined)).toBe(true);
  });

  it('maps the stored graph to React Flow and back without editor state', () => {
    const stored: { nodes: FlowNode[]; connections: FlowConnection[] } = {
      nodes: [
        { id: '1', type: 'start', position: { x: 10, y: 20 }, data: { label: 'Inicio do fluxo' } },
        {
          id: 'm'.repeat(30),
          type: 'menu',
          position: { x: 300, y: 20 },
          data: { message: 'Escolha', arrayOption: [{ number: 1, value: 'Vendas' }] },
        },
      ],
      connections: [{ id: 'e1', source: '1', target: 'm'.repeat(30), sourceHandle: 'a', targetHandle: null }],
    };
    const editor = toEditor(stored);
    expect(editor.nodes[0]?.deletable).toBe(false);
    expect(editor.edges[0]).toEqual({ id: 'e1', source: '1', target: 'm'.repeat(30), sourceHandle: 'a' });
    const touched = highlightNodes(editor.nodes, '1').map((n) => ({
      ...n,
      selected: true,
      measured: { width: 200, height: 80 },
    }));
    expect(fromEditor(touched, editor.edges)).toEqual(stored);
  });

  it('starts an empty flow with the start node', () => {
    const { nodes, edges } = toEditor(null);
    expect(nodes).toEqual([
      expect.objectContaining({ id: '1', type: 'start', data: { label: 'Inicio do fluxo' } }),
    ]);
    expect(edges).toEqual([]);
  });

  it('gives menus one handle per option and randomizers two', () => {
    expect(
      sourceHandlesOf('menu', {
        arrayOption: [
          { number: 1, value: 'a' },
          { number: 2, value: 'b' },
        ],
      }),
    ).toEqual(['a1', 'a2']);
    expect(sourceHandlesOf('randomizer', { percent: 30 })).toEqual(['a', 'b']);
    expect(sourceHandlesOf('ticket', {})).toEqual([]);
    expect(sourceHandlesOf('singleBlock', {})).toEqual(['a']);
  });

  it('validates content elements with the spec messages', () => {
    const el = (type: ContentElement['type'], value: string, number = `${type}1`): ContentElement => ({
      type,
      number,
      value,
    });
    expect(contentProblem([el('message', 'oi'), el('interval', '5')])).toBeNull();
    expect(contentProblem([el('message', '  ')])).toBe('emptyMessage');
    expect(contentProblem([el('interval', '0')])).toBe('interval');
    expect(contentProblem([el('interval', '121')])).toBe('intervalMax');
    expect(contentProblem([el('img', '')])).toBe('emptyCards');
    expect(contentProblem([el('video', '')])).toBe('emptyCards');
  });

  it('numbers content elements per type and keeps their order in seq', () => {
    const list: ContentElement[] = [
      { type: 'message', number: 'message1', value: 'a' },
      { type: 'img', number: 'img1', value: 'x.png', original: 'foto.png' },
      { type: 'message', number: 'message3', value: 'b' },
    ];
    expect(nextElementNumber(list, 'message')).toBe('message4');
    expect(nextElementNumber(list, 'audio')).toBe('audio1');
    const data = contentData(list);
    expect(data.seq).toEqual(['message1', 'img1', 'message3']);
    expect(contentElements({ ...data, seq: ['img1', 'message1'] }).map((e) => e.number)).toEqual([
      'img1',
      'message1',
    ]);
  });

  it('refuses uploads over the limits or of other types', () => {
    const MB = 1024 * 1024;
    expect(uploadProblem('img', { name: 'a.png', size: 2 * MB })).toBeNull();
    expect(uploadProblem('img', { name: 'a.JPG', size: 2 * MB + 1 })).toEqual({ tooLarge: 2 });
    expect(uploadProblem('img', { name: 'a.gif', size: 10 })).toEqual({ type: true });
    expect(uploadProblem('audio', { name: 'a.opus', size: 5 * MB + 1 })).toEqual({ tooLarge: 5 });
    expect(uploadProblem('video', { name: 'a.mp4', size: 20 * MB + 1 })).toEqual({ tooLarge: 20 });
    expect(uploadProblem('video', { name: 'a.mov', size: 1 })).toEqual({ type: true });
  });

  it('keeps question variables: create replaces a duplicate, edit replaces the old name', () => {
    expect(updateVariables(['nome', 'cpf'], 'nome')).toEqual(['cpf', 'nome']);
    expect(updateVariables(['nome', 'cpf'], 'email', 'cpf')).toEqual(['nome', 'email']);
    writeVariables(['a', 'b']);
    expect(readVariables()).toEqual(['a', 'b']);
    localStorage.setItem('variables', 'not json');
    expect(readVariables()).toEqual([]);
  });

  it('keeps one edge per output handle and ignores self-loops', () => {
    const edges: EditorEdge[] = [
      { id: 'e1', source: 'm', sourceHandle: 'a1', target: 'x' },
      { id: 'e2', source: 'm', sourceHandle: 'a2', target: 'y' },
    ];
    const next = connectEdge(edges, { source: 'm', sourceHandle: 'a1', target: 'z' });
    expect(next.map((e) => [e.sourceHandle, e.target])).toEqual([
      ['a2', 'y'],
      ['a1', 'z'],
    ]);
    expect(connectEdge(edges, { source: 'm', sourceHandle: 'a3', target: 'm' })).toEqual(edges);
  });

  it('names the node of a graph problem', () => {
    const nodes = [node('1', 0, 0, { type: 'start' }), node('q', 1, 1, { type: 'question' })];
    expect(describeProblem({ reason: 'invalidData', node: 'q', field: 'x' }, nodes)).toEqual({
      nodeId: 'q',
      nodeType: 'question',
      reason: 'invalidData',
      field: 'x',
    });
    expect(describeProblem({ reason: 'duplicateConnection', connection: 'e' }, nodes).nodeId).toBeNull();
  });
});
