import { act, screen, waitFor } from '@testing-library/react';
import type { ConnectionState, Whatsapp } from '@zapdesk/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyWhatsappEvent, connectionsKeys } from '../../features/connections/connections-cache';
import { createSessionUser, createWhatsapp } from '../../test/fixtures';
import { json, stubFetch } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { SideMenu } from './side-menu';

describe('connections menu badge', () => {
  let connections: Whatsapp[];
  const admin = createSessionUser({ profile: 'admin' });

  const fetchMock = stubFetch(({ url }) =>
    url.startsWith('/api/whatsapp?') ? json(200, connections) : json(404, { error: 'ERR_NOT_FOUND' }),
  );
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    connections = [];
  });
  afterEach(() => vi.useRealTimers());

  const listCalls = () => fetchMock.mock.calls.filter(([url]) => String(url).startsWith('/api/whatsapp?'));

  const renderAfterCheck = async (status: ConnectionState) => {
    connections = [createWhatsapp({ status: 'CONNECTED' }), createWhatsapp({ status })];
    const result = renderWithProviders(<SideMenu user={admin} expanded />, { user: admin });
    // The fake clock also follows real time (shouldAdvanceTime), hence the margin before 2000 ms.
    await act(async () => {
      vi.advanceTimersByTime(1500);
    });
    expect(listCalls()).toHaveLength(0);
    expect(screen.queryByTestId('connections-badge')).toBeNull();
    await act(async () => {
      vi.advanceTimersByTime(500);
    });
    await vi.waitFor(() => expect(listCalls()).toHaveLength(1));
    return result;
  };

  it.each(['qrcode', 'PAIRING', 'DISCONNECTED', 'TIMEOUT', 'OPENING'] as const)(
    'shows the warning 2000 ms after load when a connection is %s',
    async (status) => {
      await renderAfterCheck(status);
      expect(await screen.findByTestId('connections-badge')).toBeTruthy();
    },
  );

  it('shows no warning when every connection is CONNECTED, and follows socket events', async () => {
    const { queryClient } = await renderAfterCheck('CONNECTED');
    await act(async () => {
      await vi.waitFor(() => expect(queryClient.getQueryData(connectionsKeys.list())).toHaveLength(2));
    });
    expect(screen.queryByTestId('connections-badge')).toBeNull();
    const second = connections[1] as Whatsapp;
    act(() =>
      applyWhatsappEvent(queryClient, { action: 'update', whatsapp: { ...second, status: 'TIMEOUT' } }),
    );
    expect(await screen.findByTestId('connections-badge')).toBeTruthy();
    act(() => applyWhatsappEvent(queryClient, { action: 'delete', whatsappId: second.id }));
    await waitFor(() => expect(screen.queryByTestId('connections-badge')).toBeNull());
  });
});
