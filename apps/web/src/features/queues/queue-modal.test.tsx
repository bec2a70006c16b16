import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_QUEUE_SCHEDULES, type QueueDetail } from '@zapdesk/shared';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createSessionUser } from '../../test/fixtures';
import { json, stubFetch } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { QUEUE_COLORS } from './palette';
import { QueueModal } from './queue-modal';

const detail = (overrides: Partial<QueueDetail> = {}): QueueDetail => ({
  id: 7,
  name: 'Vendas',
  color: '#1273DE',
  orderQueue: 1,
  greetingMessage: 'Olá',
  outOfHoursMessage: null,
  schedules: DEFAULT_QUEUE_SCHEDULES,
  integrationId: null,
  promptId: null,
  autoAssignment: 'off',
  slaFirstResponseMinutes: null,
  slaResolutionMinutes: null,
  options: [],
  ...overrides,
});

describe('QueueModal', () => {
  let scheduleType = 'company';
  let current = detail();
  const admin = createSessionUser({ profile: 'admin' });

  const fetchMock = stubFetch(({ url, method, init }) => {
    if (url.startsWith('/api/settings')) return json(200, [{ key: 'scheduleType', value: scheduleType }]);
    if (url.startsWith('/api/prompt')) return json(200, { prompts: [{ id: 9, name: 'Assistente' }] });
    if (url === '/api/queue' && method === 'POST') return json(201, detail(JSON.parse(String(init?.body))));
    if (url === '/api/queue/7' && method === 'GET') return json(200, current);
    if (url === '/api/queue-options' && method === 'POST') {
      const body = JSON.parse(String(init?.body));
      const option = { id: 50, queueId: 7, parentId: null, title: body.title, message: '', option: '1' };
      current = detail({ options: [{ ...option, children: [] }] });
      return json(201, option);
    }
    if (url === '/api/queue-options/50' && method === 'DELETE') {
      current = detail({ options: [] });
      return new Response(null, { status: 204 });
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
  beforeEach(() => {
    scheduleType = 'company';
    current = detail();
  });

  it('offers about 50 palette colours', () => {
    expect(QUEUE_COLORS.length).toBeGreaterThanOrEqual(45);
    expect(new Set(QUEUE_COLORS).size).toBe(QUEUE_COLORS.length);
  });

  it('shows Required for an empty name and colour, Too Short! for one letter', async () => {
    const user = userEvent.setup();
    renderWithProviders(<QueueModal open onClose={() => {}} />, { user: admin });
    await user.click(screen.getByTestId('queue-save'));
    expect(await screen.findAllByText('Required')).toHaveLength(2);
    await user.type(screen.getByTestId('queue-name'), 'V');
    await waitFor(() => expect(screen.getByText('Too Short!')).toBeTruthy());
    expect(fetchMock.mock.calls.some(([url, init]) => url === '/api/queue' && init?.method === 'POST')).toBe(
      false,
    );
  });

  it('saves the colour picked from the palette', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderWithProviders(<QueueModal open onClose={onClose} />, { user: admin });
    await user.type(screen.getByTestId('queue-name'), 'Suporte');
    const swatch = screen.getByTestId('queue-color-1273DE');
    await user.click(swatch);
    expect(swatch.getAttribute('aria-checked')).toBe('true');
    await user.click(screen.getByTestId('queue-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const post = fetchMock.mock.calls.find(([url, init]) => url === '/api/queue' && init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toMatchObject({ name: 'Suporte', color: '#1273DE' });
    expect(JSON.parse(String(post?.[1]?.body)).schedules).toBeUndefined();
    expect(await screen.findByText('Queue saved successfully!')).toBeTruthy();
  });

  it('hides the hours tab unless scheduleType is queue', async () => {
    renderWithProviders(<QueueModal open onClose={() => {}} />, { user: admin });
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith('/api/settings'))).toBe(true),
    );
    expect(screen.queryByTestId('queue-hours-tab')).toBeNull();
    expect(screen.queryByTestId('queue-out-of-hours')).toBeNull();
  });

  it('shows the hours tab with the default hours and sends schedules when scheduleType is queue', async () => {
    scheduleType = 'queue';
    const user = userEvent.setup();
    renderWithProviders(<QueueModal open onClose={() => {}} />, { user: admin });
    await user.click(await screen.findByTestId('queue-hours-tab'));
    expect((screen.getByTestId('queue-endTime-saturday') as HTMLInputElement).value).toBe('12:00');
    expect((screen.getByTestId('queue-startTime-monday') as HTMLInputElement).value).toBe('08:00');
    await user.click(screen.getByTestId('queue-data-tab'));
    await user.type(screen.getByTestId('queue-name'), 'Suporte');
    await user.type(screen.getByTestId('queue-out-of-hours'), 'Fechado');
    await user.click(screen.getByTestId('queue-color-B80000'));
    await user.click(screen.getByTestId('queue-save'));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(([url, init]) => url === '/api/queue' && init?.method === 'POST'),
      ).toBe(true),
    );
    const post = fetchMock.mock.calls.find(([url, init]) => url === '/api/queue' && init?.method === 'POST');
    const body = JSON.parse(String(post?.[1]?.body));
    expect(body.outOfHoursMessage).toBe('Fechado');
    expect(body.schedules).toHaveLength(7);
  });

  it('offers the message variables under the greeting and out-of-hours messages', async () => {
    scheduleType = 'queue';
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderWithProviders(<QueueModal open onClose={onClose} />, { user: admin });
    const outOfHours = (await screen.findByTestId('queue-out-of-hours')) as HTMLTextAreaElement;
    const greetingChips = within(screen.getByTestId('message-variables-greetingMessage'));
    const outOfHoursChips = within(screen.getByTestId('message-variables-outOfHoursMessage'));
    for (const variable of ['firstName', 'name', 'ms', 'protocol', 'date', 'hour']) {
      expect(greetingChips.getByTestId(`variable-${variable}`)).toBeTruthy();
      expect(outOfHoursChips.getByTestId(`variable-${variable}`)).toBeTruthy();
    }
    await user.type(screen.getByTestId('queue-name'), 'Suporte');
    await user.click(screen.getByTestId('queue-color-B80000'));
    await user.click(greetingChips.getByTestId('variable-ms'));
    await user.keyboard(', ');
    await user.click(greetingChips.getByTestId('variable-firstName'));
    await user.type(outOfHours, 'Closed until tomorrow');
    act(() => outOfHours.setSelectionRange(6, 6));
    await user.click(outOfHoursChips.getByTestId('variable-date'));
    expect(outOfHours.value).toBe('Closed{{date}} until tomorrow');
    await user.click(screen.getByTestId('queue-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const post = fetchMock.mock.calls.find(([url, init]) => url === '/api/queue' && init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toMatchObject({
      greetingMessage: '{{ms}}, {{firstName}}',
      outOfHoursMessage: 'Closed{{date}} until tomorrow',
    });
  });

  it('adds and deletes an option in the tree of an existing queue', async () => {
    const user = userEvent.setup();
    renderWithProviders(<QueueModal open queueId={7} onClose={() => {}} />, { user: admin });
    const editor = await screen.findByTestId('queue-options-editor');
    expect(editor).toBeTruthy();
    await user.click(screen.getByTestId('queue-option-add'));
    await user.click(screen.getByTestId('queue-option-save'));
    expect(screen.getByText('Required')).toBeTruthy();
    await user.type(screen.getByTestId('queue-option-title'), 'Financeiro');
    await user.click(screen.getByTestId('queue-option-save'));
    expect(await screen.findByTestId('queue-option-50')).toBeTruthy();
    const post = fetchMock.mock.calls.find(([url]) => url === '/api/queue-options');
    expect(JSON.parse(String(post?.[1]?.body))).toMatchObject({
      queueId: 7,
      parentId: -1,
      title: 'Financeiro',
    });

    await user.click(screen.getByTestId('queue-option-delete-50'));
    await user.click(await screen.findByTestId('confirm-button'));
    await waitFor(() => expect(screen.queryByTestId('queue-option-50')).toBeNull());
  });

  it('saves the automatic assignment chosen for the queue', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderWithProviders(<QueueModal open onClose={onClose} />, { user: admin });
    await user.type(screen.getByTestId('queue-name'), 'Suporte');
    await user.click(screen.getByTestId('queue-color-1273DE'));
    await user.click(screen.getByRole('combobox', { name: 'Automatic assignment' }));
    await user.click(await screen.findByRole('option', { name: 'Round robin' }));
    await user.click(screen.getByTestId('queue-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const post = fetchMock.mock.calls.find(([url, init]) => url === '/api/queue' && init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body)).autoAssignment).toBe('round_robin');
  });

  it('saves the service-level targets, empty as none, and refuses 0 minutes in the UI language', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderWithProviders(<QueueModal open onClose={onClose} />, { user: admin });
    await user.type(screen.getByTestId('queue-name'), 'Suporte');
    await user.click(screen.getByTestId('queue-color-1273DE'));
    await user.type(screen.getByTestId('queue-sla-first'), '0');
    await user.click(screen.getByTestId('queue-save'));
    expect(await screen.findByText('Enter a whole number between 1 and 525,600')).toBeTruthy();
    await user.clear(screen.getByTestId('queue-sla-first'));
    await user.type(screen.getByTestId('queue-sla-first'), '30');
    await user.click(screen.getByTestId('queue-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const post = fetchMock.mock.calls.find(([url, init]) => url === '/api/queue' && init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toMatchObject({
      slaFirstResponseMinutes: 30,
      slaResolutionMinutes: null,
    });
  });

  it('offers the AI prompts when the plan has them and saves the one picked as promptId', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    const withAi = createSessionUser({ profile: 'admin' }, { useOpenAi: true });
    renderWithProviders(<QueueModal open onClose={onClose} />, { user: withAi });
    await user.type(screen.getByTestId('queue-name'), 'Suporte');
    await user.click(screen.getByTestId('queue-color-1273DE'));
    await user.click(within(screen.getByTestId('queue-prompt')).getByRole('combobox'));
    await user.click(await screen.findByRole('option', { name: 'Assistente' }));
    await user.click(screen.getByTestId('queue-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const post = fetchMock.mock.calls.find(([url, init]) => url === '/api/queue' && init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body)).promptId).toBe(9);
  });
});
