import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CONNECTION_STATES, type ConnectionState, type Whatsapp } from '@zapdesk/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { createSessionUser, createWhatsapp } from '../../test/fixtures';
import { json, stubFetch } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { ConnectionsPage } from './connections-page';

/** The spec's buttons per status (document 2 section 2), as data-testid actions. */
const EXPECTED: Record<ConnectionState, string[]> = {
  qrcode: ['qrcode'],
  DISCONNECTED: ['try-again', 'new-qr'],
  CONNECTED: ['disconnect'],
  PAIRING: ['disconnect'],
  TIMEOUT: ['disconnect'],
  OPENING: ['connecting'],
};

describe('ConnectionsPage', () => {
  let connections: Whatsapp[];

  const fetchMock = stubFetch(({ url, method }) => {
    if (url.startsWith('/api/whatsapp?') && method === 'GET') return json(200, connections);
    const one = url.match(/^\/api\/whatsapp\/(\d+)/);
    if (one && method === 'GET')
      return json(
        200,
        connections.find((c) => c.id === Number(one[1])),
      );
    if (one && method === 'DELETE') return new Response(null, { status: 204 });
    if (url.startsWith('/api/whatsappsession/')) return new Response(null, { status: 204 });
    if (url.startsWith('/api/queue')) return json(200, []);
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
  beforeEach(() => {
    connections = [];
  });

  const admin = createSessionUser({ profile: 'admin' });
  const calls = (method: string, prefix: string) =>
    fetchMock.mock.calls.filter(
      ([url, init]) => String(url).startsWith(prefix) && (init?.method ?? 'GET') === method,
    );

  it('shows exactly the spec buttons for each status', async () => {
    connections = CONNECTION_STATES.map((status, i) =>
      createWhatsapp({ id: 100 + i, name: `C${i}`, status, qrcode: status === 'qrcode' ? 'qr-data' : '' }),
    );
    renderWithProviders(<ConnectionsPage />, { user: admin });
    await screen.findByTestId('connections-table');
    for (const connection of connections) {
      const row = screen.getByTestId(`connection-row-${connection.id}`);
      const buttons = within(row)
        .queryAllByTestId(/^session-button-/)
        .map((b) => b.getAttribute('data-testid'));
      expect(buttons, connection.status).toEqual(
        EXPECTED[connection.status].map((a) => `session-button-${a}-${connection.id}`),
      );
    }
    const connecting = screen.getByTestId('session-button-connecting-102') as HTMLButtonElement;
    expect(connecting.disabled).toBe(true);
    expect((screen.getByTestId('session-button-disconnect-100') as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows CONNECTED green and the others red, the last update as dd/MM/yyyy HH:mm and the default mark', async () => {
    const updatedAt = new Date(2026, 2, 5, 14, 7).toISOString();
    connections = [
      createWhatsapp({ id: 1, name: 'A', status: 'CONNECTED', isDefault: true, updatedAt }),
      createWhatsapp({ id: 2, name: 'B', status: 'TIMEOUT' }),
    ];
    renderWithProviders(<ConnectionsPage />, { user: admin });
    const connected = await screen.findByTestId('connection-status-1');
    expect(connected.getAttribute('data-status')).toBe('CONNECTED');
    expect(connected.querySelector('svg')?.getAttribute('class')).toContain('colorSuccess');
    expect(screen.getByTestId('connection-status-2').querySelector('svg')?.getAttribute('class')).toContain(
      'colorError',
    );
    expect(screen.getByTestId('connection-updated-1').textContent).toBe('05/03/2026 14:07');
    expect(screen.getByTestId('connection-default-1')).toBeTruthy();
    expect(screen.queryByTestId('connection-default-2')).toBeNull();
  });

  it('starts (POST), restarts (PUT) and, after confirming, disconnects (DELETE) the session', async () => {
    const user = userEvent.setup();
    connections = [
      createWhatsapp({ id: 7, name: 'A', status: 'DISCONNECTED' }),
      createWhatsapp({ id: 8, name: 'B', status: 'CONNECTED' }),
    ];
    renderWithProviders(<ConnectionsPage />, { user: admin });
    await user.click(await screen.findByTestId('session-button-try-again-7'));
    await waitFor(() => expect(calls('POST', '/api/whatsappsession/7')).toHaveLength(1));
    await user.click(screen.getByTestId('session-button-new-qr-7'));
    await waitFor(() => expect(calls('PUT', '/api/whatsappsession/7')).toHaveLength(1));

    await user.click(screen.getByTestId('session-button-disconnect-8'));
    expect(calls('DELETE', '/api/whatsappsession/8')).toHaveLength(0);
    await user.click(await screen.findByTestId('confirm-button'));
    await waitFor(() => expect(calls('DELETE', '/api/whatsappsession/8')).toHaveLength(1));
  });

  it('deletes a connection after confirmation and removes the row', async () => {
    const user = userEvent.setup();
    connections = [createWhatsapp({ id: 9, name: 'Old' }), createWhatsapp({ id: 10, name: 'Other' })];
    renderWithProviders(<ConnectionsPage />, { user: admin });
    await user.click(await screen.findByTestId('connection-delete-9'));
    await user.click(await screen.findByTestId('confirm-button'));
    await waitFor(() => expect(screen.queryByTestId('connection-row-9')).toBeNull());
    expect(calls('DELETE', '/api/whatsapp/9')).toHaveLength(1);
    expect(screen.getByTestId('connection-row-10')).toBeTruthy();
    expect(await screen.findByText('Connection deleted successfully!')).toBeTruthy();
  });

  it('opens the QR dialog from the QR code button', async () => {
    const user = userEvent.setup();
    connections = [createWhatsapp({ id: 11, name: 'Phone', status: 'qrcode', qrcode: 'abc' })];
    renderWithProviders(<ConnectionsPage />, { user: admin });
    await user.click(await screen.findByTestId('session-button-qrcode-11'));
    const dialog = await screen.findByTestId('qr-dialog');
    expect(within(dialog).getByTestId('qr-code').getAttribute('data-value')).toBe('abc');
  });

  it('hides add, session and edit/delete buttons from an agent', async () => {
    connections = [createWhatsapp({ id: 12, status: 'DISCONNECTED' })];
    renderWithProviders(<ConnectionsPage />, { user: createSessionUser({ profile: 'user' }) });
    await screen.findByTestId('connection-row-12');
    expect(screen.queryByTestId('add-connection-button')).toBeNull();
    expect(screen.queryAllByTestId(/^session-button-/)).toHaveLength(0);
    expect(screen.queryByTestId('connection-edit-12')).toBeNull();
  });

  it('shows the empty and error states', async () => {
    const { unmount } = renderWithProviders(<ConnectionsPage />, { user: admin });
    expect(await screen.findByTestId('connections-empty')).toBeTruthy();
    expect(screen.getByTestId('add-connection-button')).toBeTruthy();
    unmount();
    fetchMock.mockImplementation(async () => json(500, { error: 'ERR_INTERNAL_SERVER_ERROR' }));
    renderWithProviders(<ConnectionsPage />, { user: admin });
    expect(await screen.findByTestId('connections-error')).toBeTruthy();
  });
});
