import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { createSessionUser, createWhatsapp } from '../../test/fixtures';
import { answerFirst, json, stubFetch } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { ConnectionModal } from './connection-modal';

const GREETING_REQUIRED = 'A greeting message is required when there is more than one queue.';

describe('ConnectionModal', () => {
  const existing = createWhatsapp({
    id: 30,
    name: 'Sales phone',
    isDefault: true,
    greetingMessage: 'Hi!',
    queues: [{ id: 1, name: 'Sales', color: '#ff0000' }],
    promptId: 4,
  });

  const fetchMock = stubFetch(({ url, method, init }) => {
    if (url.startsWith('/api/queue'))
      return json(200, [
        { id: 1, name: 'Sales', color: '#ff0000' },
        { id: 2, name: 'Support', color: '#0000ff' },
      ]);
    if (url.startsWith('/api/whatsapp/30') && method === 'GET') return json(200, existing);
    if (url.startsWith('/api/whatsapp/30') && method === 'PUT')
      return json(200, { ...existing, ...JSON.parse(String(init?.body)) });
    if (url === '/api/whatsapp' && method === 'POST')
      return json(201, createWhatsapp({ ...JSON.parse(String(init?.body)), id: 31 }));
    return json(404, { error: 'ERR_NOT_FOUND' });
  });

  const admin = createSessionUser({ profile: 'admin' });
  const writes = () =>
    fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST' || init?.method === 'PUT');

  it('requires a name of 2 to 50 characters and valid numbers, with translated messages', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ConnectionModal onClose={() => {}} />, { user: admin });
    await user.click(screen.getByTestId('connection-save'));
    expect(await screen.findByText('Required')).toBeTruthy();

    await user.type(screen.getByLabelText('Name'), 'A');
    await user.click(screen.getByTestId('connection-save'));
    expect(await screen.findByText('Too Short!')).toBeTruthy();

    await user.clear(screen.getByLabelText('Name'));
    await user.click(screen.getByLabelText('Name'));
    await user.paste('x'.repeat(51));
    await user.click(screen.getByTestId('connection-save'));
    expect(await screen.findByText('Too Long!')).toBeTruthy();

    await user.clear(screen.getByLabelText('Name'));
    await user.type(screen.getByLabelText('Name'), 'Valid name');
    await user.clear(screen.getByTestId('connection-expiresTicket'));
    await user.click(screen.getByTestId('connection-save'));
    expect(await screen.findByText('Invalid value')).toBeTruthy();
    expect(writes()).toHaveLength(0);
  }, 30_000);

  it('creates a connection with the defaults (provider beta, 3 bot uses), toasts and closes', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderWithProviders(<ConnectionModal onClose={onClose} />, { user: admin });
    expect((screen.getByTestId('connection-provider') as HTMLInputElement).value).toBe('beta');
    await user.type(screen.getByLabelText('Name'), '  Support phone ');
    await user.type(screen.getByLabelText('Completion message'), 'Bye');
    await user.click(screen.getByRole('combobox', { name: 'Queues' }));
    await user.click(await screen.findByRole('option', { name: 'Support' }));
    await user.keyboard('{Escape}');
    await user.click(screen.getByTestId('connection-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const post = writes()[0];
    expect(post?.[0]).toBe('/api/whatsapp');
    expect(JSON.parse(String(post?.[1]?.body))).toMatchObject({
      name: 'Support phone',
      provider: 'beta',
      isDefault: false,
      complationMessage: 'Bye',
      queueIds: [2],
      maxUseBotQueues: 3,
      expiresTicket: 0,
      transferQueueId: null,
    });
    // The token is the server's: never sent.
    expect(JSON.parse(String(post?.[1]?.body))).not.toHaveProperty('token');
    expect(await screen.findByText('Connection saved successfully.')).toBeTruthy();
  });

  it('shows the API token read-only and replaces it with POST /whatsapp/:id/token', async () => {
    answerFirst(fetchMock, ({ url, method }) => {
      if (url.startsWith('/api/whatsapp/30/token') && method === 'POST')
        return json(200, { ...existing, token: 'new-token-from-the-server' });
      if (url.startsWith('/api/whatsapp/30') && method === 'GET')
        return json(200, { ...existing, token: 'old-token-from-the-server' });
    });
    const user = userEvent.setup();
    renderWithProviders(<ConnectionModal whatsappId={30} onClose={vi.fn()} />, { user: admin });
    const field = (await screen.findByDisplayValue('old-token-from-the-server')) as HTMLInputElement;
    expect(field.readOnly).toBe(true);
    await user.click(screen.getByTestId('connection-token-regenerate'));
    expect(await screen.findByDisplayValue('new-token-from-the-server')).toBeTruthy();
    expect(writes().map((w) => [w[0], w[1]?.method])).toEqual([['/api/whatsapp/30/token', 'POST']]);
    expect(await screen.findByText('New token generated. The previous one no longer works.')).toBeTruthy();
  });

  it('edits an existing connection with PUT, keeping prompt and queues', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderWithProviders(<ConnectionModal whatsappId={30} onClose={onClose} />, { user: admin });
    const name = (await screen.findByDisplayValue('Sales phone')) as HTMLInputElement;
    expect(screen.getByText('Edit connection')).toBeTruthy();
    await user.clear(name);
    await user.type(name, 'Sales 2');
    await user.click(screen.getByRole('combobox', { name: 'Provider' }));
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Simulator' }));
    await user.click(screen.getByTestId('connection-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const put = writes()[0];
    expect(put?.[0]).toBe('/api/whatsapp/30');
    expect(put?.[1]?.method).toBe('PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toMatchObject({
      name: 'Sales 2',
      provider: 'simulator',
      isDefault: true,
      greetingMessage: 'Hi!',
      queueIds: [1],
      promptId: 4,
    });
  });

  it('sets the welcome flow when the plan has flows', async () => {
    answerFirst(fetchMock, ({ url }) =>
      url.startsWith('/api/flowbuilder')
        ? json(200, {
            flows: [{ id: 9, name: 'Boas-vindas', active: true, broken: false, companyId: 1 }],
            hasMore: false,
          })
        : undefined,
    );
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderWithProviders(<ConnectionModal whatsappId={30} onClose={onClose} />, { user: admin });
    await screen.findByDisplayValue('Sales phone');
    await user.click(await screen.findByRole('combobox', { name: 'Welcome flow' }));
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Boas-vindas' }));
    await user.click(screen.getByTestId('connection-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(JSON.parse(String(writes()[0]?.[1]?.body))).toMatchObject({ flowIdWelcome: 9 });
  });

  it('shows no welcome flow when the saved one is not among the flows, and saves none', async () => {
    answerFirst(fetchMock, ({ url, method }) => {
      if (url.startsWith('/api/flowbuilder'))
        return json(200, {
          flows: [{ id: 9, name: 'Boas-vindas', active: true, broken: false, companyId: 1 }],
          hasMore: false,
        });
      if (url.startsWith('/api/whatsapp/30') && method === 'GET')
        return json(200, { ...existing, flowIdWelcome: 77 });
    });
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderWithProviders(<ConnectionModal whatsappId={30} onClose={onClose} />, { user: admin });
    await screen.findByDisplayValue('Sales phone');
    const picker = await screen.findByTestId('connection-flowIdWelcome');
    expect((picker as HTMLInputElement).value).toBe('');
    await user.click(screen.getByTestId('connection-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(JSON.parse(String(writes()[0]?.[1]?.body))).toMatchObject({ flowIdWelcome: null });
  });

  it('hides the welcome flow when the plan has no flows', async () => {
    renderWithProviders(<ConnectionModal whatsappId={30} onClose={() => {}} />, { user: admin });
    await screen.findByDisplayValue('Sales phone');
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([input]) => String(input).startsWith('/api/flowbuilder'))).toBe(true),
    );
    expect(screen.queryByRole('combobox', { name: 'Welcome flow' })).toBeNull();
  });

  it('shows the message variables under every message field and inserts them into the message', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderWithProviders(<ConnectionModal whatsappId={30} onClose={onClose} />, { user: admin });
    await screen.findByDisplayValue('Sales phone');
    for (const name of [
      'greetingMessage',
      'complationMessage',
      'outOfHoursMessage',
      'ratingMessage',
      'expiresInactiveMessage',
    ]) {
      const group = screen.getByTestId(`message-variables-${name}`);
      for (const variable of ['firstName', 'name', 'ms', 'protocol', 'date', 'hour']) {
        expect(within(group).getByTestId(`variable-${variable}`).textContent).toBe(`{{${variable}}}`);
      }
    }
    const greeting = screen.getByTestId('connection-greetingMessage') as HTMLTextAreaElement;
    expect(greeting.value).toBe('Hi!');
    await user.click(greeting);
    act(() => greeting.setSelectionRange(2, 2));
    await user.click(
      within(screen.getByTestId('message-variables-greetingMessage')).getByTestId('variable-ms'),
    );
    await user.keyboard(' ');
    await user.click(
      within(screen.getByTestId('message-variables-greetingMessage')).getByTestId('variable-firstName'),
    );
    expect(greeting.value).toBe('Hi{{ms}} {{firstName}}!');
    await user.click(
      within(screen.getByTestId('message-variables-ratingMessage')).getByTestId('variable-protocol'),
    );
    await user.click(screen.getByTestId('connection-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(JSON.parse(String(writes()[0]?.[1]?.body))).toMatchObject({
      greetingMessage: 'Hi{{ms}} {{firstName}}!',
      ratingMessage: '{{protocol}}',
    });
  });

  it('requires a greeting when more than one queue is selected, before asking the server', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ConnectionModal onClose={() => {}} />, { user: admin });
    await user.type(screen.getByLabelText('Name'), 'Two queues');
    await user.click(screen.getByRole('combobox', { name: 'Queues' }));
    await user.click(await screen.findByRole('option', { name: 'Sales' }));
    await user.click(await screen.findByRole('option', { name: 'Support' }));
    await user.keyboard('{Escape}');
    await user.click(screen.getByTestId('connection-save'));
    expect(await screen.findByText(GREETING_REQUIRED, { selector: '.MuiFormHelperText-root' })).toBeTruthy();
    // The refusal is told as a toast too, in the catalogue's wording.
    await waitFor(() => expect(screen.getAllByText(GREETING_REQUIRED)).toHaveLength(2));
    const greeting = screen.getByTestId('connection-greetingMessage');
    expect(greeting.getAttribute('aria-invalid')).toBe('true');
    expect(writes()).toHaveLength(0);

    // A variable is a greeting too: the error goes away.
    await user.click(
      within(screen.getByTestId('message-variables-greetingMessage')).getByTestId('variable-firstName'),
    );
    await waitFor(() =>
      expect(screen.queryByText(GREETING_REQUIRED, { selector: '.MuiFormHelperText-root' })).toBeNull(),
    );
    expect(greeting.getAttribute('aria-invalid')).toBe('false');
  });

  it('marks the greeting field when the server answers ERR_WAPP_GREETING_REQUIRED', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    answerFirst(fetchMock, ({ method }) =>
      method === 'PUT'
        ? json(400, { error: 'ERR_WAPP_GREETING_REQUIRED', field: 'greetingMessage' })
        : undefined,
    );
    renderWithProviders(<ConnectionModal whatsappId={30} onClose={onClose} />, { user: admin });
    await screen.findByDisplayValue('Sales phone');
    await user.click(screen.getByTestId('connection-save'));
    expect(await screen.findByText(GREETING_REQUIRED, { selector: '.MuiFormHelperText-root' })).toBeTruthy();
    await waitFor(() => expect(screen.getAllByText(GREETING_REQUIRED)).toHaveLength(2));
    const greeting = screen.getByTestId('connection-greetingMessage');
    expect(greeting.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(greeting);
    expect(writes()).toHaveLength(1);
    expect(onClose).not.toHaveBeenCalled();
  });
});
