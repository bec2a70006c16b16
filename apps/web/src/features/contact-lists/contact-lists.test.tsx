import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { createSessionUser } from '../../test/fixtures';
import { json, stubFetch } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { ContactListItemsPage } from './contact-list-items-page';
import { ContactListsPage } from './contact-lists-page';
import { applyContactListsEvent, contactListKeys } from './use-contact-lists';

const admin = createSessionUser({ profile: 'admin' }, { useCampaigns: true });
const item = {
  id: 9,
  name: 'Maria Silva',
  number: '5511999990001',
  email: 'maria@x.com',
  companyId: 1,
  contactListId: 5,
};

describe('contact lists pages', () => {
  let uploadAnswer: Response;
  const fetchMock = stubFetch(({ url, method, init }) => {
    if (url.startsWith('/api/contact-lists?'))
      return json(200, { records: [{ id: 5, name: 'Clientes VIP', contactsCount: 1234 }], hasMore: false });
    if (url === '/api/contact-lists/5' && method === 'GET')
      return json(200, { id: 5, name: 'Clientes VIP', contactsCount: 2 });
    if (url === '/api/contact-lists/5/import') return json(200, null);
    if (url === '/api/contact-lists/5/upload') return uploadAnswer;
    if (url.startsWith('/api/contact-list-items?'))
      return json(200, {
        contacts: [
          { ...item, isWhatsappValid: true },
          { ...item, id: 10, name: 'João', number: '5511999990002', isWhatsappValid: false },
        ],
        hasMore: false,
      });
    if (url === '/api/contact-lists/5' && method === 'PUT')
      return json(200, { id: 5, contactsCount: 2, ...JSON.parse(String(init?.body)) });
    if (url === '/api/contact-list-items/9' && method === 'PUT')
      return json(200, { ...item, ...JSON.parse(String(init?.body)), isWhatsappValid: true });
    if (url === '/api/contact-list-items/9') return json(200, { ...item, isWhatsappValid: true });
    if (url === '/api/contact-list-items' && method === 'POST')
      return json(201, { ...item, id: 11, ...JSON.parse(String(init?.body)), isWhatsappValid: null });
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
  beforeEach(() => {
    uploadAnswer = json(202, {
      id: 1,
      contactListId: 5,
      status: 'pending',
      total: 0,
      processed: 0,
      imported: 0,
      duplicates: 0,
      errors: [],
    });
  });

  const renderItems = (user = admin) =>
    renderWithProviders(
      <Routes>
        <Route path="/contact-lists/:contactListId/contacts" element={<ContactListItemsPage />} />
      </Routes>,
      { user, route: '/contact-lists/5/contacts' },
    );

  it('offers add and import to admins only (the list routes are theirs)', async () => {
    const agentView = renderItems(createSessionUser({ profile: 'user' }, { useCampaigns: true }));
    await screen.findByText('Maria Silva');
    expect(screen.queryByTestId('contact-list-import')).toBeNull();
    expect(screen.queryByTestId('add-contact-list-item')).toBeNull();
    agentView.unmount();
    renderItems();
    await screen.findByText('Maria Silva');
    expect(screen.getByTestId('contact-list-import')).toBeTruthy();
    expect(screen.getByTestId('add-contact-list-item')).toBeTruthy();
  });

  it('lists name and contact count with sample, open, edit and delete actions', async () => {
    renderWithProviders(<ContactListsPage />, { user: admin });
    expect(await screen.findByText('Clientes VIP')).toBeTruthy();
    expect(screen.getByText('1234')).toBeTruthy();
    for (const id of [
      'contact-list-sample-5',
      'contact-list-open-5',
      'contact-list-edit-5',
      'contact-list-delete-5',
    ])
      expect(screen.getByTestId(id)).toBeTruthy();
  });

  it('validates the list name (2 to 50 characters) before saving', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ContactListsPage />, { user: admin });
    await user.click(await screen.findByTestId('add-contact-list'));
    // The modal is a lazy chunk.
    await user.type(await screen.findByTestId('contact-list-name'), 'a');
    await user.click(screen.getByTestId('contact-list-save'));
    expect(await screen.findByText('Too Short!')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalledWith(
      '/api/contact-lists',
      expect.objectContaining({ method: 'POST' }),
    );
  });

  const bodyOf = (url: string, method: string) =>
    JSON.parse(String(fetchMock.mock.calls.find(([u, i]) => u === url && i?.method === method)?.[1]?.body));

  it('edits a list: the typed name stays and SALVAR sends it', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ContactListsPage />, { user: admin });
    await user.click(await screen.findByTestId('contact-list-edit-5'));
    const name = await screen.findByTestId('contact-list-name');
    await waitFor(() => expect((name as HTMLInputElement).value).toBe('Clientes VIP'));
    await user.clear(name);
    await user.type(name, 'Clientes Ouro');
    expect((name as HTMLInputElement).value).toBe('Clientes Ouro');
    await user.click(screen.getByTestId('contact-list-save'));
    await waitFor(() => expect(bodyOf('/api/contact-lists/5', 'PUT')).toEqual({ name: 'Clientes Ouro' }));
    await waitFor(() => expect(screen.queryByTestId('contact-list-modal')).toBeNull());
  });

  it('edits a contact of a list: the typed fields stay and SALVAR sends them with the list id', async () => {
    const user = userEvent.setup();
    renderItems();
    await screen.findByText('Maria Silva');
    await user.click(screen.getByTestId('contact-list-item-edit-9'));
    const name = await screen.findByTestId('contact-list-item-name');
    await waitFor(() => expect((name as HTMLInputElement).value).toBe('Maria Silva'));
    await user.clear(name);
    await user.type(name, 'Maria Souza');
    await user.clear(screen.getByTestId('contact-list-item-email'));
    await user.type(screen.getByTestId('contact-list-item-email'), 'ms@x.com');
    expect((name as HTMLInputElement).value).toBe('Maria Souza');
    await user.click(screen.getByTestId('contact-list-item-save'));
    await waitFor(() =>
      expect(bodyOf('/api/contact-list-items/9', 'PUT')).toEqual({
        name: 'Maria Souza',
        number: '5511999990001',
        email: 'ms@x.com',
        contactListId: 5,
      }),
    );
  });

  it('shows items with their WhatsApp validity and adds one with the list id', async () => {
    const user = userEvent.setup();
    renderItems();
    expect(await screen.findByText('Maria Silva')).toBeTruthy();
    expect(screen.getByTestId('validity-valid')).toBeTruthy();
    expect(screen.getByTestId('validity-invalid')).toBeTruthy();
    expect(await screen.findByText('Contacts: Clientes VIP')).toBeTruthy();
    await user.click(screen.getByTestId('add-contact-list-item'));
    await user.type(await screen.findByTestId('contact-list-item-name'), 'Ana Souza');
    await user.type(screen.getByTestId('contact-list-item-number'), '5511988887777');
    await user.click(screen.getByTestId('contact-list-item-save'));
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        '/api/contact-list-items',
        expect.objectContaining({ method: 'POST' }),
      ),
    );
    const post = fetchMock.mock.calls.find(([url]) => url === '/api/contact-list-items');
    expect(JSON.parse(String(post?.[1]?.body))).toMatchObject({
      contactListId: 5,
      name: 'Ana Souza',
      number: '5511988887777',
    });
  });

  it('uploads a sheet, then shows live progress and the per-row error bag', async () => {
    const user = userEvent.setup();
    const { queryClient } = renderItems();
    await screen.findByText('Maria Silva');
    const file = new File([new Uint8Array([0x50, 0x4b, 3, 4])], 'lista.xlsx');
    await user.upload(screen.getByTestId('contact-list-import-input'), file);
    expect(await screen.findByText('Importing… 0 rows read')).toBeTruthy();
    const base = { id: 1, contactListId: 5, total: 3, processed: 3, imported: 2, duplicates: 0 };
    act(() =>
      applyContactListsEvent(queryClient, {
        action: 'import',
        import: { ...base, processed: 1, status: 'running', errors: [] },
      }),
    );
    expect((await screen.findByTestId('contact-list-import-progress')).textContent).toBe(
      'Importing… 1 of 3 rows',
    );
    act(() =>
      applyContactListsEvent(queryClient, {
        action: 'import',
        import: { ...base, status: 'done', errors: [{ row: 3, field: 'number', message: 'tooShort' }] },
      }),
    );
    expect(await screen.findByText(/2 imported, 0 duplicates skipped, 1 rows with errors/)).toBeTruthy();
    expect(screen.getByText('Row 3 – Number: Too Short!')).toBeTruthy();
    expect(queryClient.getQueryData(contactListKeys.import(5))).toMatchObject({ status: 'done' });
  });

  it('names the .xls format when the server refuses it', async () => {
    uploadAnswer = json(415, {
      error: 'ERR_UNSUPPORTED_MEDIA_TYPE',
      message: 'xlsNotSupported',
      format: 'xls',
    });
    const user = userEvent.setup();
    renderItems();
    await screen.findByText('Maria Silva');
    await user.upload(screen.getByTestId('contact-list-import-input'), new File(['x'], 'lista.xls'));
    expect(await screen.findByText(/The .xls format \(Excel 97–2003\) is not supported/)).toBeTruthy();
  });
});
