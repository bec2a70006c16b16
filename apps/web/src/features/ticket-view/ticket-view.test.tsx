import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SessionUser, Ticket } from '@zapdesk/shared';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../lib/i18n';
import { createSessionUser } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { applyTicketViewEvent } from './messages-cache';
import { json, makeTicket, mockFetch, page } from './test-helpers';
import { TicketView } from './ticket-view';

const agent = createSessionUser({ id: 5, profile: 'user' });
const admin = createSessionUser({ id: 6, profile: 'admin' });

function renderView(ticket: Ticket, user: SessionUser, routes: Record<string, unknown> = {}) {
  const api = mockFetch({
    [`GET /api/tickets/u/${ticket.uuid}`]: ticket,
    'GET /api/messages/\\d+': page([]),
    'GET /api/tags/list': [
      { id: 1, name: 'VIP', color: '#ff0000', kanban: 0 },
      { id: 2, name: 'Novo', color: '#00ff00', kanban: 0 },
    ],
    'PUT /api/tickets/\\d+': (_url: URL, init?: RequestInit) =>
      json(200, { ...ticket, ...(JSON.parse(String(init?.body)) as object) }),
    'DELETE /api/tickets/\\d+': () => new Response(null, { status: 204 }),
    ...routes,
  });
  const result = renderWithProviders(
    <Routes>
      <Route path="/tickets/:uuid" element={<TicketView uuid={ticket.uuid} />} />
      <Route path="/tickets" element={<div data-testid="tickets-home" />} />
    </Routes>,
    { user, route: `/tickets/${ticket.uuid}` },
  );
  return { ...result, ...api };
}

const ACTIONS = ['ticket-accept', 'ticket-return', 'ticket-resolve', 'ticket-transfer', 'ticket-reopen'];
const shown = () => ACTIONS.filter((id) => screen.queryByTestId(id) !== null);

