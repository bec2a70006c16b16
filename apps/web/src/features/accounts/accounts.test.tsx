import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type CompanyRow, DEFAULT_SETTINGS, dueDateColour, type Plan } from '@zapdesk/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../lib/i18n';
import { createPlan, createSessionUser } from '../../test/fixtures';
import { json, stubFetch } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { SettingsPage } from '../settings/settings-page';

const DAY = 86_400_000;

const plan: Plan = createPlan({
  id: 1,
  name: 'Básico',
  value: 99.9,
  useSchedules: true,
  useInternalChat: true,
  useKanban: true,
});
const company = (id: number, dueInDays: number | null): CompanyRow => ({
  id,
  name: `Empresa ${id}`,
  email: `e${id}@x.co`,
  phone: null,
  planId: 1,
  plan,
  status: true,
  campaignsEnabled: false,
  dueDate: dueInDays === null ? null : new Date(Date.now() + dueInDays * DAY + 3_600_000).toISOString(),
  recurrence: 'MENSAL',
  createdAt: '2026-01-10T12:00:00.000Z',
  userCount: 2,
});

describe('dueDateColour (document 3 section 9)', () => {
  it('is yellow at 5 days, orange from -3 to 4, red from -4 on, plain otherwise', () => {
    const now = Date.parse('2026-06-10T12:00:00Z');
    const at = (days: number) => new Date(now + days * DAY + 1000).toISOString();
    expect(dueDateColour(at(6), now)).toBe('none');
    expect(dueDateColour(at(5), now)).toBe('yellow');
    expect(dueDateColour(at(4), now)).toBe('orange');
    expect(dueDateColour(at(0), now)).toBe('orange');
    expect(dueDateColour(new Date(now - 3 * DAY - 1000).toISOString(), now)).toBe('orange');
    expect(dueDateColour(new Date(now - 4 * DAY - 1000).toISOString(), now)).toBe('red');
    expect(dueDateColour(new Date(now - 40 * DAY).toISOString(), now)).toBe('red');
    expect(dueDateColour(null, now)).toBe('none');
  });
});

