import { act, screen, waitFor } from '@testing-library/react';
import type { SessionUser, Ticket, TicketFlowRun } from '@zapdesk/shared';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSessionUser } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { applyAppMessageEvent } from './messages-cache';
import { json, makeMessage, makeTicket, mockFetch, page } from './test-helpers';
import { TicketView } from './ticket-view';

const agent = createSessionUser({ id: 5, profile: 'user' });
const admin = createSessionUser({ id: 6, profile: 'admin' });

function renderView(ticket: Ticket, user: SessionUser, runs: TicketFlowRun[]) {
  let call = 0;
  const api = mockFetch({
    [`GET /api/tickets/u/${ticket.uuid}`]: ticket,
    'GET /api/messages/\\d+': page([makeMessage({ id: 10, ticketId: ticket.id })]),
    'GET /api/tags/list': [],
    'GET /api/tickets/\\d+/flow-run': () => json(200, runs[Math.min(call++, runs.length - 1)] ?? null),
  });
  const result = renderWithProviders(
    <Routes>
      <Route path="/tickets/:uuid" element={<TicketView uuid={ticket.uuid} />} />
    </Routes>,
    { user, route: `/tickets/${ticket.uuid}` },
  );
  return { ...result, ...api };
}

const menuRun: TicketFlowRun = {
  flowId: 7,
  flowName: 'Boas-vindas',
  nodeId: 'menu',
  nodeType: 'menu',
  status: 'waitingInput',
};

describe('FlowRunChip', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows nothing when the conversation is in no flow', async () => {
    const ticket = makeTicket();
    const { calls } = renderView(ticket, agent, [null]);
    await screen.findByTestId('ticket-header');
    await waitFor(() => expect(calls('GET', `/api/tickets/${ticket.id}/flow-run`).length).toBeGreaterThan(0));
    expect(screen.queryByTestId('ticket-flow-run')).toBeNull();
  });

  it("names the flow and the node's type, and links admins to the editor", async () => {
    renderView(makeTicket(), admin, [menuRun]);
    const chip = await screen.findByTestId('ticket-flow-run');
    expect(chip.textContent).toBe('Flow: Boas-vindas · Menu');
    expect(chip.getAttribute('href')).toBe('/flowbuilder/7');
  });

  it('is no link for agents and asks again when a message arrives', async () => {
    const ticket = makeTicket();
    const { queryClient } = renderView(ticket, agent, [
      menuRun,
      { ...menuRun, nodeId: 'ask', nodeType: 'question' },
    ]);
    const chip = await screen.findByTestId('ticket-flow-run');
    expect(chip.textContent).toBe('Flow: Boas-vindas · Menu');
    expect(chip.getAttribute('href')).toBeNull();
    act(() =>
      applyAppMessageEvent(queryClient, {
        action: 'create',
        message: makeMessage({ id: 11, ticketId: ticket.id, fromMe: true }),
      }),
    );
    await waitFor(() =>
      expect(screen.getByTestId('ticket-flow-run').textContent).toBe('Flow: Boas-vindas · Question'),
    );
  });
});
