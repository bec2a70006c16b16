import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SessionUser } from '@zapdesk/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../lib/i18n';
import { createSessionUser, createWhatsapp } from '../../test/fixtures';
import { json } from '../../test/http';
import { renderWithLocation } from '../../test/render';
import { NewTicketModal } from './new-ticket-modal';
import { createTicket } from './test-fixtures';

const maria = {
  id: 41,
  name: 'Maria Souza',
  number: '5511988887777',
  email: '',
  profilePicUrl: null,
  isGroup: false,
  companyId: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

function renderModal(user: SessionUser, onClose = vi.fn()) {
  renderWithLocation(<NewTicketModal onClose={onClose} />, { user, route: '/tickets' });
  return onClose;
}

describe('NewTicketModal', { timeout: 15_000 }, () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let createAnswer: () => Response;
  const agent = createSessionUser({
    id: 7,
    profile: 'user',
    queues: [
      { id: 1, name: 'Sales', color: '#ff0000' },
      { id: 2, name: 'Support', color: '#0000ff' },
    ],
  });

  beforeEach(() => {
    createAnswer = () => json(201, createTicket({ uuid: 'new-uuid', userId: 7 }));
    fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const method = init?.method ?? 'GET';
      if (url.startsWith('/api/contacts')) return json(200, { contacts: [maria], hasMore: false, count: 1 });
      if (url.startsWith('/api/whatsapp')) return json(200, [createWhatsapp({ id: 5, name: 'Phone A' })]);
      if (url.startsWith('/api/queue')) return json(200, []);
      if (url === '/api/tickets' && method === 'POST') return createAnswer();
      return json(404, { error: 'ERR_NOT_FOUND' });
    });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  const contactCalls = () => fetchMock.mock.calls.filter(([url]) => String(url).startsWith('/api/contacts'));
  const posts = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');

  async function chooseContactAndQueue(user: ReturnType<typeof userEvent.setup>) {
    await user.type(screen.getByTestId('new-ticket-contact'), 'mar');
    await user.click(await screen.findByText(/Maria Souza/, {}, { timeout: 2000 }));
    await user.click(screen.getByRole('combobox', { name: 'Queue' }));
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Support' }));
  }

  it("shows the spec's quoted 'select queue' in pt (core section 5)", async () => {
    await i18n.changeLanguage('pt');
    try {
      const user = userEvent.setup();
      renderModal(agent);
      await user.click(screen.getByTestId('new-ticket-save'));
      expect(await screen.findByText('select queue')).toBeTruthy();
      expect(screen.getByText('Obrigatório')).toBeTruthy();
      expect(screen.queryByText('Selecione uma fila')).toBeNull();
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('searches contacts only from 3 characters and requires a contact and, for non-admins, a queue', async () => {
    const user = userEvent.setup();
    renderModal(agent);
    await user.type(screen.getByTestId('new-ticket-contact'), 'ma');
    await new Promise((r) => setTimeout(r, 700));
    expect(contactCalls()).toHaveLength(0);
    await user.type(screen.getByTestId('new-ticket-contact'), 'r');
    await waitFor(() => expect(contactCalls()).toHaveLength(1), { timeout: 2000 });
    expect(String(contactCalls()[0]?.[0])).toContain('searchParam=mar');

    await user.clear(screen.getByTestId('new-ticket-contact'));
    await user.click(screen.getByTestId('new-ticket-save'));
    expect(await screen.findByText('Select queue')).toBeTruthy();
    expect(screen.getByText('Required')).toBeTruthy();
    expect(posts()).toHaveLength(0);
  });

  it('lets admins create without a queue', async () => {
    const user = userEvent.setup();
    renderModal(createSessionUser({ id: 7, profile: 'admin' }));
    await user.type(screen.getByTestId('new-ticket-contact'), 'mar');
    await user.click(await screen.findByText(/Maria Souza/, {}, { timeout: 2000 }));
    await user.click(screen.getByTestId('new-ticket-save'));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(JSON.parse(String(posts()[0]?.[1]?.body))).toMatchObject({ contactId: 41, queueId: null });
  });

  it('creates the ticket and opens it', async () => {
    const user = userEvent.setup();
    const onClose = renderModal(agent);
    await chooseContactAndQueue(user);
    await user.click(screen.getByTestId('new-ticket-save'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/tickets/new-uuid'));
    expect(onClose).toHaveBeenCalled();
    expect(JSON.parse(String(posts()[0]?.[1]?.body))).toMatchObject({
      contactId: 41,
      queueId: 2,
      userId: 7,
      status: 'open',
    });
  });

  it('ERR_OTHER_OPEN_TICKET of another user: names that user and queue and stays', async () => {
    const user = userEvent.setup();
    createAnswer = () =>
      json(409, {
        error: 'ERR_OTHER_OPEN_TICKET',
        ticket: createTicket({
          uuid: 'theirs',
          userId: 12,
          user: { id: 12, name: 'Carlos' },
          queueId: 2,
          queue: { id: 2, name: 'Support', color: '#0000ff' },
        }),
      });
    const onClose = renderModal(agent);
    await chooseContactAndQueue(user);
    await user.click(screen.getByTestId('new-ticket-save'));
    const alert = await screen.findByTestId('new-ticket-conflict');
    expect(alert.textContent).toContain('Carlos');
    expect(alert.textContent).toContain('Support');
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByTestId('location').textContent).toBe('/tickets');
    expect(screen.getByTestId('new-ticket-modal')).toBeTruthy();
  });

  it('ERR_OTHER_OPEN_TICKET without another owner: closes and opens the existing ticket', async () => {
    const user = userEvent.setup();
    createAnswer = () =>
      json(409, { error: 'ERR_OTHER_OPEN_TICKET', ticket: createTicket({ uuid: 'existing', user: null }) });
    const onClose = renderModal(agent);
    await chooseContactAndQueue(user);
    await user.click(screen.getByTestId('new-ticket-save'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/tickets/existing'));
    expect(onClose).toHaveBeenCalled();
    expect(screen.queryByTestId('new-ticket-conflict')).toBeNull();
  });

  it('ERR_OTHER_OPEN_TICKET owned by me: opens it too', async () => {
    const user = userEvent.setup();
    createAnswer = () =>
      json(409, {
        error: 'ERR_OTHER_OPEN_TICKET',
        ticket: createTicket({ uuid: 'mine', userId: 7, user: { id: 7, name: 'Me' } }),
      });
    renderModal(agent);
    await chooseContactAndQueue(user);
    await user.click(screen.getByTestId('new-ticket-save'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/tickets/mine'));
  });
});
