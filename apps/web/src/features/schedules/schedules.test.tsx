import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { addHours, format } from 'date-fns';
import { describe, expect, it, vi } from 'vitest';
import i18n from '../../lib/i18n';
import { createSessionUser } from '../../test/fixtures';
import { json, stubFetch } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { ScheduleModal } from './schedule-modal';
import { SchedulesPage } from './schedules-page';

const today = new Date();
today.setHours(10, 0, 0, 0);

const record = (overrides = {}) => ({
  id: 7,
  body: 'Lembrete da consulta',
  sendAt: today.toISOString(),
  sentAt: null,
  status: 'PENDENTE',
  error: null,
  contactId: 5,
  contact: { id: 5, name: 'Maria Souza', number: '5511999990000' },
  userId: 1000,
  ticketId: null,
  mediaPath: null,
  mediaName: null,
  createdAt: today.toISOString(),
  ...overrides,
});

describe('schedules', () => {
  const admin = createSessionUser({ profile: 'admin' });

  const fetchMock = stubFetch(({ url, method, init }) => {
    if (url.startsWith('/api/schedules?')) return json(200, { schedules: [record()], hasMore: false });
    if (url === '/api/schedules' && method === 'POST')
      return json(201, record({ id: 8, ...JSON.parse(String(init?.body)) }));
    if (url === '/api/schedules/7' && method === 'DELETE') return new Response(null, { status: 204 });
    if (url === '/api/contacts/5')
      return json(200, { id: 5, name: 'Maria Souza', number: '5511999990000', email: '', extraInfo: [] });
    return json(404, { error: 'ERR_NOT_FOUND' });
  });

  it('shows the schedules on a 500 px calendar and deletes after confirmation', async () => {
    const user = userEvent.setup();
    renderWithProviders(<SchedulesPage />, { user: admin });
    expect(await screen.findByTestId('schedule-7')).toBeTruthy();
    expect(screen.getByTestId('schedule-7').textContent).toContain('Maria Souza');
    expect(screen.getByTestId('schedules-calendar').style.height).toBe('500px');
    expect(screen.getByText('Month')).toBeTruthy();
    expect(screen.getByText('Week')).toBeTruthy();
    expect(screen.getByText('Day')).toBeTruthy();
    await user.click(screen.getByTestId('schedule-delete-7'));
    await user.click(await screen.findByTestId('confirm-button'));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(([url, init]) => url === '/api/schedules/7' && init?.method === 'DELETE'),
      ).toBe(true),
    );
  });

  it('?contactId= opens the modal for that contact', async () => {
    renderWithProviders(<SchedulesPage />, { user: admin, route: '/schedules?contactId=5' });
    expect(await screen.findByTestId('schedule-modal')).toBeTruthy();
    await waitFor(() =>
      expect((screen.getByTestId('schedule-contact') as HTMLInputElement).value).toContain('Maria Souza'),
    );
  });

  it('requires 5 characters, defaults sendAt to one hour ahead and posts an ISO sendAt', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderWithProviders(
      <ScheduleModal contact={{ id: 5, name: 'Maria Souza', number: '5511999990000' }} onClose={onClose} />,
      { user: admin },
    );
    // en shows MM/dd/yyyy HH:mm.
    const shown = (screen.getByTestId('schedule-send-at-input') as HTMLInputElement).value;
    expect(shown).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
    expect(shown.slice(0, 10)).toBe(format(addHours(new Date(), 1), 'MM/dd/yyyy'));
    await user.type(screen.getByTestId('schedule-body'), 'oi');
    await user.click(screen.getByTestId('schedule-save'));
    expect(await screen.findByText('Message too short')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/schedules')).toBe(false);
    await user.type(screen.getByTestId('schedule-body'), ' Maria, tudo bem?');
    await user.click(screen.getByTestId('schedule-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const post = fetchMock.mock.calls.find(([url]) => url === '/api/schedules');
    const body = JSON.parse(String(post![1]!.body));
    expect(body).toMatchObject({ body: 'oi Maria, tudo bem?', contactId: 5 });
    expect(new Date(body.sendAt).toISOString()).toBe(body.sendAt);
    const ahead = new Date(body.sendAt).getTime() - Date.now();
    expect(ahead).toBeGreaterThan(58 * 60_000);
    expect(ahead).toBeLessThan(61 * 60_000);
  });

  it('shows and takes the send time as dd/MM/yyyy HH:mm in pt (pt-BR)', async () => {
    await i18n.changeLanguage('pt');
    try {
      const user = userEvent.setup();
      const onClose = vi.fn();
      renderWithProviders(
        <ScheduleModal
          contact={{ id: 5, name: 'Maria Souza', number: '5511999990000' }}
          start={new Date(2026, 2, 5, 14, 7)}
          onClose={onClose}
        />,
        { user: admin },
      );
      expect((screen.getByTestId('schedule-send-at-input') as HTMLInputElement).value).toBe(
        '05/03/2026 14:07',
      );
      const sections = within(screen.getByTestId('schedule-send-at')).getAllByRole('spinbutton');
      expect(sections.map((s) => s.getAttribute('aria-label')).slice(0, 3)).toEqual(['Dia', 'Mês', 'Ano']);
      await user.click(sections[0]!);
      await user.keyboard('0604202709');
      await user.type(screen.getByTestId('schedule-body'), 'Olá Maria');
      await user.click(screen.getByTestId('schedule-save'));
      await waitFor(() => expect(onClose).toHaveBeenCalled());
      const post = fetchMock.mock.calls.find(([url]) => url === '/api/schedules');
      const body = JSON.parse(String(post![1]!.body));
      expect(new Date(body.sendAt).getTime()).toBe(new Date(2027, 3, 6, 9, 7).getTime());
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
