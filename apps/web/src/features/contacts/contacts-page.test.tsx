import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Contact } from '@zapdesk/shared';
import { Route, Routes, useParams } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readSession, writeSession } from '../../lib/storage';
import { createSessionUser } from '../../test/fixtures';
import { answerFirst, json, stubFetch } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { scrollBoxTo } from '../../test/scroll';
import { layOutVirtualListsInEachTest } from '../../test/virtual-layout';
import { ContactModal } from './contact-modal';
import { ContactsPage } from './contacts-page';

const contact = (id: number, overrides: Partial<Contact> = {}): Contact => ({
  id,
  name: `Contato ${id}`,
  number: `55119000000${id}`,
  email: `c${id}@example.com`,
  profilePicUrl: null,
  isGroup: false,
  companyId: 1,
  extraInfo: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

describe('ContactsPage', () => {
  layOutVirtualListsInEachTest({ viewportHeight: 2000, rowHeight: 45 });
  let pages: Record<number, { contacts: Contact[]; hasMore: boolean; count: number }>;

  const fetchMock = stubFetch(({ url: path, method, init }) => {
    const url = new URL(path, 'http://localhost');
    if (url.pathname === '/api/contacts' && method === 'GET') {
      const search = url.searchParams.get('searchParam') ?? '';
      if (search) return json(200, { contacts: [contact(9, { name: search })], hasMore: false, count: 1 });
      return json(200, pages[Number(url.searchParams.get('pageNumber') ?? 1)]);
    }
    if (url.pathname === '/api/tickets' && method === 'POST') {
      const body = JSON.parse(String(init?.body));
      if (body.contactId === 2)
        return json(409, { error: 'ERR_OTHER_OPEN_TICKET', ticket: { uuid: 'existing-uuid' } });
      return json(201, { id: 5, uuid: 'new-uuid' });
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
  beforeEach(() => {
    pages = {
      1: { contacts: [contact(1), contact(2, { name: 'Ana; "Aspas"' })], hasMore: true, count: 3 },
      2: { contacts: [contact(3)], hasMore: false, count: 3 },
    };
  });

  it('lists contacts with avatar, number, email and actions; delete only for admins', async () => {
    renderWithProviders(<ContactsPage />, { user: createSessionUser({ profile: 'user' }) });
    const row = await screen.findByTestId('contact-row-1');
    expect(within(row).getByText('Contato 1')).toBeTruthy();
    expect(within(row).getByText('551190000001')).toBeTruthy();
    expect(within(row).getByText('c1@example.com')).toBeTruthy();
    expect(screen.getByTestId('contact-chat-1')).toBeTruthy();
    expect(screen.getByTestId('contact-edit-1')).toBeTruthy();
    expect(screen.queryByTestId('contact-delete-1')).toBeNull();
    expect(screen.getByTestId('contacts-table')).toBeTruthy();
  });

  it('loads the next page at once when the first does not fill the table', async () => {
    renderWithProviders(<ContactsPage />, { user: createSessionUser() });
    expect(await screen.findByTestId('contact-row-3')).toBeTruthy();
    const table = screen.getByTestId('contacts-table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['', 'Name', 'WhatsApp', 'Email', 'Actions']);
  });

  it('loads the next page once the table is scrolled to within 100 px of its end', async () => {
    pages = {
      1: { contacts: Array.from({ length: 80 }, (_, i) => contact(i + 1)), hasMore: true, count: 81 },
      2: { contacts: [contact(99)], hasMore: false, count: 81 },
    };
    const pageCalls = () =>
      fetchMock.mock.calls.filter(
        ([u]) => new URL(String(u), 'http://localhost').pathname === '/api/contacts',
      );
    renderWithProviders(<ContactsPage />, { user: createSessionUser() });
    await screen.findByTestId('contact-row-1');
    // 80 rows of 45 px in a 2,000 px box: the end is 1,600 px below the box's bottom.
    const box = screen.getByTestId('contacts-table');
    expect(within(box).queryByTestId('contact-row-80')).toBeNull();
    await new Promise((r) => setTimeout(r, 100));
    expect(pageCalls()).toHaveLength(1);
    scrollBoxTo(box, 1450);
    await new Promise((r) => setTimeout(r, 100));
    expect(pageCalls()).toHaveLength(1);
    expect(screen.getByTestId('contact-row-79')).toBeTruthy();
    scrollBoxTo(box, 1550);
    expect(await screen.findByTestId('contact-row-99')).toBeTruthy();
    expect(
      pageCalls().map(([u]) => new URL(String(u), 'http://localhost').searchParams.get('pageNumber')),
    ).toEqual(['1', '2']);
  });

  it('shows delete for admins, asks for confirmation, then calls DELETE', async () => {
    const user = userEvent.setup();
    fetchMock.mockImplementationOnce(async () => json(200, pages[1]));
    renderWithProviders(<ContactsPage />, { user: createSessionUser({ profile: 'admin' }) });
    await user.click(await screen.findByTestId('contact-delete-1'));
    expect(fetchMock.mock.calls.some(([, i]) => (i as RequestInit | undefined)?.method === 'DELETE')).toBe(
      false,
    );
    await user.click(await screen.findByRole('button', { name: /yes|ok|delete|confirm/i }));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(
          ([u, i]) => String(u) === '/api/contacts/1' && (i as RequestInit | undefined)?.method === 'DELETE',
        ),
      ).toBe(true),
    );
  });

  it('searches after the debounce', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ContactsPage />, { user: createSessionUser() });
    await screen.findByTestId('contact-row-1');
    await user.type(screen.getByTestId('contacts-search'), 'maria');
    expect(await screen.findByTestId('contact-row-9', {}, { timeout: 2000 })).toBeTruthy();
    const searches = fetchMock.mock.calls.filter(([u]) => String(u).includes('searchParam=m'));
    expect(searches.map(([u]) => new URL(String(u), 'http://x').searchParams.get('searchParam'))).toEqual([
      'maria',
    ]);
  });

  /** The contacts page with a ticket route that shows the uuid it opened; answers the user-event driver. */
  function renderWithTicketRoute() {
    const user = userEvent.setup();
    const TicketRoute = () => <div data-testid="ticket-route">{useParams().uuid}</div>;
    renderWithProviders(
      <Routes>
        <Route path="/" element={<ContactsPage />} />
        <Route path="/tickets/:uuid" element={<TicketRoute />} />
      </Routes>,
      { user: createSessionUser() },
    );
    return user;
  }

  it('starts a chat, or opens the existing ticket on ERR_OTHER_OPEN_TICKET', async () => {
    const user = renderWithTicketRoute();
    await user.click(await screen.findByTestId('contact-chat-2'));
    expect((await screen.findByTestId('ticket-route')).textContent).toBe('existing-uuid');
    const call = fetchMock.mock.calls.find(([u]) => String(u) === '/api/tickets');
    expect(JSON.parse(String((call![1] as RequestInit).body))).toEqual({ contactId: 2 });
  });

  it('opens the new ticket after starting a chat', async () => {
    const user = renderWithTicketRoute();
    await user.click(await screen.findByTestId('contact-chat-1'));
    expect((await screen.findByTestId('ticket-route')).textContent).toBe('new-uuid');
  });

  it('uploads an .xlsx, refreshing an expired token once, and shows new contacts and the error bag', async () => {
    writeSession('old-token', 1, 5);
    const sent: { token: string | undefined; form: FormData }[] = [];
    answerFirst(fetchMock, (request) => {
      const url = new URL(request.url, 'http://localhost');
      if (url.pathname === '/api/auth/refresh_token')
        return json(200, {
          token: 'new-token',
          user: createSessionUser({ id: 5 }),
          dueDateWarningDays: null,
        });
      if (url.pathname === '/api/contacts/upload') {
        const token = (request.init?.headers as Record<string, string> | undefined)?.Authorization;
        sent.push({ token, form: request.init?.body as FormData });
        if (token === 'Bearer old-token') return json(403, { error: 'ERR_SESSION_EXPIRED' });
        return json(200, {
          newContacts: [{ contactId: 41, contactName: 'Nova Pessoa' }],
          errorBag: [
            { contactName: 'Sem Numero', error: 'ERR_INVALID_NUMBER' },
            { contactName: 'Repetida', error: 'ERR_DUPLICATED_CONTACT' },
          ],
        });
      }
    });
    renderWithProviders(<ContactsPage />, { user: createSessionUser() });
    const input = (await screen.findByTestId('import-contacts-input')) as HTMLInputElement;
    const file = new File(['x'], 'contatos.xlsx', {
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    fireEvent.change(input, { target: { files: [file] } });
    expect(await screen.findByTestId('import-progress')).toBeTruthy();
    const result = await screen.findByTestId('import-result');
    expect(within(result).getByText('Nova Pessoa')).toBeTruthy();
    const errors = within(result)
      .getAllByTestId('import-error')
      .map((e) => e.textContent);
    expect(errors).toEqual([
      'Sem Numero: Invalid number',
      'Repetida: A contact with this number already exists',
    ]);
    expect(sent.map((s) => s.token)).toEqual(['Bearer old-token', 'Bearer new-token']);
    expect((sent[1]!.form.get('file') as File).name).toBe('contatos.xlsx');
    expect(
      fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/api/auth/refresh_token')),
    ).toHaveLength(1);
    expect(readSession()?.token).toBe('new-token');
  });

  it('refuses a non-xlsx file without uploading', async () => {
    renderWithProviders(<ContactsPage />, { user: createSessionUser() });
    const input = (await screen.findByTestId('import-contacts-input')) as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['a;b'], 'contatos.csv', { type: 'text/csv' })] } });
    expect(await screen.findByText('Please send an .xlsx spreadsheet.')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/contacts/upload'))).toBe(false);
  });

  it("saves the server's streamed export as contatos.csv in one request", async () => {
    const user = userEvent.setup();
    const csv = [
      '\uFEFFname;number;email',
      'Contato 1;551190000001;c1@example.com',
      '"Ana; ""Aspas""";551190000002;c2@example.com',
      'Contato 3;551190000003;c3@example.com',
    ].join('\r\n');
    answerFirst(fetchMock, ({ url }) =>
      url === '/api/contacts/export'
        ? new Response(csv, { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8' } })
        : undefined,
    );
    const blobs: Blob[] = [];
    const names: string[] = [];
    vi.stubGlobal(
      'URL',
      Object.assign(URL, {
        createObjectURL: (b: Blob) => {
          blobs.push(b);
          return 'blob:x';
        },
        revokeObjectURL: () => {},
      }),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      names.push(this.download);
    });
    renderWithProviders(<ContactsPage />, { user: createSessionUser() });
    await user.click(await screen.findByTestId('export-contacts-button'));
    await waitFor(() => expect(blobs).toHaveLength(1));
    click.mockRestore();
    expect(names).toEqual(['contatos.csv']);
    const text = (await blobs[0]!.text()).replace(/^\uFEFF/, '');
    expect(text.split('\r\n')).toEqual([
      'name;number;email',
      'Contato 1;551190000001;c1@example.com',
      '"Ana; ""Aspas""";551190000002;c2@example.com',
      'Contato 3;551190000003;c3@example.com',
    ]);
    expect(
      fetchMock.mock.calls.filter(([url]) => String(url).startsWith('/api/contacts/export')),
    ).toHaveLength(1);
  });
});

describe('ContactModal', () => {
  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        if (String(input) === '/api/contacts' && init?.method === 'POST') {
          const body = JSON.parse(String(init.body));
          if (body.number === '5511999990000')
            return json(409, { error: 'ERR_DUPLICATED_CONTACT', field: 'number' });
          return json(200, contact(7, body));
        }
        return json(404, { error: 'ERR_NOT_FOUND' });
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('validates name, number and email', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ContactModal open onClose={() => {}} />, { user: createSessionUser() });
    await user.click(screen.getByTestId('contact-modal-save'));
    expect(await screen.findByText('Required')).toBeTruthy();
    await user.type(screen.getByLabelText('Name'), 'A');
    await user.type(screen.getByLabelText('WhatsApp number'), '123');
    await user.type(screen.getByLabelText('Email address'), 'bad');
    await user.click(screen.getByTestId('contact-modal-save'));
    await waitFor(() => expect(screen.getAllByText('Too Short!')).toHaveLength(2));
    expect(screen.getByText('Invalid email')).toBeTruthy();
  });

  it('sends extra info rows (added and removed) and shows a duplicate number', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderWithProviders(<ContactModal open onClose={onClose} />, { user: createSessionUser() });
    await user.type(screen.getByLabelText('Name'), 'Maria');
    await user.type(screen.getByLabelText('WhatsApp number'), '5511999990000');
    await user.click(screen.getByTestId('contact-extra-add'));
    await user.click(screen.getByTestId('contact-extra-add'));
    await user.click(screen.getByTestId('contact-extra-remove-1'));
    await user.type(screen.getByLabelText('Field name'), 'CPF');
    await user.type(screen.getByLabelText('Value'), '123');
    await user.click(screen.getByTestId('contact-modal-save'));
    expect(await screen.findByText('A contact with this number already exists.')).toBeTruthy();
    const fetchMock = fetch as unknown as ReturnType<typeof vi.fn>;
    const body = JSON.parse(String((fetchMock.mock.calls[0]![1] as RequestInit).body));
    expect(body.extraInfo).toEqual([{ name: 'CPF', value: '123' }]);
    expect(onClose).not.toHaveBeenCalled();
    await user.clear(screen.getByLabelText('WhatsApp number'));
    await user.type(screen.getByLabelText('WhatsApp number'), '5511999990001');
    await user.click(screen.getByTestId('contact-modal-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });
});
