import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  type CompanySchedule,
  DEFAULT_COMPANY_SCHEDULES,
  DEFAULT_SETTINGS,
  type Setting,
} from '@zapdesk/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../lib/i18n';
import { createSessionUser } from '../../test/fixtures';
import { json } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { maskTime } from './schedules-tab';
import { SettingsPage } from './settings-page';

describe('SettingsPage', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let settings: Setting[];
  let schedules: CompanySchedule[];
  const admin = createSessionUser({ profile: 'admin', companyId: 7 });

  beforeEach(() => {
    settings = Object.entries(DEFAULT_SETTINGS).map(([key, value]) => ({ key, value }));
    schedules = DEFAULT_COMPANY_SCHEDULES;
    fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const method = init?.method ?? 'GET';
      if (url === '/api/settings' && method === 'GET') return json(200, settings);
      const put = url.match(/^\/api\/settings\/(\w+)$/);
      if (put && method === 'PUT') {
        const value = JSON.parse(String(init?.body)).value as string;
        settings = settings.map((s) => (s.key === put[1] ? { key: s.key, value } : s));
        return json(200, { key: put[1], value });
      }
      if (url === '/api/companies/7' && method === 'GET') return json(200, { id: 7, schedules });
      if (url === '/api/companies/7/schedules' && method === 'PUT') {
        schedules = JSON.parse(String(init?.body)).schedules;
        return json(200, { schedules });
      }
      return json(404, { error: 'ERR_NOT_FOUND' });
    });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(async () => {
    vi.unstubAllGlobals();
    await i18n.changeLanguage('en');
  });

  const calls = (method: string, url: string) =>
    fetchMock.mock.calls.filter(([u, init]) => String(u) === url && (init?.method ?? 'GET') === method);

  it('shows one control per key and saves a change at once with the spec toast', async () => {
    await i18n.changeLanguage('pt');
    renderWithProviders(<SettingsPage />, { user: admin });
    const rating = (await screen.findByTestId('setting-userRating')) as HTMLSelectElement;
    for (const key of Object.keys(DEFAULT_SETTINGS))
      expect(screen.getByTestId(`setting-${key}`)).toBeTruthy();
    expect(rating.value).toBe('disabled');
    const scheduleType = screen.getByTestId('setting-scheduleType') as HTMLSelectElement;
    expect([...scheduleType.options].map((o) => o.value)).toEqual(['disabled', 'queue', 'company']);

    await userEvent.selectOptions(rating, 'enabled');
    await screen.findByText('Operação atualizada com sucesso.');
    expect(calls('PUT', '/api/settings/userRating')).toHaveLength(1);
    expect(JSON.parse(String(calls('PUT', '/api/settings/userRating')[0]![1]!.body))).toEqual({
      key: 'userRating',
      value: 'enabled',
    });
    expect(rating.value).toBe('enabled');
  });

  it('edits the number settings within their bounds, with the message in pt, en and es', async () => {
    await i18n.changeLanguage('pt');
    settings = [...settings, { key: 'slaWarningPercent', value: '70' }];
    renderWithProviders(<SettingsPage />, { user: admin });
    const percent = (await screen.findByLabelText(
      'Aviso de prazo (% da meta de atendimento)',
    )) as HTMLInputElement;
    expect(percent.value).toBe('70');
    const grace = screen.getByTestId('setting-autoAssignGraceMinutes') as HTMLInputElement;
    expect(grace.value).toBe('5');

    await userEvent.clear(percent);
    await userEvent.type(percent, '100');
    expect(screen.getByText('Informe um número inteiro de 1 a 99.')).toBeTruthy();
    expect(percent.getAttribute('aria-invalid')).toBe('true');
    await userEvent.tab();
    expect(calls('PUT', '/api/settings/slaWarningPercent')).toHaveLength(0);

    await userEvent.clear(percent);
    await userEvent.type(percent, '90{Enter}');
    await screen.findByText('Operação atualizada com sucesso.');
    expect(calls('PUT', '/api/settings/slaWarningPercent')).toHaveLength(1);
    expect(JSON.parse(String(calls('PUT', '/api/settings/slaWarningPercent')[0]![1]!.body))).toEqual({
      key: 'slaWarningPercent',
      value: '90',
    });
    await waitFor(() => expect(percent.value).toBe('90'));

    await userEvent.clear(grace);
    await userEvent.type(grace, '0');
    await i18n.changeLanguage('en');
    expect(await screen.findByText('Enter a whole number from 1 to 1440.')).toBeTruthy();
    await i18n.changeLanguage('es');
    expect(await screen.findByText('Ingrese un número entero de 1 a 1440.')).toBeTruthy();
    await userEvent.tab();
    expect(calls('PUT', '/api/settings/autoAssignGraceMinutes')).toHaveLength(0);
  });

  it('shows the schedules tab only while scheduleType is company', async () => {
    renderWithProviders(<SettingsPage />, { user: admin });
    const scheduleType = (await screen.findByTestId('setting-scheduleType')) as HTMLSelectElement;
    expect(screen.queryByTestId('settings-schedules-tab')).toBeNull();

    await userEvent.selectOptions(scheduleType, 'company');
    await userEvent.click(await screen.findByTestId('settings-schedules-tab'));
    const monday = await screen.findByTestId('schedule-row-monday');
    expect((within(monday).getByTestId('schedule-startTime-monday') as HTMLInputElement).value).toBe('08:00');
    expect(screen.getAllByTestId(/^schedule-row-/)).toHaveLength(7);

    await userEvent.click(screen.getByTestId('settings-options-tab'));
    await userEvent.selectOptions(screen.getByTestId('setting-scheduleType'), 'queue');
    await waitFor(() => expect(screen.queryByTestId('settings-schedules-tab')).toBeNull());
  });

  it("saves the working hours with PUT /companies/:id/schedules and refuses a bad 'HH:mm'", async () => {
    settings = settings.map((s) => (s.key === 'scheduleType' ? { ...s, value: 'company' } : s));
    renderWithProviders(<SettingsPage />, { user: admin });
    await userEvent.click(await screen.findByTestId('settings-schedules-tab'));
    const saturdayEnd = (await screen.findByTestId('schedule-endTime-saturday')) as HTMLInputElement;
    fireEvent.change(saturdayEnd, { target: { value: '1330' } });
    expect(saturdayEnd.value).toBe('13:30');

    const mondayStart = screen.getByTestId('schedule-startTime-monday') as HTMLInputElement;
    fireEvent.change(mondayStart, { target: { value: '2599' } });
    expect((screen.getByTestId('schedules-save') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(mondayStart, { target: { value: '0900' } });
    expect((screen.getByTestId('schedules-save') as HTMLButtonElement).disabled).toBe(false);

    await userEvent.click(screen.getByTestId('schedules-save'));
    await screen.findByText('Operation updated successfully.');
    const [call] = calls('PUT', '/api/companies/7/schedules');
    const sent = JSON.parse(String(call![1]!.body)).schedules as CompanySchedule[];
    expect(sent.find((r) => r.weekdayEn === 'saturday')).toMatchObject({
      startTime: '08:00',
      endTime: '13:30',
    });
    expect(sent.find((r) => r.weekdayEn === 'monday')).toMatchObject({
      startTime: '09:00',
      endTime: '18:00',
    });
    expect(sent).toHaveLength(7);
  });

  it('is not shown to agents', () => {
    renderWithProviders(<SettingsPage />, { user: createSessionUser({ profile: 'user' }) });
    expect(screen.getByTestId('no-permission')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('masks typed times as HH:mm', () => {
    expect(maskTime('0830')).toBe('08:30');
    expect(maskTime('8')).toBe('8');
    expect(maskTime('12:345')).toBe('12:34');
  });
});
