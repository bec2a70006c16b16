import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { createSessionUser } from '../../test/fixtures';
import { json, stubFetch } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { FileListModal } from './file-list-modal';
import { FilesPage } from './files-page';

const LIST = {
  id: 7,
  name: 'Tabela de preços',
  message: 'Segue a tabela',
  userId: 1,
  options: [{ id: 70, name: 'Preços', path: 'a'.repeat(32).concat('.pdf'), mediaType: 'application/pdf' }],
};

describe('file lists', () => {
  const admin = createSessionUser({ profile: 'admin' });

  const fetchMock = stubFetch(({ url, method, init }) => {
    if (url.startsWith('/api/files?') && method === 'GET')
      return json(200, {
        files: [LIST, { ...LIST, id: 8, name: 'Catálogo', options: [] }],
        hasMore: false,
      });
    if (url === '/api/files/7' && method === 'GET') return json(200, LIST);
    if (url === '/api/files' && method === 'POST')
      return json(201, { id: 9, userId: 1, options: [], ...JSON.parse(String(init?.body)) });
    if (url === '/api/files/7' && method === 'PUT') return json(200, LIST);
    if (url.startsWith('/api/files/uploadList/') && method === 'POST') return json(200, LIST);
    if (url === '/api/files/8' && method === 'DELETE') return new Response(null, { status: 204 });
    return json(404, { error: 'ERR_NOT_FOUND' });
  });

  it('lists the names with the count in the title', async () => {
    renderWithProviders(<FilesPage />, { user: admin });
    expect(await screen.findByText('Tabela de preços')).toBeTruthy();
    expect(screen.getByText('Catálogo')).toBeTruthy();
    expect(screen.getByText('File lists (2)')).toBeTruthy();
  });

  it('asks before deleting and deletes', async () => {
    const user = userEvent.setup();
    renderWithProviders(<FilesPage />, { user: admin });
    await user.click(await screen.findByTestId('file-list-delete-8'));
    expect(await screen.findByText('Delete Catálogo?')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalledWith('/api/files/8', expect.objectContaining({ method: 'DELETE' }));
    await user.click(screen.getByRole('button', { name: /delete|confirm|yes/i }));
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith('/api/files/8', expect.objectContaining({ method: 'DELETE' })),
    );
  });

  it('validates the name (min 3) and the message (required) before saving', async () => {
    const user = userEvent.setup();
    renderWithProviders(<FileListModal open onClose={() => {}} />, { user: admin });
    await user.type(screen.getByTestId('file-list-name'), 'ab');
    await user.click(screen.getByTestId('file-list-save'));
    expect(await screen.findByText('Name too short')).toBeTruthy();
    expect(screen.getByText('Required')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalledWith('/api/files', expect.anything());
  });

  it('creates a list, then uploads the chosen file with the spec form fields', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderWithProviders(<FileListModal open onClose={onClose} />, { user: admin });
    await user.type(screen.getByTestId('file-list-name'), 'Catálogo');
    await user.type(screen.getByTestId('file-list-message'), 'Veja o catálogo');
    await user.click(screen.getByTestId('file-option-add'));
    await user.upload(
      screen.getByTestId('file-option-file-0'),
      new File(['%PDF-1.4'], 'catalogo.pdf', { type: 'application/pdf' }),
    );
    await user.click(screen.getByTestId('file-list-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const post = fetchMock.mock.calls.find(([url]) => url === '/api/files');
    // The new option with a file is created by the upload, not as an empty slot.
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({
      name: 'Catálogo',
      message: 'Veja o catálogo',
      options: [],
    });
    const upload = fetchMock.mock.calls.find(([url]) => url === '/api/files/uploadList/9');
    const form = upload?.[1]?.body as FormData;
    expect(form.get('typeArch')).toBe('fileList');
    expect(form.get('fileId')).toBe('9');
    expect((form.get('files') as File).name).toBe('catalogo.pdf');
    expect(form.get('name')).toBe('catalogo.pdf');
    expect(form.get('id')).toBe('');
    expect(await screen.findByText('File list saved successfully.')).toBeTruthy();
  });

  it('edits: keeps the existing option and removes a deleted one', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderWithProviders(<FileListModal open fileListId={7} onClose={onClose} />, { user: admin });
    expect(await screen.findByDisplayValue('Preços')).toBeTruthy();
    await user.click(screen.getByTestId('file-option-remove-0'));
    await user.click(screen.getByTestId('file-list-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const put = fetchMock.mock.calls.find(([url, init]) => url === '/api/files/7' && init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toMatchObject({ name: 'Tabela de preços', options: [] });
  });
});