describe('TicketView header', () => {
  afterEach(() => vi.unstubAllGlobals());

  it.each([
    ['pending', ['ticket-accept']],
    ['open', ['ticket-return', 'ticket-resolve', 'ticket-transfer']],
    ['closed', ['ticket-reopen']],
  ] as const)('shows the actions of a %s ticket', async (status, expected) => {
    renderView(makeTicket({ status }), agent);
    await screen.findByTestId('ticket-header');
    expect(shown()).toEqual(expected);
    expect(screen.queryByTestId('ticket-delete')).toBeNull();
  });

  it('shows the contact, the assigned user and the queue', async () => {
    renderView(makeTicket({ user: { id: 9, name: 'Ana' }, userId: 9 }), agent);
    const header = await screen.findByTestId('ticket-header');
    expect(within(header).getByText('Maria Cliente')).toBeTruthy();
    expect(within(header).getByText('5511999990000')).toBeTruthy();
    expect(within(header).getByTestId('ticket-assigned-user').textContent).toContain('Ana');
    expect(within(header).getByTestId('ticket-queue').textContent).toBe('Suporte');
  });

  it('accepts a pending ticket for the current user and stays on it', async () => {
    const ticket = makeTicket({ status: 'pending' });
    const { calls } = renderView(ticket, agent);
    await userEvent.click(await screen.findByTestId('ticket-accept'));
    await waitFor(() => expect(calls('PUT', `/api/tickets/${ticket.id}`)).toHaveLength(1));
    expect(calls('PUT', `/api/tickets/${ticket.id}`)[0]?.body).toEqual({ status: 'open', userId: 5 });
    expect(await screen.findByTestId('ticket-resolve')).toBeTruthy();
    expect(screen.queryByTestId('tickets-home')).toBeNull();
  });

  it('returns an open ticket to pending and goes to /tickets', async () => {
    const ticket = makeTicket({ status: 'open', userId: 5 });
    const { calls } = renderView(ticket, agent);
    await userEvent.click(await screen.findByTestId('ticket-return'));
    expect(await screen.findByTestId('tickets-home')).toBeTruthy();
    expect(calls('PUT', `/api/tickets/${ticket.id}`)[0]?.body).toEqual({ status: 'pending', userId: null });
  });

  it('resolves with the user and queue, then goes to /tickets', async () => {
    const ticket = makeTicket({ status: 'open', userId: 5, queueId: 7 });
    const { calls } = renderView(ticket, agent);
    await userEvent.click(await screen.findByTestId('ticket-resolve'));
    expect(await screen.findByTestId('tickets-home')).toBeTruthy();
    expect(calls('PUT', `/api/tickets/${ticket.id}`)[0]?.body).toMatchObject({
      status: 'closed',
      userId: 5,
      queueId: 7,
    });
  });

  it('reopens a closed ticket for the current user in its queue', async () => {
    const ticket = makeTicket({ status: 'closed', queueId: 7 });
    const { calls } = renderView(ticket, agent);
    await userEvent.click(await screen.findByTestId('ticket-reopen'));
    await waitFor(() => expect(calls('PUT', `/api/tickets/${ticket.id}`)).toHaveLength(1));
    expect(calls('PUT', `/api/tickets/${ticket.id}`)[0]?.body).toEqual({
      status: 'open',
      userId: 5,
      queueId: 7,
    });
  });

  it('transfers to a queue (pending, no user) or to a user (open)', async () => {
    const ticket = makeTicket({ status: 'open', userId: 5, queueId: 7 });
    const queues = [
      { id: 7, name: 'Suporte', color: '#123456' },
      { id: 8, name: 'Vendas', color: '#654321' },
    ];
    const { calls } = renderView(ticket, agent, {
      'GET /api/queue': queues,
      'GET /api/users/list': [{ id: 11, name: 'Bruno' }],
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('ticket-transfer'));
    expect(await screen.findByTestId('transfer-dialog')).toBeTruthy();
    await user.click(await screen.findByTestId('transfer-queue'));
    await user.click(await screen.findByTestId('transfer-queue-8'));
    await user.click(screen.getByTestId('transfer-save'));
    expect(await screen.findByTestId('tickets-home')).toBeTruthy();
    expect(calls('PUT', `/api/tickets/${ticket.id}`)[0]?.body).toEqual({
      queueId: 8,
      userId: null,
      status: 'pending',
    });
  });

  it('transfers to a user as open', async () => {
    const ticket = makeTicket({ status: 'open', userId: 5, queueId: 7 });
    const { calls } = renderView(ticket, agent, {
      'GET /api/queue': [{ id: 7, name: 'Suporte', color: '#123456' }],
      'GET /api/users/list': [{ id: 11, name: 'Bruno' }],
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('ticket-transfer'));
    await user.click(await screen.findByTestId('transfer-user'));
    await user.click(await screen.findByTestId('transfer-user-11'));
    await user.click(screen.getByTestId('transfer-save'));
    await waitFor(() => expect(calls('PUT', `/api/tickets/${ticket.id}`)).toHaveLength(1));
    expect(calls('PUT', `/api/tickets/${ticket.id}`)[0]?.body).toEqual({
      queueId: 7,
      userId: 11,
      status: 'open',
    });
  });

  it('lets only admins delete, after the confirmation', async () => {
    const ticket = makeTicket({ status: 'open' });
    const { calls } = renderView(ticket, admin);
    await userEvent.click(await screen.findByTestId('ticket-delete'));
    expect(await screen.findByText('Do you really want to delete this record?')).toBeTruthy();
    expect(calls('DELETE', '/api/tickets/')).toHaveLength(0);
    await userEvent.click(screen.getByTestId('confirm-button'));
    expect(await screen.findByTestId('tickets-home')).toBeTruthy();
    expect(calls('DELETE', `/api/tickets/${ticket.id}`)).toHaveLength(1);
  });

  it('goes back to /tickets when a delete event removes the open ticket', async () => {
    const ticket = makeTicket();
    const { queryClient } = renderView(ticket, agent);
    await screen.findByTestId('ticket-header');
    act(() => applyTicketViewEvent(queryClient, { action: 'delete', ticketId: ticket.id + 1 }));
    expect(screen.queryByTestId('tickets-home')).toBeNull();
    act(() => applyTicketViewEvent(queryClient, { action: 'delete', ticketId: ticket.id }));
    expect(await screen.findByTestId('tickets-home')).toBeTruthy();
  });

  it('replaces the ticket on an update event', async () => {
    const ticket = makeTicket({ status: 'pending' });
    const { queryClient } = renderView(ticket, agent);
    await screen.findByTestId('ticket-accept');
    act(() =>
      applyTicketViewEvent(queryClient, { action: 'update', ticket: { ...ticket, status: 'closed' } }),
    );
    expect(await screen.findByTestId('ticket-reopen')).toBeTruthy();
  });

  it('saves the chosen tags with POST /tags/sync', async () => {
    const ticket = makeTicket({ tags: [{ id: 1, name: 'VIP', color: '#ff0000' }] });
    const { calls } = renderView(ticket, agent, {
      'POST /api/tags/sync': {
        ...ticket,
        tags: [
          { id: 1, name: 'VIP', color: '#ff0000' },
          { id: 2, name: 'Novo', color: '#00ff00' },
        ],
      },
    });
    const tags = await screen.findByTestId('ticket-tags');
    expect(within(tags).getByText('VIP')).toBeTruthy();
    await userEvent.click(within(tags).getByRole('combobox'));
    await userEvent.click(await screen.findByTestId('tag-option-2'));
    await waitFor(() => expect(calls('POST', '/api/tags/sync')).toHaveLength(1));
    expect(calls('POST', '/api/tags/sync')[0]?.body).toEqual({ ticketId: ticket.id, tags: [1, 2] });
    expect(await within(tags).findByText('Novo')).toBeTruthy();
  });

  it('toggles the contact drawer from the header', async () => {
    const ticket = makeTicket();
    renderView(ticket, agent, {
      'GET /api/contacts/\\d+': {
        ...ticket.contact,
        companyId: 1,
        extraInfo: [],
        createdAt: '',
        updatedAt: '',
      },
      'GET /api/ticket-notes/list': [],
    });
    expect(screen.queryByTestId('contact-drawer')).toBeNull();
    await userEvent.click(await screen.findByTestId('contact-drawer-toggle'));
    expect(await screen.findByTestId('contact-drawer')).toBeTruthy();
    await userEvent.click(screen.getByTestId('contact-drawer-toggle'));
    expect(screen.queryByTestId('contact-drawer')).toBeNull();
  });
});

describe('TicketView access', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    await i18n.changeLanguage('en');
  });

  it("403 ERR_NO_PERMISSION shows 'Acesso não permitido' and goes to /tickets", async () => {
    await i18n.changeLanguage('pt');
    const ticket = makeTicket();
    renderView(ticket, agent, {
      [`GET /api/tickets/u/${ticket.uuid}`]: () => json(403, { error: 'ERR_NO_PERMISSION' }),
    });
    expect(await screen.findByText('Acesso não permitido')).toBeTruthy();
    expect(await screen.findByTestId('tickets-home')).toBeTruthy();
  });

  it.each([
    [404, 'ERR_NO_TICKET_FOUND'],
    [400, 'ERR_VALIDATION'],
  ])(
    '%i %s (unknown ticket, address not a uuid) shows the not-found toast and goes to /tickets',
    async (status, error) => {
      const ticket = makeTicket();
      renderView(ticket, agent, {
        [`GET /api/tickets/u/${ticket.uuid}`]: () => json(status, { error }),
      });
      expect(await screen.findByText('No ticket found with this ID.')).toBeTruthy();
      expect(await screen.findByTestId('tickets-home')).toBeTruthy();
    },
  );
});