describe('settings: companies and plans tabs (super user)', () => {
  let companies: CompanyRow[];
  const fetchMock = stubFetch(({ url, method, init }) => {
    if (url === '/api/settings')
      return json(
        200,
        Object.entries(DEFAULT_SETTINGS).map(([key, value]) => ({ key, value })),
      );
    if (url === '/api/companies/list') return json(200, companies);
    if (url === '/api/plans/all') return json(200, [plan]);
    const extend = url.match(/^\/api\/companies\/(\d+)\/extend$/);
    if (extend && method === 'POST') {
      const id = Number(extend[1]);
      companies = companies.map((c) =>
        c.id === id ? { ...c, dueDate: new Date(Date.now() + 40 * DAY).toISOString() } : c,
      );
      return json(
        200,
        companies.find((c) => c.id === id),
      );
    }
    if (url === '/api/companies' && method === 'POST')
      return json(201, { ...company(20, 30), ...JSON.parse(String(init?.body)) });
    if (url === '/api/companies/11' && method === 'PUT')
      return json(200, { ...company(11, 30), ...JSON.parse(String(init?.body)) });
    if (url === '/api/plans/1' && method === 'DELETE')
      return json(409, { error: 'ERR_PLAN_IN_USE', companies: 4 });
    if (url === '/api/plans' && method === 'POST')
      return json(201, { ...plan, ...JSON.parse(String(init?.body)), id: 2 });
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
  beforeEach(async () => {
    await i18n.changeLanguage('pt');
    companies = [company(11, 30), company(12, 5), company(13, 2), company(14, -10)];
  });
  afterEach(async () => {
    vi.unstubAllGlobals();
    await i18n.changeLanguage('en');
  });

  it('shows the tabs only to the super user', async () => {
    renderWithProviders(<SettingsPage />, { user: createSessionUser({ profile: 'admin' }) });
    await screen.findByTestId('settings-options-tab');
    expect(screen.queryByTestId('settings-companies-tab')).toBeNull();
    expect(screen.queryByTestId('settings-plans-tab')).toBeNull();
  });

  it('colours company rows by days to due date and extends one with Expire', async () => {
    renderWithProviders(<SettingsPage />, { user: createSessionUser({ profile: 'admin', super: true }) });
    await userEvent.click(await screen.findByTestId('settings-companies-tab'));
    const row = async (id: number) => screen.findByTestId(`company-row-${id}`);
    expect((await row(11)).getAttribute('data-colour')).toBe('none');
    expect((await row(12)).getAttribute('data-colour')).toBe('yellow');
    expect((await row(13)).getAttribute('data-colour')).toBe('orange');
    expect((await row(14)).getAttribute('data-colour')).toBe('red');
    expect(within(await row(11)).getByText('Básico')).toBeTruthy();
    await userEvent.click(screen.getByTestId('company-expire-14'));
    await screen.findByText(/Vencimento prorrogado para/);
    await waitFor(async () => expect((await row(14)).getAttribute('data-colour')).toBe('none'));
    expect(
      fetchMock.mock.calls.some(([u, i]) => String(u) === '/api/companies/14/extend' && i?.method === 'POST'),
    ).toBe(true);
  });

  it('lists plans in BRL, creates one and explains a plan in use', async () => {
    renderWithProviders(<SettingsPage />, { user: createSessionUser({ profile: 'admin', super: true }) });
    await userEvent.click(await screen.findByTestId('settings-plans-tab'));
    const row = await screen.findByTestId('plan-row-1');
    expect(within(row).getByText(/R\$\s99,90/)).toBeTruthy();
    await userEvent.click(screen.getByTestId('plan-delete-1'));
    await userEvent.click(await screen.findByTestId('confirm-button'));
    await screen.findByText(/Este plano está em uso por empresas/);

    await userEvent.click(screen.getByTestId('add-plan-button'));
    await userEvent.type(screen.getByTestId('plan-name'), 'Pro');
    await userEvent.clear(screen.getByTestId('plan-value'));
    await userEvent.type(screen.getByTestId('plan-value'), '149.9');
    await userEvent.click(screen.getByTestId('plan-useKanban'));
    await userEvent.click(screen.getByTestId('plan-save'));
    await screen.findByText('Plano salvo com sucesso.');
    const post = fetchMock.mock.calls.find(([u, i]) => String(u) === '/api/plans' && i?.method === 'POST')!;
    expect(JSON.parse(String(post[1]!.body))).toMatchObject({
      name: 'Pro',
      value: 149.9,
      useKanban: true,
      users: 1,
    });
  });

  it('creates a company with its admin (due date at local noon) and edits one keeping its due date', async () => {
    renderWithProviders(<SettingsPage />, { user: createSessionUser({ profile: 'admin', super: true }) });
    await userEvent.click(await screen.findByTestId('settings-companies-tab'));
    await userEvent.click(await screen.findByTestId('add-company-button'));
    await userEvent.type(screen.getByTestId('company-name'), 'Padaria');
    await userEvent.type(screen.getByTestId('company-email'), 'dono@padaria.co');
    await userEvent.type(screen.getByTestId('company-password'), 'senha1');
    await userEvent.click(screen.getByTestId('company-plan'));
    await userEvent.click(await screen.findByRole('option', { name: 'Básico' }));
    await userEvent.type(screen.getByTestId('company-due-date'), '2030-01-15');
    await userEvent.click(screen.getByTestId('company-save'));
    await screen.findByText('Empresa salva com sucesso.');
    const post = fetchMock.mock.calls.find(
      ([u, i]) => String(u) === '/api/companies' && i?.method === 'POST',
    )!;
    expect(JSON.parse(String(post[1]!.body))).toMatchObject({
      name: 'Padaria',
      email: 'dono@padaria.co',
      password: 'senha1',
      planId: 1,
      recurrence: 'MENSAL',
      status: true,
      dueDate: new Date('2030-01-15T12:00:00').toISOString(),
    });

    await userEvent.click(await screen.findByTestId('company-edit-11'));
    const name = screen.getByTestId('company-name');
    await userEvent.clear(name);
    await userEvent.type(name, 'Renomeada');
    await userEvent.click(screen.getByTestId('company-save'));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(([u, i]) => String(u) === '/api/companies/11' && i?.method === 'PUT'),
      ).toBe(true),
    );
    const put = fetchMock.mock.calls.find(
      ([u, i]) => String(u) === '/api/companies/11' && i?.method === 'PUT',
    )!;
    const body = JSON.parse(String(put[1]!.body));
    expect(body.name).toBe('Renomeada');
    expect('dueDate' in body).toBe(false);
  });
});
