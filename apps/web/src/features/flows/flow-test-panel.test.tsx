import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FLOW_TEST_DEFAULT_NUMBER } from '@zapdesk/shared';
import { Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { createSessionUser } from '../../test/fixtures';
import { json, stubFetch } from '../../test/http';
import { polyfillReactFlowDom } from '../../test/react-flow-dom';
import { renderWithProviders } from '../../test/render';
import { applyAppMessageEvent } from '../ticket-view/messages-cache';
import { FlowBuilderPage } from './flow-builder-page';
import type { FlowNode } from './flow-types';

polyfillReactFlowDom();

const admin = createSessionUser({ profile: 'admin' }, { useCampaigns: true });
const agent = createSessionUser({ profile: 'user' }, { useCampaigns: true });
const MENU_ID = 'M'.repeat(30);
const SALES_ID = 'S'.repeat(30);
const TICKET_ID = 50;
const CONTACT_ID = 9;

const nodes: FlowNode[] = [
  { id: '1', type: 'start', position: { x: 0, y: 0 }, data: { label: 'Inicio do fluxo' } },
  {
    id: MENU_ID,
    type: 'menu',
    position: { x: 300, y: 0 },
    data: { message: 'Escolha uma opção', arrayOption: [{ number: 1, value: 'Vendas' }] },
  },
  { id: SALES_ID, type: 'message', position: { x: 600, y: 0 }, data: { label: 'Vendas, um momento' } },
];

const message = (id: number, body: string, fromMe: boolean, ticketId = TICKET_ID) => ({
  id,
  ticketId,
  contactId: CONTACT_ID,
  body,
  fromMe,
  mediaType: 'chat',
  mediaUrl: null,
  mediaName: null,
  reactionToId: null,
  createdAt: '2026-11-24T10:00:00.000Z',
});

describe("flow editor's test panel", () => {
  let connections: unknown[];
  let history: unknown[];
  let run: unknown;
  let saveAnswer: Response | null;
  const calls = (path: string, method = 'GET') =>
    fetchMock.mock.calls.filter(([u, init]) => String(u) === path && (init?.method ?? 'GET') === method);

  const fetchMock = stubFetch(({ url, method }) => {
    if (url === '/api/flowbuilder/flow/7')
      return json(200, {
        flow: { id: 7, name: 'Atendimento', active: false, flow: { nodes, connections: [] } },
      });
    if (url === '/api/flowbuilder/flow' && method === 'POST') return saveAnswer ?? json(200, { ok: true });
    if (url.startsWith('/api/whatsapp?')) return json(200, connections);
    if (url === '/api/flowbuilder/7/test' && method === 'POST')
      return json(201, { ticketId: TICKET_ID, contactId: CONTACT_ID, sinceMessageId: 10 });
    if (url.startsWith(`/api/messages/${TICKET_ID}?`))
      return json(200, { messages: history, hasMore: false, count: history.length });
    if (url === `/api/tickets/${TICKET_ID}/flow-run`) return json(200, run);
    if (url === '/api/simulator/3/messages' && method === 'POST')
      return json(201, { id: 12, ticketId: TICKET_ID });
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
  beforeEach(() => {
    connections = [
      { id: 3, name: 'Simulador A', provider: 'simulator' },
      { id: 4, name: 'Nuvem', provider: 'cloud' },
      { id: 5, name: 'Simulador B', provider: 'simulator' },
    ];
    // An older message of the reused ticket (before the run) and the run's first messages.
    history = [message(10, 'conversa antiga', false), message(11, 'Escolha uma opção\n\n[1] - Vendas', true)];
    run = { flowId: 7, flowName: 'Atendimento', nodeId: MENU_ID, nodeType: 'menu', status: 'waitingInput' };
    saveAnswer = null;
  });

  const renderEditor = (user = admin) =>
    renderWithProviders(
      <Routes>
        <Route path="/flowbuilder/:id?" element={<FlowBuilderPage />} />
      </Routes>,
      { user, route: '/flowbuilder/7' },
    );

  const openPanel = async (user: ReturnType<typeof userEvent.setup>) => {
    await screen.findByTestId(`flow-node-${MENU_ID}`, {}, { timeout: 3000 });
    await user.click(screen.getByTestId('flow-test-open'));
    await waitFor(() => expect(calls('/api/whatsapp?session=0')).toHaveLength(1));
  };

  const runningNodes = (container: HTMLElement) =>
    [...container.querySelectorAll('.flow-node-running [data-testid^="flow-node-"]')]
      .map((el) => el.getAttribute('data-testid'))
      .filter((id) => id?.split('-').length === 3);

  it('runs the saved flow on the first simulator connection, shows the conversation and outlines the node', async () => {
    const user = userEvent.setup();
    const { container, queryClient } = renderEditor();
    await openPanel(user);
    const panel = screen.getByTestId('flow-test-panel');
    expect(within(panel).getByText('Test flow')).toBeTruthy();
    expect((screen.getByTestId('flow-test-number') as HTMLInputElement).value).toBe(FLOW_TEST_DEFAULT_NUMBER);
    // Only the simulator connections are offered.
    await user.click(within(panel).getByRole('combobox'));
    const options = screen.getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(['Simulador A', 'Simulador B']);
    await user.keyboard('{Escape}');

    await user.click(screen.getByTestId('flow-test-start'));
    await waitFor(() => expect(calls('/api/flowbuilder/7/test', 'POST')).toHaveLength(1));
    const [, init] = calls('/api/flowbuilder/7/test', 'POST')[0]!;
    expect(JSON.parse(String(init?.body))).toEqual({ whatsappId: 3, number: FLOW_TEST_DEFAULT_NUMBER });
    // The graph had no changes: nothing was saved.
    expect(calls('/api/flowbuilder/flow', 'POST')).toHaveLength(0);

    const conversation = screen.getByTestId('flow-test-conversation');
    expect(await within(conversation).findByText(/Escolha uma opção/)).toBeTruthy();
    // Messages before the run are not part of the test.
    expect(within(conversation).queryByText('conversa antiga')).toBeNull();
    await waitFor(() => expect(runningNodes(container)).toEqual([`flow-node-${MENU_ID}`]));
    expect(screen.getByTestId('flow-test-status').textContent).toBe(
      "Waiting for the customer's answer at: Menu",
    );

    // The customer answers through the simulator; the events bring the messages, the node moves on.
    await user.type(screen.getByTestId('flow-test-answer'), '1');
    await user.click(screen.getByTestId('flow-test-send'));
    await waitFor(() => expect(calls('/api/simulator/3/messages', 'POST')).toHaveLength(1));
    const [, sent] = calls('/api/simulator/3/messages', 'POST')[0]!;
    expect(JSON.parse(String(sent?.body))).toEqual({ from: FLOW_TEST_DEFAULT_NUMBER, body: '1' });
    expect((screen.getByTestId('flow-test-answer') as HTMLInputElement).value).toBe('');

    run = { flowId: 7, flowName: 'Atendimento', nodeId: SALES_ID, nodeType: 'message', status: 'running' };
    act(() => {
      applyAppMessageEvent(queryClient, { action: 'create', message: message(12, '1', false) });
      applyAppMessageEvent(queryClient, {
        action: 'create',
        message: message(13, 'Vendas, um momento', true),
      });
      // Another ticket's message stays out of the panel.
      applyAppMessageEvent(queryClient, { action: 'create', message: message(14, 'outro', false, 77) });
    });
    await waitFor(() =>
      expect(
        within(conversation)
          .getAllByTestId('flow-test-message')
          .map((m) => m.getAttribute('data-from')),
      ).toEqual(['flow', 'customer', 'flow']),
    );
    expect(within(conversation).queryByText('outro')).toBeNull();
    await waitFor(() => expect(runningNodes(container)).toEqual([`flow-node-${SALES_ID}`]));
  });

  it('saves a changed graph before starting, and clears the outline when the run ends', async () => {
    const user = userEvent.setup();
    const { container } = renderEditor();
    await openPanel(user);
    await user.click(screen.getByTestId(`flow-node-delete-${SALES_ID}`));
    run = null;
    await user.click(screen.getByTestId('flow-test-start'));
    await waitFor(() => expect(calls('/api/flowbuilder/7/test', 'POST')).toHaveLength(1));
    const saves = calls('/api/flowbuilder/flow', 'POST');
    expect(saves).toHaveLength(1);
    expect(JSON.parse(String(saves[0]![1]?.body)).nodes.map((n: FlowNode) => n.id)).toEqual(['1', MENU_ID]);
    const order = fetchMock.mock.calls.map(([u]) => String(u));
    expect(order.indexOf('/api/flowbuilder/flow')).toBeLessThan(order.indexOf('/api/flowbuilder/7/test'));
    await waitFor(() => expect(screen.getByTestId('flow-test-status').textContent).toBe('Flow ended'));
    expect(runningNodes(container)).toEqual([]);
    expect(screen.getByTestId('flow-test-start').textContent).toBe('Restart');
  });

  it('does not start when the changed graph cannot be saved', async () => {
    const user = userEvent.setup();
    renderEditor();
    await openPanel(user);
    saveAnswer = json(503, { error: 'ERR_SERVICE_UNAVAILABLE' });
    await user.click(screen.getByTestId(`flow-node-delete-${SALES_ID}`));
    await user.click(screen.getByTestId('flow-test-start'));
    await waitFor(() => expect(calls('/api/flowbuilder/flow', 'POST')).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId('flow-test-start').hasAttribute('disabled')).toBe(false));
    expect(calls('/api/flowbuilder/7/test', 'POST')).toHaveLength(0);
    expect(screen.getByTestId('flow-test-status').textContent).toBe('No test running');
  });

  it('checks the test phone before starting', async () => {
    const user = userEvent.setup();
    renderEditor();
    await openPanel(user);
    const number = screen.getByTestId('flow-test-number');
    await user.clear(number);
    await user.type(number, '12-34');
    await user.click(screen.getByTestId('flow-test-start'));
    expect(await screen.findByText('Invalid phone: 8 to 20 digits')).toBeTruthy();
    expect(calls('/api/flowbuilder/7/test', 'POST')).toHaveLength(0);
  });

  it('hints at adding a simulator connection when the company has none', async () => {
    connections = [{ id: 4, name: 'Nuvem', provider: 'cloud' }];
    const user = userEvent.setup();
    renderEditor();
    await openPanel(user);
    expect(await screen.findByTestId('flow-test-no-connection')).toBeTruthy();
    expect(screen.getByTestId('flow-test-start').hasAttribute('disabled')).toBe(true);
  });

  it('is offered to admins only', async () => {
    renderEditor(agent);
    await screen.findByTestId(`flow-node-${MENU_ID}`, {}, { timeout: 3000 });
    expect(screen.queryByTestId('flow-test-open')).toBeNull();
  });
});
