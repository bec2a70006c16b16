import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { createSessionUser } from '../../test/fixtures';
import { answerFirst, json, stubFetch } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { QuickMessageModal } from './quick-message-modal';
import { QuickMessagesPage } from './quick-messages-page';

const record = (overrides = {}) => ({
  id: 9,
  shortcode: 'ola',
  message: 'Olá!',
  mediaPath: null,
  mediaName: null,
  isMedia: false,
  geral: true,
  userId: 1000,
  ...overrides,
});

describe('quick messages', () => {
  const agent = createSessionUser({ profile: 'user' });

  const fetchMock = stubFetch(({ url, method, init }) => {
    if (url.startsWith('/api/quick-messages?'))
      return json(200, {
        records: [record(), record({ id: 10, shortcode: 'meu', geral: false, userId: agent.id })],
        hasMore: false,
      });
    if (url === '/api/quick-messages' && method === 'POST')
      return json(201, record({ id: 11, ...JSON.parse(String(init?.body)), userId: agent.id }));
    if (url === '/api/quick-messages/11/media-upload' && method === 'POST')
      return json(200, record({ id: 11, mediaPath: 'x.png', mediaName: 'foto.png' }));
    if (url === '/api/quick-messages/10' && method === 'DELETE') return new Response(null, { status: 204 });
    return json(404, { error: 'ERR_NOT_FOUND' });
  });

  it("shows the attachment's name in the list", async () => {
    fetchMock.mockImplementation(async () =>
      json(200, {
        records: [record({ mediaPath: 'a1.pdf', mediaName: 'tabela de preços.pdf', isMedia: true })],
        hasMore: false,
      }),
    );
    renderWithProviders(<QuickMessagesPage />, { user: agent });
    expect((await screen.findByTestId('quick-message-media-9')).textContent).toBe('tabela de preços.pdf');
  });

  it('lists quick messages; a user edits and deletes only its own, after confirmation', async () => {
    const user = userEvent.setup();
    renderWithProviders(<QuickMessagesPage />, { user: agent });
    expect(await screen.findByText('/ola')).toBeTruthy();
    expect(screen.queryByTestId('quick-message-edit-9')).toBeNull();
    await user.click(screen.getByTestId('quick-message-delete-10'));
    await user.click(await screen.findByTestId('confirm-button'));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(
          ([url, init]) => url === '/api/quick-messages/10' && init?.method === 'DELETE',
        ),
      ).toBe(true),
    );
  });

  it('requires a shortcode', async () => {
    const user = userEvent.setup();
    renderWithProviders(<QuickMessageModal open onClose={() => {}} />, { user: agent });
    await user.click(screen.getByTestId('quick-message-save'));
    expect(await screen.findByText('Required')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/quick-messages')).toBe(false);
  });

  it('saves company-wide and uploads the chosen file', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderWithProviders(<QuickMessageModal open onClose={onClose} />, { user: agent });
    await user.type(screen.getByTestId('quick-message-shortcode'), 'foto');
    await user.type(screen.getByTestId('quick-message-message'), 'Veja a foto');
    await user.click(screen.getByTestId('quick-message-geral'));
    await user.upload(
      screen.getByTestId('quick-message-file'),
      new File(['png'], 'foto.png', { type: 'image/png' }),
    );
    expect(screen.getByText('foto.png')).toBeTruthy();
    await user.click(screen.getByTestId('quick-message-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const post = fetchMock.mock.calls.find(([url]) => url === '/api/quick-messages');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({
      shortcode: 'foto',
      message: 'Veja a foto',
      geral: true,
    });
    const upload = fetchMock.mock.calls.find(([url]) => url === '/api/quick-messages/11/media-upload');
    const form = upload?.[1]?.body as FormData;
    expect(form.get('typeArch')).toBe('quickMessage');
    expect((form.get('file') as File).name).toBe('foto.png');
  });

  it('a refused file leaves the record saved, says why and closes (no second create)', async () => {
    answerFirst(fetchMock, ({ url }) =>
      url.endsWith('/media-upload') ? json(415, { error: 'ERR_UNSUPPORTED_MEDIA_TYPE' }) : undefined,
    );
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderWithProviders(<QuickMessageModal open onClose={onClose} />, { user: agent });
    await user.type(screen.getByTestId('quick-message-shortcode'), 'doc');
    await user.upload(
      screen.getByTestId('quick-message-file'),
      new File(['exe'], 'programa.png', { type: 'image/png' }),
    );
    await user.click(screen.getByTestId('quick-message-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(await screen.findByText('Unsupported content type.')).toBeTruthy();
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/quick-messages')).toHaveLength(1);
  });
});
