import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Ticket } from '@zapdesk/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSessionUser } from '../../test/fixtures';
import { json } from '../../test/http';
import { withMatchMedia } from '../../test/media-query';
import { renderWithLocation } from '../../test/render';
import { createMessage, createTicket } from './test-fixtures';
import { TicketListItem } from './ticket-list-item';

function renderItem(ticket: Ticket, user = createSessionUser({ id: 7 })) {
  return renderWithLocation(<TicketListItem ticket={ticket} />, { user, route: '/tickets' });
}

describe('TicketListItem', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  const admin = createSessionUser({ id: 7, profile: 'admin' });
  const agent = createSessionUser({ id: 7, profile: 'user' });

  beforeEach(() => {
    fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const method = init?.method ?? 'GET';
      const match = url.match(/^\/api\/tickets\/(\d+)$/);
      if (match && method === 'PUT')
        return json(200, {
          ...createTicket({ id: Number(match[1]) }),
          ...JSON.parse(String(init?.body)),
          uuid: `uuid-${match[1]}`,
        });
      if (url.startsWith('/api/messages/'))
        return json(200, {
          messages: [
            createMessage({ body: 'Hi, I need help', fromMe: false }),
            createMessage({ body: '*Sure*, tell me', fromMe: true }),
          ],
          hasMore: false,
          count: 2,
          ticket: null,
        });
      return json(404, { error: 'ERR_NOT_FOUND' });
    });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  const puts = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'PUT');

  it("renders the last message's WhatsApp marks, never its markup", () => {
    renderItem(createTicket({ id: 31, status: 'open', lastMessage: '*Admin:*\n_ok_ <b>x</b>' }));
    const preview = screen.getByTestId('ticket-last-message-31');
    expect(preview.querySelector('strong')?.textContent).toBe('Admin:');
    expect(preview.querySelector('em')?.textContent).toBe('ok');
    expect(preview.querySelector('b')).toBeNull();
  });

  it('shows Accept and Close for a pending ticket, which cannot be opened by clicking', async () => {
    const user = userEvent.setup();
    const ticket = createTicket({ status: 'pending' });
    renderItem(ticket, agent);
    expect(screen.getByTestId(`ticket-accept-${ticket.id}`)).toBeTruthy();
    expect(screen.getByTestId(`ticket-close-${ticket.id}`)).toBeTruthy();
    expect(screen.queryByTestId(`ticket-reopen-${ticket.id}`)).toBeNull();
    await user.click(screen.getByTestId(`ticket-item-${ticket.id}`));
    expect(screen.getByTestId('location').textContent).toBe('/tickets');
  });

  it('shows only Close for an open ticket, and opens it on click', async () => {
    const user = userEvent.setup();
    const ticket = createTicket({ status: 'open' });
    renderItem(ticket, agent);
    expect(screen.queryByTestId(`ticket-accept-${ticket.id}`)).toBeNull();
    expect(screen.getByTestId(`ticket-close-${ticket.id}`)).toBeTruthy();
    expect(screen.queryByTestId(`ticket-reopen-${ticket.id}`)).toBeNull();
    await user.click(screen.getByText(ticket.contact.name));
    expect(screen.getByTestId('location').textContent).toBe(`/tickets/${ticket.uuid}`);
  });

  it('shows only Reopen for a closed ticket', () => {
    const ticket = createTicket({ status: 'closed' });
    renderItem(ticket, agent);
    expect(screen.queryByTestId(`ticket-accept-${ticket.id}`)).toBeNull();
    expect(screen.queryByTestId(`ticket-close-${ticket.id}`)).toBeNull();
    expect(screen.getByTestId(`ticket-reopen-${ticket.id}`)).toBeTruthy();
  });

  it('accepts with status open and the current user, then opens the ticket', async () => {
    const user = userEvent.setup();
    const ticket = createTicket({ status: 'pending', queueId: 3 });
    renderItem(ticket, agent);
    await user.click(screen.getByTestId(`ticket-accept-${ticket.id}`));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe(`/tickets/${ticket.uuid}`));
    expect(puts()[0]?.[0]).toBe(`/api/tickets/${ticket.id}`);
    expect(JSON.parse(String(puts()[0]?.[1]?.body))).toEqual({ status: 'open', userId: 7 });
  });

  it('closes with userId and queueId and stays on /tickets; reopens with userId and queueId', async () => {
    const user = userEvent.setup();
    const open = createTicket({ status: 'open', queueId: 3, userId: 9 });
    const view = renderItem(open, agent);
    await user.click(screen.getByTestId(`ticket-close-${open.id}`));
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(JSON.parse(String(puts()[0]?.[1]?.body))).toMatchObject({
      status: 'closed',
      userId: 7,
      queueId: 3,
    });
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/tickets'));
    view.unmount();

    const closed = createTicket({ status: 'closed', queueId: 4 });
    renderItem(closed, agent);
    await user.click(screen.getByTestId(`ticket-reopen-${closed.id}`));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe(`/tickets/${closed.uuid}`));
    expect(JSON.parse(String(puts()[1]?.[1]?.body))).toEqual({ status: 'open', userId: 7, queueId: 4 });
  });

  it('shows the peek eye to admins only; it opens a read-only preview', async () => {
    const user = userEvent.setup();
    const ticket = createTicket({ status: 'pending' });
    const view = renderItem(ticket, agent);
    expect(screen.queryByTestId(`ticket-peek-${ticket.id}`)).toBeNull();
    view.unmount();

    renderItem(ticket, admin);
    await user.click(screen.getByTestId(`ticket-peek-${ticket.id}`));
    expect(await screen.findByText('Hi, I need help')).toBeTruthy();
    // WhatsApp marks are rendered in the preview too.
    expect(screen.getByText('Sure').tagName).toBe('STRONG');
    expect(screen.getByTestId('location').textContent).toBe('/tickets');
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('shows tags, the default grey queue tag, the unread badge and the chatbot icon', () => {
    const ticket = createTicket({
      unreadMessages: 3,
      chatbot: true,
      user: { id: 2, name: 'Agent Ana' },
      tags: [{ id: 1, name: 'VIP', color: '#123456' }],
    });
    renderItem(ticket, agent);
    expect(screen.getByTestId(`ticket-queue-${ticket.id}`).textContent).toBe('no queue');
    expect(screen.getByText('Main phone')).toBeTruthy();
    expect(screen.getByText('Agent Ana')).toBeTruthy();
    expect(screen.getByText('VIP')).toBeTruthy();
    expect(screen.getByTestId(`ticket-unread-${ticket.id}`).textContent).toBe('3');
    expect(screen.getByTestId(`ticket-chatbot-${ticket.id}`)).toBeTruthy();
  });

  it('cuts the contact name to 10 characters under 600 px', () =>
    withMatchMedia(
      (query) => query.includes('max-width'),
      async () => {
        const ticket = createTicket({ contact: { ...createTicket().contact, name: 'Bartholomew Simpson' } });
        renderItem(ticket, agent);
        expect(screen.getByTestId(`ticket-name-${ticket.id}`).textContent).toBe('Bartholome');
      },
    ));

  it('keeps the full name on wide screens', () => {
    const ticket = createTicket({ contact: { ...createTicket().contact, name: 'Bartholomew Simpson' } });
    renderItem(ticket, agent);
    expect(screen.getByTestId(`ticket-name-${ticket.id}`).textContent).toBe('Bartholomew Simpson');
  });
});
