import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { createSessionUser, createWhatsapp } from '../../test/fixtures';
import { json, stubFetch } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { SimulatorPage } from './simulator-page';
import type { OutboxItem } from './use-simulator';

describe('SimulatorPage', () => {
  let outbox: OutboxItem[];
  const admin = createSessionUser({ profile: 'admin' });
  const base = Date.now();

  const fetchMock = stubFetch(({ url, method, init }) => {
    if (url.startsWith('/api/whatsapp?'))
      return json(200, [
        createWhatsapp({ id: 1, name: 'Real phone', provider: 'beta' }),
        createWhatsapp({ id: 2, name: 'Simulador', provider: 'simulator' }),
      ]);
    if (url === '/api/simulator/2/messages' && method === 'POST') {
      const body = JSON.parse(String(init?.body));
      outbox.push({
        id: 'out-1',
        to: body.from,
        kind: 'chat',
        body: 'Hello, how can we help?',
        ack: 1,
        quotedId: null,
        timestamp: base + 5_000,
      });
      return json(201, { id: 77, ticketId: 9 });
    }
    if (url.startsWith('/api/simulator/2/outbox')) return json(200, outbox);
    if (url === '/api/simulator/2/read' && method === 'POST') {
      outbox = outbox.map((o) => ({ ...o, ack: 4 }));
      return new Response(null, { status: 204 });
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
  beforeEach(() => {
    outbox = [];
  });

  const callsTo = (prefix: string) => fetchMock.mock.calls.filter(([url]) => String(url).startsWith(prefix));

  it('sends as the customer, lists the outbox with ticks and marks it read', async () => {
    const user = userEvent.setup();
    renderWithProviders(<SimulatorPage />, { user: admin });
    const from = (await screen.findByTestId('simulator-from')) as HTMLInputElement;
    expect((screen.getByTestId('simulator-connection') as HTMLInputElement).value).toBe('2');
    await user.clear(from);
    await user.type(from, '+55 (11) 98888-0001');
    await user.type(screen.getByTestId('simulator-name'), 'Maria');
    await user.type(screen.getByTestId('simulator-body'), 'Olá');
    await user.click(screen.getByTestId('simulator-send'));

    await waitFor(() => expect(callsTo('/api/simulator/2/messages')).toHaveLength(1));
    const sent = callsTo('/api/simulator/2/messages')[0];
    expect(JSON.parse(String(sent?.[1]?.body))).toEqual({
      from: '5511988880001',
      name: 'Maria',
      body: 'Olá',
    });
    expect((screen.getByTestId('simulator-body') as HTMLTextAreaElement).value).toBe('');

    const list = screen.getByTestId('simulator-outbox');
    expect(within(list).getByTestId('sent-item').textContent).toContain('Olá');
    // The outbox is polled every 2 s for the typed number.
    const item = await within(list).findByTestId('outbox-item', {}, { timeout: 4000 });
    expect(item.textContent).toContain('Hello, how can we help?');
    expect(within(item).getByTestId('outbox-ack-1')).toBeTruthy();
    expect(
      callsTo('/api/simulator/2/outbox').some(([url]) => String(url).includes('number=5511988880001')),
    ).toBe(true);

    await user.click(screen.getByTestId('simulator-mark-read'));
    await waitFor(() => expect(callsTo('/api/simulator/2/read')).toHaveLength(1));
    expect(JSON.parse(String(callsTo('/api/simulator/2/read')[0]?.[1]?.body))).toEqual({
      number: '5511988880001',
    });
    expect(await within(list).findByTestId('outbox-ack-4')).toBeTruthy();
  }, 10_000);

  it('refuses a too short number without calling the server', async () => {
    const user = userEvent.setup();
    renderWithProviders(<SimulatorPage />, { user: admin });
    const from = await screen.findByTestId('simulator-from');
    await user.clear(from);
    await user.type(from, '123');
    await user.type(screen.getByTestId('simulator-body'), 'Hi');
    await user.click(screen.getByTestId('simulator-send'));
    expect(await screen.findByText('Too Short!')).toBeTruthy();
    expect(callsTo('/api/simulator/2/messages')).toHaveLength(0);
  });

  it('says so when there is no simulator connection, and refuses agents', async () => {
    fetchMock.mockImplementation(async () => json(200, [createWhatsapp({ provider: 'beta' })]));
    const { unmount } = renderWithProviders(<SimulatorPage />, { user: admin });
    expect(await screen.findByTestId('simulator-no-connection')).toBeTruthy();
    unmount();
    renderWithProviders(<SimulatorPage />, { user: createSessionUser({ profile: 'user' }) });
    expect(screen.queryByTestId('simulator-from')).toBeNull();
    expect(screen.getByText('Access not allowed')).toBeTruthy();
  });
});
