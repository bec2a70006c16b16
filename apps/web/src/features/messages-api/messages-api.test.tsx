import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createSessionUser, createWhatsapp } from '../../test/fixtures';
import { json, stubFetch } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { MessagesApiPage } from './messages-api-page';

const hook = {
  id: 3,
  url: 'https://erp.example.com/hook',
  events: ['message.created', 'ticket.closed'],
  active: true,
  description: 'ERP',
  secretHint: '••••wxyz',
  createdAt: '2026-01-01T10:00:00.000Z',
  updatedAt: '2026-01-01T10:00:00.000Z',
};

describe('/messages-api', () => {
  const fetchMock = stubFetch(({ url, method, init }) => {
    const auth = new Headers(init?.headers).get('authorization');
    if (url.startsWith('/api/whatsapp'))
      return json(200, [
        createWhatsapp({ id: 1, name: 'Vendas', token: 'tok-vendas-123' }),
        createWhatsapp({ id: 2, name: 'Sem token', token: null }),
      ]);
    if (url.endsWith('/api/messages/send') && method === 'POST') {
      if (auth !== 'Bearer tok-vendas-123') return json(401, { error: 'ERR_INVALID_CREDENTIALS' });
      return json(200, { id: 99, ids: [99], ticketId: 5, contactId: 6 });
    }
    if (url === '/api/webhooks' && method === 'GET') return json(200, [hook]);
    if (url === '/api/webhooks' && method === 'POST')
      return json(201, {
        ...hook,
        id: 4,
        ...JSON.parse(String(init?.body)),
        secret: 'whsec_shown_once_abc',
      });
    if (url === '/api/webhooks/3/deliveries/10/retry' && method === 'POST')
      return json(200, { id: 10, status: 'pending' });
    if (url.startsWith('/api/webhooks/3/deliveries'))
      return json(200, {
        records: [
          {
            id: 10,
            webhookId: 3,
            eventId: 'message.created:7',
            event: 'message.created',
            status: 'failed',
            tries: 8,
            lastError: 'HTTP 500: boom',
            responseCode: 500,
            nextAttemptAt: null,
            createdAt: '2026-01-01T10:00:00.000Z',
            updatedAt: '2026-01-01T11:00:00.000Z',
          },
        ],
        hasMore: false,
        count: 1,
      });
    return json(404, { error: 'ERR_NOT_FOUND' });
  });

  it('sends a company whose plan has no external API to / with the unauthorized toast', async () => {
    renderWithProviders(
      <Routes>
        <Route path="/" element={<div data-testid="home" />} />
        <Route path="/messages-api" element={<MessagesApiPage />} />
      </Routes>,
      { user: createSessionUser({ profile: 'admin' }, { useExternalApi: false }), route: '/messages-api' },
    );
    expect(await screen.findByText(/no permission to access this page/)).toBeTruthy();
    expect(await screen.findByTestId('home', {}, { timeout: 3000 })).toBeTruthy();
  });

  it("documents the call with this deployment's URL and the connections' tokens, and the text test form sends", async () => {
    const user = userEvent.setup();
    renderWithProviders(<MessagesApiPage />, {
      user: createSessionUser({ profile: 'admin' }, { useExternalApi: true }),
    });
    const tokens = await screen.findByTestId('messages-api-tokens');
    expect(within(tokens).getByText('tok-vendas-123')).toBeTruthy();
    expect(within(tokens).queryByText('Sem token')).toBeNull();
    const curl = screen.getByTestId('messages-api-curl-text').textContent ?? '';
    expect(curl).toContain(`${window.location.origin}/api/messages/send`);
    expect(curl).toContain('Authorization: Bearer tok-vendas-123');
    expect(screen.getByTestId('messages-api-curl-media').textContent).toContain("-F 'medias=@");

    const form = screen.getByTestId('messages-api-test-text');
    const submit = within(form).getByTestId('messages-api-text-submit') as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    await user.click(within(form).getByRole('combobox'));
    await user.click(await screen.findByRole('option', { name: 'Vendas' }));
    await user.type(screen.getByTestId('messages-api-text-number'), '5511999998888');
    await user.type(screen.getByTestId('messages-api-text-body'), 'Olá do ERP');
    await user.click(submit);
    expect((await screen.findByTestId('messages-api-text-result')).textContent).toContain(
      'Message sent (id 99)',
    );
    const call = fetchMock.mock.calls.find(([u]) => String(u).endsWith('/api/messages/send'));
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ number: '5511999998888', body: 'Olá do ERP' });
  }, 30_000);

  it('says which field is missing once the user went through it', async () => {
    const user = userEvent.setup();
    renderWithProviders(<MessagesApiPage />, {
      user: createSessionUser({ profile: 'admin' }, { useExternalApi: true }),
    });
    await screen.findByTestId('messages-api-tokens');
    const form = screen.getByTestId('messages-api-test-media');
    expect(within(form).queryByText('Required')).toBeNull();
    await user.click(screen.getByTestId('messages-api-media-number'));
    await user.tab();
    const number = screen
      .getByTestId('messages-api-media-number')
      .closest('.MuiFormControl-root') as HTMLElement;
    expect(within(number).getByText('Required')).toBeTruthy();
    expect(screen.getByTestId('messages-api-media-file-hint').textContent).toBe('Required');
    await user.type(screen.getByTestId('messages-api-media-number'), '5511999998888');
    expect(within(number).queryByText('Required')).toBeNull();
  }, 30_000);

  it('shows a refused token as an error without ending the session', async () => {
    const user = userEvent.setup();
    renderWithProviders(<MessagesApiPage />, {
      user: createSessionUser({ profile: 'admin' }, { useExternalApi: true }),
    });
    await screen.findByTestId('messages-api-tokens');
    const form = screen.getByTestId('messages-api-test-media');
    await user.click(within(form).getByRole('combobox'));
    await user.click(await screen.findByRole('option', { name: 'Vendas' }));
    await user.type(screen.getByTestId('messages-api-media-number'), '5511999998888');
    await user.upload(
      screen.getByTestId('messages-api-media-file'),
      new File(['%PDF-1.4'], 'boleto.pdf', { type: 'application/pdf' }),
    );
    fetchMock.mockImplementationOnce(async () => json(401, { error: 'ERR_INVALID_CREDENTIALS' }));
    await user.click(screen.getByTestId('messages-api-media-submit'));
    expect((await screen.findByTestId('messages-api-media-result')).textContent).toContain(
      'Authentication error',
    );
    expect(fetchMock.mock.calls.some(([u]) => String(u).includes('/auth/'))).toBe(false);
    const call = fetchMock.mock.calls.find(([u]) => String(u).endsWith('/api/messages/send'));
    expect(call?.[1]?.body).toBeInstanceOf(FormData);
  }, 30_000);

  it('lets an admin add a webhook (secret shown once), refuses a non-http URL, and shows the delivery log', async () => {
    const user = userEvent.setup();
    renderWithProviders(<MessagesApiPage />, {
      user: createSessionUser({ profile: 'admin' }, { useExternalApi: true }),
    });
    await user.click(await screen.findByTestId('messages-api-tab-webhooks'));
    expect(await screen.findByText('https://erp.example.com/hook')).toBeTruthy();
    expect(screen.getByText('••••wxyz')).toBeTruthy();

    await user.click(screen.getByTestId('add-webhook-button'));
    await user.type(screen.getByTestId('webhook-url'), 'ftp://erp.example.com/x');
    await user.click(screen.getByTestId('webhook-save'));
    expect(await screen.findByText('Enter an http:// or https:// address')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([u, i]) => u === '/api/webhooks' && i?.method === 'POST')).toBe(false);

    await user.clear(screen.getByTestId('webhook-url'));
    await user.type(screen.getByTestId('webhook-url'), 'https://crm.example.com/in');
    await user.click(screen.getByTestId('webhook-event-ticket.closed'));
    await user.click(screen.getByTestId('webhook-save'));
    await waitFor(() => {
      const call = fetchMock.mock.calls.find(([u, i]) => u === '/api/webhooks' && i?.method === 'POST');
      expect(JSON.parse(String(call?.[1]?.body))).toEqual({
        url: 'https://crm.example.com/in',
        description: '',
        events: ['message.created', 'ticket.closed'],
        active: true,
      });
    });
    expect(((await screen.findByTestId('webhook-secret')) as HTMLInputElement).value).toBe(
      'whsec_shown_once_abc',
    );
    await user.click(screen.getByTestId('webhook-secret-close'));

    await user.click(screen.getByTestId('webhook-log-3'));
    const row = await screen.findByTestId('webhook-delivery-10');
    expect(within(row).getByText('Failed')).toBeTruthy();
    expect(within(row).getByText('HTTP 500: boom')).toBeTruthy();
    expect(within(row).getByText('500')).toBeTruthy();
    await user.click(within(row).getByTestId('webhook-delivery-retry-10'));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(
          ([u, i]) => u === '/api/webhooks/3/deliveries/10/retry' && i?.method === 'POST',
        ),
      ).toBe(true),
    );
  }, 30_000);

  it('shows no webhooks tab to agents', async () => {
    renderWithProviders(<MessagesApiPage />, {
      user: createSessionUser({ profile: 'user' }, { useExternalApi: true }),
    });
    await screen.findByTestId('messages-api-docs');
    expect(screen.queryByTestId('messages-api-tab-webhooks')).toBeNull();
  });
});
