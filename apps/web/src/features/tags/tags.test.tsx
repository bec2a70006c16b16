import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import i18n from '../../lib/i18n';
import { createSessionUser } from '../../test/fixtures';
import { json, stubFetch } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { TagModal } from './tag-modal';
import { TagsPage } from './tags-page';

describe('tags', () => {
  const admin = createSessionUser({ profile: 'admin' });
  const agent = createSessionUser({ profile: 'user' });

  const fetchMock = stubFetch(({ url, method, init }) => {
    if (url.startsWith('/api/tags/?'))
      return json(200, {
        tags: [{ id: 3, name: 'VIP', color: '#FF0000', kanban: 1, ticketsCount: 12 }],
        hasMore: false,
      });
    if (url === '/api/tags' && method === 'POST')
      return json(201, { id: 4, ...JSON.parse(String(init?.body)) });
    return json(404, { error: 'ERR_NOT_FOUND' });
  });

  it('lists name chip and ticket count, with the kanban column for admins only', async () => {
    renderWithProviders(<TagsPage />, { user: admin });
    expect(await screen.findByText('VIP')).toBeTruthy();
    expect(screen.getByText('12')).toBeTruthy();
    expect(screen.getByText('Kanban')).toBeTruthy();
  });

  it('hides the kanban column from agents', async () => {
    renderWithProviders(<TagsPage />, { user: agent });
    expect(await screen.findByText('VIP')).toBeTruthy();
    expect(screen.queryByText('Kanban')).toBeNull();
  });

  it('validates the name with the tag form messages before saving', async () => {
    const user = userEvent.setup();
    renderWithProviders(<TagModal open onClose={() => {}} />, { user: admin });
    await user.click(screen.getByTestId('tag-save'));
    expect(await screen.findByText('Required')).toBeTruthy();
    await user.type(screen.getByTestId('tag-name'), 'ab');
    await waitFor(() => expect(screen.getByText('Message too short')).toBeTruthy());
    expect(fetchMock).not.toHaveBeenCalledWith('/api/tags', expect.anything());
  });

  it("shows the spec's pt messages 'Obrigatório' and 'Mensagem muito curta'", async () => {
    await i18n.changeLanguage('pt');
    try {
      const user = userEvent.setup();
      renderWithProviders(<TagModal open onClose={() => {}} />, { user: admin });
      await user.click(screen.getByTestId('tag-save'));
      expect(await screen.findByText('Obrigatório')).toBeTruthy();
      await user.type(screen.getByTestId('tag-name'), 'ab');
      await waitFor(() => expect(screen.getByText('Mensagem muito curta')).toBeTruthy());
      expect(screen.queryByText('Too Short!')).toBeNull();
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('lets admins set the kanban flag and toasts tagModal.success', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderWithProviders(<TagModal open onClose={onClose} />, { user: admin });
    await user.type(screen.getByTestId('tag-name'), 'Lane');
    await user.click(screen.getByTestId('tag-kanban'));
    await user.click(screen.getByTestId('tag-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const post = fetchMock.mock.calls.find(([url]) => url === '/api/tags');
    expect(JSON.parse(String(post?.[1]?.body))).toMatchObject({ name: 'Lane', kanban: 1 });
    expect(await screen.findByText('Tag saved successfully.')).toBeTruthy();
  });

  it('has no kanban switch for agents', () => {
    renderWithProviders(<TagModal open onClose={() => {}} />, { user: agent });
    expect(screen.queryByTestId('tag-kanban')).toBeNull();
  });
});
