import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createSessionUser, createWhatsapp } from '../../test/fixtures';
import { json, stubFetch } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { ConnectionModal } from '../connections/connection-modal';
import { useConnections } from '../connections/use-connections';
import { makeTicket as createTicket } from '../ticket-view/test-helpers';
import { CloudWindowBar } from './cloud-window-bar';

/** The connection list, mounted beside the modal as on the connections page. */
function ListBeside() {
  useConnections();
  return null;
}

const CONFIG = {
  whatsappId: 31,
  phoneNumberId: '106540352242922',
  wabaId: '102290129340398',
  accessTokenHint: '…0001',
  appSecretSet: true,
  verifyToken: 'verify-token-abcdefghijklmnop',
  webhookPath: '/cloud/webhook/31',
};

describe('Cloud API in the web app', () => {
  let windowOpen = false;
  const fetchMock = stubFetch(({ url, method, init }) => {
    if (url.startsWith('/api/queue')) return json(200, []);
    if (url === '/api/whatsapp' && method === 'POST')
      return json(201, createWhatsapp({ ...JSON.parse(String(init?.body)), id: 31 }));
    if (url.startsWith('/api/whatsapp?') && method === 'GET') return json(200, []);
    if (url.startsWith('/api/whatsapp/31/cloud') && method === 'PUT') return json(200, CONFIG);
    if (url.startsWith('/api/whatsapp/31/cloud')) return json(200, CONFIG);
    if (url.startsWith('/api/whatsapp/31')) return json(200, createWhatsapp({ id: 31, provider: 'cloud' }));
    if (url.startsWith('/api/cloud/tickets/5/window'))
      return json(200, { cloud: true, open: windowOpen, closesAt: null });
    if (url.startsWith('/api/cloud/tickets/5/templates'))
      return json(200, [
        {
          name: 'order_update',
          language: 'pt_BR',
          category: 'UTILITY',
          status: 'APPROVED',
          body: 'Olá {{1}}, pedido {{2}}.',
          parameters: 2,
        },
      ]);
    if (url.startsWith('/api/cloud/tickets/5/template') && method === 'POST')
      return json(201, { id: 99, ticketId: 5, body: 'Olá Ana, pedido 7.', fromMe: true });
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
  beforeEach(() => {
    windowOpen = false;
  });
  const admin = createSessionUser({ profile: 'admin' });
  const writes = () =>
    fetchMock.mock.calls
      .filter(([, init]) => init?.method === 'POST' || init?.method === 'PUT')
      .map(([url, init]) => [String(url), JSON.parse(String(init?.body))]);

  it('adds a cloud connection, then saves its Cloud API settings', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderWithProviders(
      <>
        <ListBeside />
        <ConnectionModal onClose={onClose} />
      </>,
      { user: admin },
    );
    await user.type(screen.getByLabelText('Name'), 'Oficial');
    expect(screen.queryByTestId('cloud-settings')).toBeNull();
    await user.click(screen.getByRole('combobox', { name: 'Provider' }));
    await user.click(await screen.findByRole('option', { name: 'Official WhatsApp API (Cloud API)' }));
    await user.click(screen.getByTestId('cloud-phoneNumberId'));
    await user.paste(CONFIG.phoneNumberId);
    await user.click(screen.getByTestId('cloud-wabaId'));
    await user.paste(CONFIG.wabaId);
    await user.click(screen.getByTestId('cloud-accessToken'));
    await user.paste('EAAG-token-0001');
    await user.click(screen.getByTestId('cloud-appSecret'));
    await user.paste('the-app-secret');
    await user.click(screen.getByTestId('connection-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    // The connection list is read again after the settings are saved (the session restarted then).
    const put = fetchMock.mock.calls.findIndex(
      ([url, init]) => init?.method === 'PUT' && String(url).endsWith('/cloud'),
    );
    expect(put).toBeGreaterThan(-1);
    await waitFor(() =>
      expect(fetchMock.mock.calls.slice(put + 1).map(([url]) => String(url))).toContain(
        '/api/whatsapp?session=0',
      ),
    );
    expect(writes()).toEqual([
      ['/api/whatsapp', expect.objectContaining({ name: 'Oficial', provider: 'cloud' })],
      [
        '/api/whatsapp/31/cloud',
        {
          phoneNumberId: CONFIG.phoneNumberId,
          wabaId: CONFIG.wabaId,
          accessToken: 'EAAG-token-0001',
          appSecret: 'the-app-secret',
        },
      ],
    ]);
  }, 20_000);

  it('shows the webhook URL and verify token of a saved connection, never the secrets', async () => {
    renderWithProviders(<ConnectionModal whatsappId={31} onClose={() => {}} />, { user: admin });
    await screen.findByDisplayValue(CONFIG.phoneNumberId, {}, { timeout: 10_000 });
    expect((await screen.findByTestId('cloud-webhook-url', {}, { timeout: 10_000 })).textContent).toBe(
      `${window.location.origin}/api/cloud/webhook/31`,
    );
    expect(screen.getByTestId('cloud-verify-token').textContent).toBe(CONFIG.verifyToken);
    expect((screen.getByTestId('cloud-accessToken') as HTMLInputElement).value).toBe('');
    expect(screen.getByText(/Stored token ending in …0001/)).toBeTruthy();
  }, 20_000);

  it('offers approved templates outside the 24-hour window and sends one with its parameters', async () => {
    const user = userEvent.setup();
    const ticket = createTicket({ id: 5, status: 'open' });
    renderWithProviders(<CloudWindowBar ticket={ticket} />, { user: admin });
    await screen.findByTestId('cloud-window-closed');
    await user.click(screen.getByTestId('cloud-template-open'));
    await user.click(await screen.findByRole('combobox', { name: 'Template' }));
    await user.click(await screen.findByRole('option', { name: 'order_update (pt_BR)' }));
    await user.type(screen.getByTestId('cloud-template-param-1'), 'Ana');
    expect((screen.getByTestId('cloud-template-send') as HTMLButtonElement).disabled).toBe(true);
    await user.type(screen.getByTestId('cloud-template-param-2'), '7');
    expect(screen.getByTestId('cloud-template-preview').textContent).toBe('Olá Ana, pedido 7.');
    await user.click(screen.getByTestId('cloud-template-send'));
    await waitFor(() =>
      expect(writes()).toEqual([
        [
          '/api/cloud/tickets/5/template',
          { name: 'order_update', language: 'pt_BR', parameters: ['Ana', '7'] },
        ],
      ]),
    );
  }, 20_000);

  it('shows nothing while the window is open', async () => {
    windowOpen = true;
    renderWithProviders(<CloudWindowBar ticket={createTicket({ id: 5, status: 'open' })} />, { user: admin });
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('cloud-window-closed')).toBeNull();
  });
});
