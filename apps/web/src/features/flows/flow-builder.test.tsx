import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubAudioRecording } from '../../test/fake-recorder';
import { createSessionUser } from '../../test/fixtures';
import { answerFirst, json, stubFetch } from '../../test/http';
import { polyfillReactFlowDom } from '../../test/react-flow-dom';
import { renderWithProviders } from '../../test/render';
import { FlowBuilderPage } from './flow-builder-page';
import type { FlowNode } from './flow-types';

const compression = vi.hoisted(() => ({
  calls: [] as { name: string; options: Record<string, unknown> }[],
}));
vi.mock('browser-image-compression', () => ({
  default: async (file: File, options: Record<string, unknown>) => {
    compression.calls.push({ name: file.name, options });
    return new File([new Uint8Array(4)], file.name, { type: file.type });
  },
}));

polyfillReactFlowDom();

const admin = createSessionUser({ profile: 'admin' }, { useCampaigns: true });
const MENU_ID = 'M'.repeat(30);
const QUESTION_ID = 'Q'.repeat(30);

const storedNodes: FlowNode[] = [
  { id: '1', type: 'start', position: { x: 0, y: 0 }, data: { label: 'Inicio do fluxo' } },
  {
    id: MENU_ID,
    type: 'menu',
    position: { x: 300, y: 0 },
    data: { message: 'Escolha uma opção', arrayOption: [{ number: 1, value: 'Vendas' }] },
  },
  {
    id: QUESTION_ID,
    type: 'question',
    position: { x: 600, y: 40 },
    data: { typebotIntegration: { message: 'Qual seu nome?', answerKey: 'nome' } },
  },
];

