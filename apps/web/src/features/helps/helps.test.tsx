import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createSessionUser } from '../../test/fixtures';
import { json, stubFetch } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { SettingsPage } from '../settings/settings-page';
import { HelpsPage } from './helps-page';

const help = { id: 4, title: 'Primeiros passos', description: 'Conectar o WhatsApp', video: 'dQw4w9WgXcQ' };

describe('helps', () => {
  const fetchMock = stubFetch(({ url, method, init }) => {
    if (url === '/api/helps/list') return json(200, [help]);
    if (url === '/api/settings') return json(200, [{ key: 'scheduleType', value: 'disabled' }]);
    if (url === '/api/helps' && method === 'POST')
      return json(201, { id: 5, ...JSON.parse(String(init?.body)) });
    if (url === '/api/helps/4' && method === 'DELETE') return new Response(null, { status: 204 });
    return json(404, { error: 'ERR_NOT_FOUND' });
  });

  it('shows video cards; a click plays the video in a modal that Escape closes', async () => {
    const user = userEvent.setup();
    renderWithProviders(<HelpsPage />, { user: createSessionUser({ profile: 'user' }) });
    const card = await screen.findByTestId('help-card-4');
    expect(card.querySelector('img')?.getAttribute('src')).toBe(
      'https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg',
    );
    expect(screen.queryByTestId('help-video-modal')).toBeNull();
    await user.click(card);
    const frame = await screen.findByTestId('help-video-frame');
    expect(frame.getAttribute('src')).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('help-video-modal')).toBeNull());
  });

  it('toasts when the list fails to load, even on an answer without an error code', async () => {
    fetchMock.mockImplementation(async () => new Response('', { status: 500 }));
    renderWithProviders(<HelpsPage />, { user: createSessionUser({ profile: 'user' }) });
    expect(await screen.findByText('Could not load the help videos.')).toBeTruthy();
  });

  it("shows the settings 'helps' tab to the super user only, who adds and deletes helps", async () => {
    const user = userEvent.setup();
    const admin = renderWithProviders(<SettingsPage />, { user: createSessionUser({ profile: 'admin' }) });
    await screen.findByTestId('settings-options-tab');
    expect(screen.queryByTestId('settings-helps-tab')).toBeNull();
    admin.unmount();

    renderWithProviders(<SettingsPage />, { user: createSessionUser({ profile: 'admin', super: true }) });
    await user.click(await screen.findByTestId('settings-helps-tab'));
    expect(await screen.findByText('Primeiros passos')).toBeTruthy();
    await user.click(screen.getByTestId('add-help-button'));
    await user.type(screen.getByTestId('help-title'), 'Filas');
    await user.type(screen.getByTestId('help-video'), 'abc_123');
    await user.click(screen.getByTestId('help-save'));
    await waitFor(() => {
      const call = fetchMock.mock.calls.find(([u, i]) => u === '/api/helps' && i?.method === 'POST');
      expect(JSON.parse(String(call?.[1]?.body))).toEqual({
        title: 'Filas',
        description: '',
        video: 'abc_123',
      });
    });
    await user.click(screen.getByTestId('help-delete-4'));
    await user.click(await screen.findByTestId('confirm-button'));
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([u, i]) => u === '/api/helps/4' && i?.method === 'DELETE')).toBe(
        true,
      ),
    );
  });
});