describe('flow builder screen', () => {
  let graph: unknown;
  const fetchMock = stubFetch(({ url, method }) => {
    if (url === '/api/flowbuilder/flow/7')
      return json(200, { flow: { id: 7, name: 'Atendimento', active: true, flow: graph } });
    if (url === '/api/flowbuilder/flow' && method === 'POST') return json(200, { ok: true });
    if (url === '/api/flowbuilder/img' && method === 'POST') return json(200, ['1732-foto.png']);
    if (url === '/api/flowbuilder/audio' && method === 'POST') return json(200, ['1733-audio.ogg']);
    if (url === '/api/public/1732-foto.png')
      return new Response(new Uint8Array([0x89, 0x50]), { headers: { 'content-type': 'image/png' } });
    if (url === '/api/queue') return json(200, [{ id: 2, name: 'Suporte', color: '#0000ff' }]);
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
  beforeEach(() => {
    graph = {
      nodes: storedNodes,
      connections: [{ id: 'e1', source: '1', target: MENU_ID, sourceHandle: 'a' }],
    };
  });
  afterEach(() => vi.unstubAllGlobals());

  const renderEditor = (route = '/flowbuilder/7') =>
    renderWithProviders(
      <Routes>
        <Route path="/flowbuilder/:id?" element={<FlowBuilderPage />} />
        <Route path="/flowbuilders" element={<p>the flows list</p>} />
      </Routes>,
      { user: admin, route },
    );

  /** Opens the speed-dial and picks a node type. */
  const addNode = async (user: ReturnType<typeof userEvent.setup>, type: string) => {
    await user.click(screen.getByTestId('flow-speed-dial'));
    await user.click(await screen.findByTestId(`flow-add-${type}`));
  };

  const savedBody = async (user: ReturnType<typeof userEvent.setup>) => {
    await user.click(screen.getByTestId('flow-save'));
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        '/api/flowbuilder/flow',
        expect.objectContaining({ method: 'POST' }),
      ),
    );
    const call = fetchMock.mock.calls.filter(([u]) => u === '/api/flowbuilder/flow').at(-1);
    return JSON.parse(String(call?.[1]?.body)) as {
      idFlow: number;
      nodes: FlowNode[];
      connections: unknown[];
    };
  };

  it('shows a loader, loads the graph after 500 ms, and saves it as drawn', async () => {
    const user = userEvent.setup();
    renderEditor();
    expect(screen.getByTestId('flow-loading')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalledWith('/api/flowbuilder/flow/7', expect.anything());
    expect(await screen.findByTestId(`flow-node-${MENU_ID}`, {}, { timeout: 3000 })).toBeTruthy();
    expect(screen.getByText('Escolha uma opção')).toBeTruthy();
    expect(screen.getByText('Atendimento')).toBeTruthy();
    expect(screen.getByTestId('flow-save-hint')).toBeTruthy();
    const body = await savedBody(user);
    expect(body).toEqual({
      idFlow: 7,
      nodes: storedNodes,
      connections: [{ id: 'e1', source: '1', target: MENU_ID, sourceHandle: 'a', targetHandle: null }],
    });
    expect(await screen.findByText('Flow saved')).toBeTruthy();
  });

  it('shows an agent (the cshow flag) the graph without save, node menu or test run', async () => {
    const agent = createSessionUser({ profile: 'user' }, { useCampaigns: true });
    renderWithProviders(
      <Routes>
        <Route path="/flowbuilder/:id?" element={<FlowBuilderPage />} />
      </Routes>,
      { user: agent, route: '/flowbuilder/7' },
    );
    expect(await screen.findByTestId(`flow-node-${MENU_ID}`, {}, { timeout: 3000 })).toBeTruthy();
    expect(screen.getByText('Escolha uma opção')).toBeTruthy();
    expect(screen.queryByTestId('flow-save')).toBeNull();
    expect(screen.queryByTestId('flow-save-hint')).toBeNull();
    expect(screen.queryByTestId('flow-speed-dial')).toBeNull();
    expect(screen.queryByTestId('flow-test-open')).toBeNull();
  });

  it('starts an empty flow with the start node', async () => {
    graph = null;
    renderEditor();
    const start = await screen.findByTestId('flow-node-1', {}, { timeout: 3000 });
    expect(within(start).getByText('Flow start')).toBeTruthy();
    // The start node can be neither duplicated nor deleted.
    expect(screen.queryByTestId('flow-node-delete-1')).toBeNull();
  });

  it('adds an interval node from the speed-dial after its validation, right of the last node', async () => {
    const user = userEvent.setup();
    renderEditor();
    await screen.findByTestId(`flow-node-${MENU_ID}`, {}, { timeout: 3000 });
    await addNode(user, 'interval');
    expect(await screen.findByText('Add interval to the flow')).toBeTruthy();
    await user.click(screen.getByTestId('flow-interval-save'));
    expect(await screen.findByText('Add the interval value')).toBeTruthy();
    await user.type(screen.getByTestId('flow-interval-sec'), '121');
    await user.click(screen.getByTestId('flow-interval-save'));
    expect(await screen.findByText('The longest interval is 120 seconds')).toBeTruthy();
    await user.clear(screen.getByTestId('flow-interval-sec'));
    await user.type(screen.getByTestId('flow-interval-sec'), '15');
    await user.click(screen.getByTestId('flow-interval-save'));
    expect(await screen.findByText('15 s interval')).toBeTruthy();
    const body = await savedBody(user);
    const added = body.nodes[3] as FlowNode;
    expect(added).toMatchObject({
      type: 'interval',
      data: { sec: 15 },
      position: { x: 600 + 220 + 40, y: 40 },
    });
    expect(added.id).toMatch(/^[A-Za-z0-9]{30}$/);
  });

  it('edits a node on double click and keeps the question variables', async () => {
    localStorage.setItem('variables', JSON.stringify(['nome', 'cpf']));
    const user = userEvent.setup();
    renderEditor();
    const question = await screen.findByTestId(`flow-node-${QUESTION_ID}`, {}, { timeout: 3000 });
    fireEvent.doubleClick(question);
    expect(await screen.findByText('Edit question')).toBeTruthy();
    const key = screen.getByTestId('flow-question-answerKey') as HTMLInputElement;
    expect(key.value).toBe('nome');
    await user.clear(key);
    await user.click(screen.getByTestId('flow-question-save'));
    expect(await screen.findByText('Required')).toBeTruthy();
    await user.type(key, 'email');
    await user.click(screen.getByTestId('flow-question-save'));
    expect(await screen.findByText('{{email}}')).toBeTruthy();
    expect(JSON.parse(localStorage.getItem('variables') ?? '[]')).toEqual(['cpf', 'email']);
  });

  it('duplicates a node 240 px right of the rightmost one and deletes nodes with their edges', async () => {
    const user = userEvent.setup();
    renderEditor();
    await screen.findByTestId(`flow-node-${MENU_ID}`, {}, { timeout: 3000 });
    await user.click(screen.getByTestId(`flow-node-duplicate-${MENU_ID}`));
    await user.click(screen.getByTestId(`flow-node-delete-${QUESTION_ID}`));
    let body = await savedBody(user);
    expect(body.nodes.map((n) => n.type)).toEqual(['start', 'menu', 'menu']);
    expect(body.nodes[2]?.position).toEqual({ x: 600 + 240, y: 0 });
    await user.click(screen.getByTestId(`flow-node-delete-${MENU_ID}`));
    body = await savedBody(user);
    expect(body.nodes).toHaveLength(2);
    expect(body.connections).toEqual([]);
  });

  it('highlights the clicked node in blue and removes the selection with Delete', async () => {
    const { container } = renderEditor();
    const menu = await screen.findByTestId(`flow-node-${MENU_ID}`, {}, { timeout: 3000 });
    fireEvent.click(menu);
    await waitFor(() => expect(container.querySelectorAll('.flow-node-highlighted')).toHaveLength(1));
    expect(menu.closest('.react-flow__node')?.classList.contains('flow-node-highlighted')).toBe(true);
    act(() => {
      fireEvent.keyDown(document.body, { key: 'Delete', code: 'Delete' });
    });
    await waitFor(() => expect(screen.queryByTestId(`flow-node-${MENU_ID}`)).toBeNull());
    expect(screen.getByTestId('flow-node-1')).toBeTruthy();
  });

  it('refuses an OpenAI node without name, API key and prompt, and masks the key', async () => {
    const user = userEvent.setup();
    renderEditor();
    await screen.findByTestId(`flow-node-${MENU_ID}`, {}, { timeout: 3000 });
    await addNode(user, 'openai');
    expect(await screen.findByText('Add OpenAI to the flow')).toBeTruthy();
    await user.click(screen.getByTestId('flow-openai-save'));
    expect(await screen.findAllByText('Required')).toHaveLength(3);
    const key = screen.getByTestId('flow-openai-apiKey') as HTMLInputElement;
    expect(key.type).toBe('password');
    await user.click(screen.getByTestId('flow-openai-toggle-key'));
    expect(key.type).toBe('text');
    expect((screen.getByTestId('flow-openai-maxTokens') as HTMLInputElement).value).toBe('100');
  });

  it('refuses a content node with an empty text or an empty media card', async () => {
    localStorage.setItem('variables', JSON.stringify(['nome']));
    const user = userEvent.setup();
    renderEditor();
    await screen.findByTestId(`flow-node-${MENU_ID}`, {}, { timeout: 3000 });
    await addNode(user, 'singleBlock');
    await user.click(await screen.findByTestId('content-add-message'));
    await user.click(screen.getByTestId('flow-content-save'));
    expect((await screen.findByTestId('content-problem')).textContent).toBe('Empty message fields!');
    await user.type(screen.getByTestId('content-input-message1'), 'Olá, ');
    // The question variables are offered as {{name}} placeholders.
    await user.click(within(screen.getByRole('dialog')).getByText('{{nome}}'));
    await user.click(screen.getByTestId('content-add-img'));
    await user.click(screen.getByTestId('flow-content-save'));
    expect((await screen.findByTestId('content-problem')).textContent).toBe(
      'Delete the empty cards (Image, Audio and Video)',
    );
    const big = new File([new Uint8Array(10)], 'foto.png', { type: 'image/png' });
    Object.defineProperty(big, 'size', { value: 3 * 1024 * 1024 });
    await user.upload(screen.getByTestId('content-file-img1'), big);
    expect(await screen.findByText('File is too large! 2 MB maximum.')).toBeTruthy();
    await user.click(screen.getByTestId('content-remove-img1'));
    await user.click(screen.getByTestId('flow-content-save'));
    expect(await screen.findByText('Content added!')).toBeTruthy();
    const body = await savedBody(user);
    expect(body.nodes[3]).toMatchObject({
      type: 'singleBlock',
      data: {
        seq: ['message1'],
        elements: [{ type: 'message', number: 'message1', value: 'Olá, {{nome}}' }],
      },
    });
  });

  it('needs a queue in the ticket node', async () => {
    const user = userEvent.setup();
    renderEditor();
    await screen.findByTestId(`flow-node-${MENU_ID}`, {}, { timeout: 3000 });
    await addNode(user, 'ticket');
    await user.click(await screen.findByTestId('flow-ticket-save'));
    expect(await screen.findByText('Add a queue')).toBeTruthy();
    await user.click(screen.getByTestId('flow-ticket-queue'));
    await user.click(await screen.findByRole('option', { name: 'Suporte' }));
    await user.click(screen.getByTestId('flow-ticket-save'));
    await waitFor(() => expect(screen.queryByTestId('flow-ticket-dialog')).toBeNull());
    const body = await savedBody(user);
    expect(body.nodes[3]).toMatchObject({ type: 'ticket', data: { data: { id: 2, name: 'Suporte' } } });
  });

  it('uploads an image compressed at quality 0.7 in the medias field, previews it and keeps its stored name', async () => {
    compression.calls.length = 0;
    URL.createObjectURL = vi.fn(() => 'blob:foto-preview');
    URL.revokeObjectURL = vi.fn();
    const user = userEvent.setup();
    renderEditor();
    await screen.findByTestId(`flow-node-${MENU_ID}`, {}, { timeout: 3000 });
    await addNode(user, 'singleBlock');
    await user.click(await screen.findByTestId('content-add-img'));
    await user.upload(
      screen.getByTestId('content-file-img1'),
      new File([new Uint8Array(64)], 'foto.png', { type: 'image/png' }),
    );
    expect(await screen.findByText('foto.png')).toBeTruthy();
    // The uploaded image is shown, fetched from its stored name with the session.
    const preview = await screen.findByTestId('content-image-preview');
    expect(preview.getAttribute('src')).toBe('blob:foto-preview');
    expect(preview.getAttribute('alt')).toBe('foto.png');
    expect(compression.calls).toEqual([
      { name: 'foto.png', options: expect.objectContaining({ initialQuality: 0.7 }) },
    ]);
    const upload = fetchMock.mock.calls.find(([u]) => u === '/api/flowbuilder/img');
    const form = upload?.[1]?.body as FormData | undefined;
    expect(form?.get('medias')).toBeInstanceOf(File);
    await user.click(screen.getByTestId('flow-content-save'));
    await waitFor(() => expect(screen.queryByTestId('flow-content-dialog')).toBeNull());
    const body = await savedBody(user);
    expect(body.nodes[3]?.data).toEqual({
      seq: ['img1'],
      elements: [{ type: 'img', number: 'img1', value: '1732-foto.png', original: 'foto.png' }],
    });
  });

  it('refuses to save a graph that breaks a rule, naming and highlighting the node', async () => {
    graph = {
      nodes: [
        storedNodes[0],
        {
          ...storedNodes[2],
          data: { typebotIntegration: { message: 'Qual seu nome?', answerKey: 'meu nome' } },
        },
      ],
      connections: [],
    };
    const user = userEvent.setup();
    const { container } = renderEditor();
    await screen.findByTestId(`flow-node-${QUESTION_ID}`, {}, { timeout: 3000 });
    await user.click(screen.getByTestId('flow-save'));
    expect(await screen.findByText('A block has invalid or empty fields (Question block)')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalledWith('/api/flowbuilder/flow', expect.anything());
    expect(
      container.querySelector(`.flow-node-highlighted [data-testid="flow-node-${QUESTION_ID}"]`),
    ).toBeTruthy();
  });

  it("explains the server's refusal of a graph", async () => {
    const user = userEvent.setup();
    renderEditor();
    await screen.findByTestId(`flow-node-${MENU_ID}`, {}, { timeout: 3000 });
    fetchMock.mockImplementationOnce(async () =>
      json(400, { error: 'ERR_FLOW_INVALID', reason: 'queueNotFound', node: MENU_ID }),
    );
    await user.click(screen.getByTestId('flow-save'));
    expect(await screen.findByText('A block uses a queue that no longer exists (Menu block)')).toBeTruthy();
  });

  it('leaves for the flows list when the flow does not exist', async () => {
    renderEditor('/flowbuilder/999999');
    expect(await screen.findByText('the flows list', {}, { timeout: 3000 })).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith('/api/flowbuilder/flow/999999', expect.anything());
  });

  it('offers to try again when the flow fails to load, and then shows it', async () => {
    const user = userEvent.setup();
    let failing = true;
    answerFirst(fetchMock, ({ url }) =>
      failing && url === '/api/flowbuilder/flow/7' ? json(500, { error: 'ERR_INTERNAL' }) : undefined,
    );
    renderEditor();
    const failed = await screen.findByTestId('flow-load-failed', {}, { timeout: 3000 });
    expect(screen.queryByTestId('flow-loading')).toBeNull();
    expect((screen.getByTestId('flow-save') as HTMLButtonElement).disabled).toBe(true);
    failing = false;
    await user.click(within(failed).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId(`flow-node-${MENU_ID}`)).toBeTruthy();
    expect((screen.getByTestId('flow-save') as HTMLButtonElement).disabled).toBe(false);
  });

  it('leaves for the flows list when saving finds the flow deleted elsewhere', async () => {
    const user = userEvent.setup();
    answerFirst(fetchMock, ({ url, method }) =>
      url === '/api/flowbuilder/flow' && method === 'POST'
        ? json(404, { error: 'ERR_NOT_FOUND' })
        : undefined,
    );
    renderEditor();
    await screen.findByTestId(`flow-node-${MENU_ID}`, {}, { timeout: 3000 });
    await user.click(screen.getByTestId('flow-save'));
    expect(await screen.findByText('the flows list')).toBeTruthy();
  });

  it('records an audio element on the spot, uploads it and keeps the record flag', async () => {
    stubAudioRecording('audio/ogg', 20_000);
    const user = userEvent.setup();
    renderEditor();
    await screen.findByTestId(`flow-node-${MENU_ID}`, {}, { timeout: 3000 });
    await addNode(user, 'singleBlock');
    await user.click(await screen.findByTestId('content-add-audio'));
    await user.click(screen.getByTestId('content-record-audio1'));
    await user.click(await screen.findByTestId('content-record-audio1-stop'));
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        '/api/flowbuilder/audio',
        expect.objectContaining({ method: 'POST' }),
      ),
    );
    const upload = fetchMock.mock.calls.find(([u]) => u === '/api/flowbuilder/audio');
    const file = (upload?.[1]?.body as FormData | undefined)?.get('medias') as File;
    expect(file.name).toMatch(/^audio-\d+\.ogg$/);
    expect(file.size).toBe(20_000);
    await waitFor(() => expect(screen.getByTestId('content-record-audio1')).toBeTruthy());
    await user.click(screen.getByTestId('flow-content-save'));
    await waitFor(() => expect(screen.queryByTestId('flow-content-dialog')).toBeNull());
    const body = await savedBody(user);
    expect(body.nodes[3]?.data).toEqual({
      seq: ['audio1'],
      elements: [
        { type: 'audio', number: 'audio1', value: '1733-audio.ogg', original: file.name, record: true },
      ],
    });
  });
});
