import { QueryClient } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Campaign } from '@zapdesk/shared';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSessionUser } from '../../test/fixtures';
import { json, stubFetch } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { CampaignModal } from './campaign-modal';
import { CampaignReportPage } from './campaign-report-page';
import { CampaignsConfigPage } from './campaigns-config-page';
import { applyCampaignEvent, campaignKeys } from './campaigns-live';
import { CampaignsPage } from './campaigns-page';
import { campaignMediaFile } from './use-campaigns';

const campaign = (overrides: Partial<Campaign> = {}): Campaign => ({
  id: 1,
  name: 'Black Friday',
  message1: 'Olá {{firstName}}, ofertas!',
  message2: '',
  message3: '',
  message4: '',
  message5: '',
  confirmation: false,
  confirmationMessage1: '',
  confirmationMessage2: '',
  confirmationMessage3: '',
  confirmationMessage4: '',
  confirmationMessage5: '',
  status: 'INATIVA',
  scheduledAt: null,
  completedAt: null,
  whatsappId: 3,
  contactListId: 4,
  tagId: null,
  fileListId: null,
  companyId: 1,
  mediaPath: null,
  mediaName: null,
  templateName: null,
  templateLanguage: null,
  contactList: { id: 4, name: 'Clientes VIP' },
  whatsapp: { id: 3, name: 'Vendas' },
  editable: true,
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  ...overrides,
});

const connections = [
  { id: 3, name: 'Vendas', status: 'CONNECTED', provider: 'beta', isDefault: true },
  { id: 9, name: 'Oficial', status: 'CONNECTED', provider: 'cloud', isDefault: false },
];

const totals = { recipients: 10, delivered: 3, pending: 5, failed: 1, skipped: 1, confirmed: 2 };

/** The campaign settings the stubbed server holds. */
const SAVED_SETTINGS = {
  messageInterval: 20,
  longerIntervalAfter: 20,
  greaterInterval: 60,
  variables: [{ key: 'loja', value: 'Centro' }],
  sendWindowStart: '08:00',
  sendWindowEnd: '20:00',
  dailyCap: 1000,
  jitterSeconds: 5,
  optOutKeyword: 'SAIR',
};

describe('campaigns', () => {
  let records: Campaign[];
  let commandAnswer: Response;
  let reportCampaign: Campaign;
  const admin = createSessionUser({ profile: 'admin' }, { useCampaigns: true });
  const calls = (url: string, method = 'GET') =>
    fetchMock.mock.calls.filter(([u, init]) => u === url && (init?.method ?? 'GET') === method);

  const fetchMock = stubFetch(({ url, method, init }) => {
    if (url.startsWith('/api/campaigns?')) return json(200, { records, hasMore: false });
    if (url === '/api/campaigns' && method === 'POST')
      return json(201, campaign({ id: 7, ...JSON.parse(String(init?.body)) }));
    const one = /^\/api\/campaigns\/(\d+)$/.exec(url);
    if (one && method === 'GET') {
      if (one[1] === '2') return json(200, { ...reportCampaign, totals });
      const found = records.find((r) => r.id === Number(one[1]));
      return found ? json(200, { ...found, totals }) : json(404, { error: 'ERR_NOT_FOUND' });
    }
    if (one && method === 'DELETE') return new Response(null, { status: 204 });
    if (one && method === 'PUT') return json(200, campaign({ id: Number(one[1]) }));
    if (/^\/api\/campaigns\/\d+\/media-upload$/.test(url))
      return json(200, campaign({ mediaPath: 'x', mediaName: 'tabela_de_preços.pdf' }));
    if (/^\/api\/campaigns\/\d+\/(cancel|restart)$/.test(url)) return commandAnswer.clone();
    if (url.startsWith('/api/campaigns/2/shippings?'))
      return json(200, {
        records: [
          {
            id: 11,
            campaignId: 2,
            number: '5511999990001',
            name: 'Ana',
            contactId: 40,
            status: 'delivered',
            variant: 1,
            message: 'Olá Ana',
            deliveredAt: '2026-11-20T10:00:00.000Z',
            confirmationRequestedAt: null,
            confirmedAt: null,
            error: null,
          },
        ],
        hasMore: false,
      });
    if (url.startsWith('/api/whatsapp?')) return json(200, connections);
    if (url === '/api/contact-lists/list')
      return json(200, [{ id: 4, name: 'Clientes VIP', contactsCount: 3 }]);
    if (url === '/api/tags/list') return json(200, [{ id: 6, name: 'leads', color: '#000', kanban: 0 }]);
    if (url.startsWith('/api/files?'))
      return json(200, { files: [{ id: 8, name: 'Tabela' }], hasMore: false });
    if (url === '/api/campaign-settings' && method === 'GET') return json(200, { settings: SAVED_SETTINGS });
    if (url === '/api/campaign-settings' && method === 'POST')
      return json(200, JSON.parse(String(init?.body)));
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
  beforeEach(() => {
    records = [
      campaign(),
      campaign({
        id: 2,
        name: 'Natal',
        status: 'EM_ANDAMENTO',
        confirmation: true,
        contactListId: null,
        contactList: null,
        tagId: 6,
        editable: false,
        scheduledAt: '2026-12-01T12:00:00.000Z',
      }),
      campaign({ id: 5, name: 'Páscoa', status: 'CANCELADA' }),
    ];
    commandAnswer = json(200, {});
    reportCampaign = campaign({ id: 2, name: 'Natal', status: 'EM_ANDAMENTO', editable: false });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('lists campaigns with status labels, recipients, connection and confirmation; deletes after confirmation', async () => {
    const user = userEvent.setup();
    renderWithProviders(<CampaignsPage />, { user: admin });
    const row = await screen.findByTestId('campaign-row-2');
    expect(within(row).getByText('In progress')).toBeTruthy();
    expect(within(row).getByText('Tag: leads')).toBeTruthy();
    expect(within(row).getByText('Vendas')).toBeTruthy();
    expect(within(row).getByText('Enabled')).toBeTruthy();
    const first = screen.getByTestId('campaign-row-1');
    expect(within(first).getByText('Inactive')).toBeTruthy();
    expect(within(first).getByText('Clientes VIP')).toBeTruthy();
    expect(within(first).getByText('Disabled')).toBeTruthy();
    expect(screen.getByTestId('campaign-row-5').textContent).toContain('Cancelled');
    // cancel while running or scheduled; restart when cancelled; start (restart) when inactive
    expect(screen.queryByTestId('campaign-cancel-1')).toBeNull();
    expect(screen.getByTestId('campaign-restart-1').getAttribute('aria-label')).toBe(
      'Start campaign Black Friday',
    );
    expect(screen.getByTestId('campaign-cancel-2')).toBeTruthy();
    expect(screen.queryByTestId('campaign-restart-2')).toBeNull();
    expect(screen.getByTestId('campaign-restart-5').getAttribute('aria-label')).toBe(
      'Restart campaign Páscoa',
    );
    // The report icon's tooltip is a sentence, not a section of the translations.
    expect(screen.getByTestId('campaign-report-1').getAttribute('aria-label')).toBe('Report of Black Friday');
    await user.click(screen.getByTestId('campaign-delete-1'));
    await user.click(await screen.findByTestId('confirm-button'));
    await waitFor(() => expect(calls('/api/campaigns/1', 'DELETE')).toHaveLength(1));
    expect(await screen.findByText('Campaign deleted')).toBeTruthy();
  });

  it('shows a failed cancel as an error toast with its message, and a restart as a success toast', async () => {
    const user = userEvent.setup();
    commandAnswer = json(409, { error: 'ERR_CAMPAIGN_NOT_CANCELLABLE' });
    renderWithProviders(<CampaignsPage />, { user: admin });
    await user.click(await screen.findByTestId('campaign-cancel-2'));
    await waitFor(() => expect(calls('/api/campaigns/2/cancel', 'POST')).toHaveLength(1));
    expect(await screen.findByText('Only scheduled or running campaigns can be cancelled.')).toBeTruthy();
    commandAnswer = json(200, {});
    await user.click(screen.getByTestId('campaign-restart-5'));
    expect(await screen.findByText('Campaign restarted')).toBeTruthy();
    expect(calls('/api/campaigns/5/restart', 'POST')).toHaveLength(1);
  });

  it('validates the dialog: name 2–50, first message and a contact list required', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderWithProviders(<CampaignModal campaignId={null} onClose={onClose} />, { user: admin });
    expect(screen.getByText('New campaign')).toBeTruthy();
    await user.click(screen.getByTestId('campaign-save'));
    const form = screen.getByTestId('campaign-modal');
    // name, first message and contact list
    expect(await within(form).findAllByText('Required')).toHaveLength(3);
    await user.type(screen.getByTestId('campaign-name'), 'A');
    await user.click(screen.getByTestId('campaign-save'));
    expect(await within(form).findByText('Too Short!')).toBeTruthy();
    expect(calls('/api/campaigns', 'POST')).toHaveLength(0);
    // no connection chosen: the company's default one (null)
    await user.type(screen.getByTestId('campaign-name'), 'B');
    await user.type(screen.getByTestId('campaign-message1'), 'Oi');
    await user.click(screen.getByRole('combobox', { name: 'Contact list' }));
    await user.click(await screen.findByRole('option', { name: 'Clientes VIP' }));
    await user.click(screen.getByTestId('campaign-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(JSON.parse(String(calls('/api/campaigns', 'POST')[0]![1]!.body))).toMatchObject({
      name: 'AB',
      whatsappId: null,
      contactListId: 4,
    });
  });

  it('posts the variants, the confirmation messages and the list, never the tag', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderWithProviders(<CampaignModal campaignId={null} onClose={onClose} />, { user: admin });
    const form = screen.getByTestId('campaign-modal');
    await user.type(screen.getByTestId('campaign-name'), 'Aniversário');
    await user.type(screen.getByTestId('campaign-message1'), 'Parabéns!');
    await user.click(screen.getByTestId('campaign-variant-tab-2'));
    await user.type(screen.getByTestId('campaign-message2'), 'Feliz aniversário!');
    await user.click(screen.getByRole('combobox', { name: 'Connection' }));
    await user.click(await screen.findByRole('option', { name: 'Vendas' }));
    await user.click(screen.getByRole('combobox', { name: 'Contact list' }));
    await user.click(await screen.findByRole('option', { name: 'Clientes VIP' }));
    // confirmation on: its first message becomes required
    await user.click(screen.getByTestId('campaign-recipients-tag'));
    await user.click(screen.getByRole('combobox', { name: 'Tag' }));
    await user.click(await screen.findByRole('option', { name: 'leads' }));
    await user.click(screen.getByTestId('campaign-recipients-list'));
    await user.click(screen.getByTestId('campaign-confirmation'));
    await user.click(screen.getByTestId('campaign-save'));
    expect(await within(form).findByText('Required')).toBeTruthy();
    await user.type(screen.getByTestId('campaign-confirmation-message1'), 'Responda SIM');
    await user.click(screen.getByTestId('campaign-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const body = JSON.parse(String(calls('/api/campaigns', 'POST')[0]![1]!.body));
    expect(body).toMatchObject({
      name: 'Aniversário',
      message1: 'Parabéns!',
      message2: 'Feliz aniversário!',
      confirmation: true,
      confirmationMessage1: 'Responda SIM',
      whatsappId: 3,
      contactListId: 4,
      tagId: null,
      scheduledAt: null,
    });
    expect(body).not.toHaveProperty('templateName');
  });

  it('asks for a template name and language when the connection is a Cloud API one', async () => {
    const user = userEvent.setup();
    renderWithProviders(<CampaignModal campaignId={null} onClose={() => {}} />, { user: admin });
    expect(screen.queryByTestId('campaign-template')).toBeNull();
    await user.click(screen.getByRole('combobox', { name: 'Connection' }));
    await user.click(await screen.findByRole('option', { name: 'Oficial' }));
    expect(await screen.findByTestId('campaign-template-name')).toBeTruthy();
    expect(screen.getByTestId('campaign-template-language')).toBeTruthy();
  });

  it('opens a running campaign read-only, saying so in the title', async () => {
    renderWithProviders(<CampaignModal campaignId={2} onClose={() => {}} />, { user: admin });
    expect(await screen.findByText('Campaign - read only')).toBeTruthy();
    await waitFor(() =>
      expect((screen.getByTestId('campaign-name') as HTMLInputElement).value).toBe('Natal'),
    );
    expect((screen.getByTestId('campaign-name') as HTMLInputElement).disabled).toBe(true);
    // Nothing to save: no save button, and the cancel button closes.
    expect(screen.queryByTestId('campaign-save')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Close' })).toBeTruthy();
    expect(screen.getByTestId('campaign-read-only')).toBeTruthy();
  });

  it('edits an inactive campaign with the edit title', async () => {
    renderWithProviders(<CampaignModal campaignId={1} onClose={() => {}} />, { user: admin });
    expect(await screen.findByText('Edit campaign')).toBeTruthy();
    await waitFor(() =>
      expect((screen.getByTestId('campaign-name') as HTMLInputElement).value).toBe('Black Friday'),
    );
    expect((screen.getByTestId('campaign-save') as HTMLButtonElement).disabled).toBe(false);
  });

  it('opens a campaign scheduled within the hour read-only (the server says it is not editable)', async () => {
    records[0] = campaign({
      status: 'PROGRAMADA',
      scheduledAt: new Date(Date.now() + 30 * 60_000).toISOString(),
      editable: false,
    });
    renderWithProviders(<CampaignModal campaignId={1} onClose={() => {}} />, { user: admin });
    expect(await screen.findByText('Campaign - read only')).toBeTruthy();
    expect(screen.queryByTestId('campaign-save')).toBeNull();
  });

  it('saves an edited campaign, then uploads its media with spaces in the name made underscores', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderWithProviders(<CampaignModal campaignId={1} onClose={onClose} />, { user: admin });
    await waitFor(() =>
      expect((screen.getByTestId('campaign-name') as HTMLInputElement).value).toBe('Black Friday'),
    );
    await user.upload(
      screen.getByTestId('campaign-file'),
      new File(['%PDF'], 'tabela de preços.pdf', { type: 'application/pdf' }),
    );
    expect(screen.getByTestId('campaign-media').textContent).toBe('tabela de preços.pdf');
    await user.click(screen.getByTestId('campaign-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(JSON.parse(String(calls('/api/campaigns/1', 'PUT')[0]![1]!.body))).toMatchObject({
      name: 'Black Friday',
      contactListId: 4,
      whatsappId: 3,
    });
    const upload = calls('/api/campaigns/1/media-upload', 'POST')[0]![1]!.body as FormData;
    expect((upload.get('file') as File).name).toBe('tabela_de_preços.pdf');
  });

  it('replaces spaces in media file names by underscores', () => {
    const file = campaignMediaFile(new File(['x'], 'tabela de preços.pdf', { type: 'application/pdf' }));
    expect(file.name).toBe('tabela_de_preços.pdf');
    expect(file.type).toBe('application/pdf');
  });

  it('config: interval selects with the spec defaults, no duplicate variable keys, saves every field', async () => {
    const user = userEvent.setup();
    renderWithProviders(<CampaignsConfigPage />, { user: admin });
    expect(await screen.findByTestId('campaigns-config-form')).toBeTruthy();
    await waitFor(() =>
      expect((screen.getByTestId('campaigns-config-messageInterval') as HTMLInputElement).value).toBe('20'),
    );
    expect((screen.getByTestId('campaigns-config-longerIntervalAfter') as HTMLInputElement).value).toBe('20');
    expect((screen.getByTestId('campaigns-config-greaterInterval') as HTMLInputElement).value).toBe('60');
    await user.click(screen.getByRole('combobox', { name: 'Interval between messages' }));
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      'No interval',
      '5 seconds',
      '10 seconds',
      '15 seconds',
      '20 seconds',
    ]);
    await user.click(options[1]!);
    expect(screen.getByTestId('campaigns-config-variable-loja')).toBeTruthy();
    await user.type(screen.getByTestId('campaigns-config-variable-key'), 'loja');
    await user.type(screen.getByTestId('campaigns-config-variable-value'), 'Outra');
    await user.click(screen.getByTestId('campaigns-config-variable-add'));
    expect(await screen.findByText('This key already exists')).toBeTruthy();
    expect(within(screen.getByTestId('campaigns-config-variables')).getAllByRole('listitem')).toHaveLength(1);
    await user.clear(screen.getByTestId('campaigns-config-variable-key'));
    await user.type(screen.getByTestId('campaigns-config-variable-key'), 'cupom');
    await user.click(screen.getByTestId('campaigns-config-variable-add'));
    expect(screen.getByTestId('campaigns-config-variable-cupom')).toBeTruthy();
    await user.clear(screen.getByTestId('campaigns-config-dailyCap'));
    await user.type(screen.getByTestId('campaigns-config-dailyCap'), '500');
    await user.type(screen.getByTestId('campaigns-config-variable-key'), 'bad key');
    await user.click(screen.getByTestId('campaigns-config-variable-add'));
    expect(await screen.findByText('Invalid value')).toBeTruthy();
    await user.clear(screen.getByTestId('campaigns-config-variable-key'));
    await user.click(screen.getByTestId('campaigns-config-save'));
    await waitFor(() => expect(calls('/api/campaign-settings', 'POST')).toHaveLength(1));
    const body = JSON.parse(String(calls('/api/campaign-settings', 'POST')[0]![1]!.body));
    expect(body.settings).toEqual({
      messageInterval: 5,
      longerIntervalAfter: 20,
      greaterInterval: 60,
      variables: [
        { key: 'loja', value: 'Centro' },
        { key: 'cupom', value: 'Outra' },
      ],
      sendWindowStart: '08:00',
      sendWindowEnd: '20:00',
      dailyCap: 500,
      jitterSeconds: 5,
      optOutKeyword: 'SAIR',
    });
    expect(await screen.findByText('Settings saved')).toBeTruthy();
  });

  it('config: fields disabled until the saved settings answer; a refetch after editing keeps the edits', async () => {
    const stored = { ...SAVED_SETTINGS };
    const answers: Array<(settings: typeof stored) => void> = [];
    const answerOthers = fetchMock.getMockImplementation() as typeof fetch;
    fetchMock.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input) !== '/api/campaign-settings') return answerOthers(input, init);
      if (init?.method === 'POST') {
        // The server answers what it stored (here with a jitter of its own).
        const { settings } = JSON.parse(String(init.body));
        return json(200, { settings: { ...settings, jitterSeconds: 7 } });
      }
      return new Promise<Response>((resolve) => answers.push((settings) => resolve(json(200, { settings }))));
    });
    const user = userEvent.setup();
    const { queryClient } = renderWithProviders(<CampaignsConfigPage />, { user: admin });
    expect(await screen.findByTestId('campaigns-config-form')).toBeTruthy();
    const dailyCap = screen.getByTestId('campaigns-config-dailyCap') as HTMLInputElement;
    const optOut = screen.getByTestId('campaigns-config-optOutKeyword') as HTMLInputElement;
    expect(answers).toHaveLength(1);
    expect(dailyCap.disabled).toBe(true);
    expect(optOut.disabled).toBe(true);
    expect((screen.getByTestId('campaigns-config-variable-key') as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByTestId('campaigns-config-save') as HTMLButtonElement).disabled).toBe(true);
    expect(
      screen.getByRole('combobox', { name: 'Interval between messages' }).getAttribute('aria-disabled'),
    ).toBe('true');

    act(() => answers[0]?.(stored));
    await waitFor(() => expect(dailyCap.disabled).toBe(false));
    expect(dailyCap.value).toBe('1000');
    await user.clear(dailyCap);
    await user.type(dailyCap, '250');
    await user.clear(optOut);
    await user.type(optOut, 'PARAR');

    // A refetch (window focus, invalidation) answers other stored settings.
    void queryClient.refetchQueries({ queryKey: campaignKeys.settings });
    await waitFor(() => expect(answers).toHaveLength(2));
    await act(async () =>
      answers[1]?.({ ...stored, dailyCap: 2000, optOutKeyword: 'STOP', jitterSeconds: 9 }),
    );
    await waitFor(() => expect(queryClient.getQueryState(campaignKeys.settings)?.fetchStatus).toBe('idle'));
    expect(dailyCap.value).toBe('250');
    expect(optOut.value).toBe('PARAR');
    expect((screen.getByTestId('campaigns-config-jitterSeconds') as HTMLInputElement).value).toBe('5');

    await user.click(screen.getByTestId('campaigns-config-save'));
    await waitFor(() => expect(calls('/api/campaign-settings', 'POST')).toHaveLength(1));
    const body = JSON.parse(String(calls('/api/campaign-settings', 'POST')[0]![1]!.body));
    expect(body.settings).toEqual({ ...stored, dailyCap: 250, optOutKeyword: 'PARAR' });
    // After the save the form shows what the server stored.
    await waitFor(() =>
      expect((screen.getByTestId('campaigns-config-jitterSeconds') as HTMLInputElement).value).toBe('7'),
    );
    expect(dailyCap.value).toBe('250');
  });

  it('report: totals, a progress bar moved by realtime progress, the recipients, and a reload 5 s after FINALIZADA', async () => {
    const { queryClient } = renderWithProviders(<ReportRoute />, {
      user: admin,
      route: '/campaign/2/report',
    });
    expect(await screen.findByText('Report of Natal')).toBeTruthy();
    expect(screen.getByTestId('campaign-report-recipients').textContent).toBe('10');
    expect(screen.getByTestId('campaign-report-delivered').textContent).toBe('3');
    expect(screen.getByTestId('campaign-report-pending').textContent).toBe('5');
    expect(screen.getByTestId('campaign-report-failed').textContent).toBe('1');
    expect(screen.getByTestId('campaign-report-skipped').textContent).toBe('1');
    expect(screen.getByTestId('campaign-report-confirmed').textContent).toBe('2');
    expect(screen.getByTestId('campaign-report-percent').textContent).toBe('50%');
    expect(await screen.findByTestId('campaign-shipping-11')).toBeTruthy();
    expect(screen.getByTestId('campaign-shipping-11').textContent).toContain('Delivered');

    act(() =>
      applyCampaignEvent(queryClient, {
        action: 'progress',
        id: 2,
        status: 'EM_ANDAMENTO',
        totals: { recipients: 10, delivered: 7, pending: 1, failed: 1, skipped: 1, confirmed: 3 },
      }),
    );
    await waitFor(() => expect(screen.getByTestId('campaign-report-percent').textContent).toBe('90%'));
    expect(screen.getByTestId('campaign-report-progress').getAttribute('aria-valuenow')).toBe('90');

    const reportCalls = () => calls('/api/campaigns/2').length;
    const before = reportCalls();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    reportCampaign = campaign({ id: 2, name: 'Natal', status: 'FINALIZADA' });
    act(() =>
      applyCampaignEvent(queryClient, {
        action: 'progress',
        id: 2,
        status: 'FINALIZADA',
        totals: { recipients: 10, delivered: 8, pending: 0, failed: 1, skipped: 1, confirmed: 3 },
      }),
    );
    await waitFor(() => expect(screen.getByTestId('campaign-report-status').textContent).toBe('Finished'));
    await act(async () => {
      vi.advanceTimersByTime(4900);
    });
    expect(reportCalls()).toBe(before);
    await act(async () => {
      vi.advanceTimersByTime(200);
    });
    await waitFor(() => expect(reportCalls()).toBe(before + 1));
  });

  it('report: filters the recipients by status and searches them by name or number', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ReportRoute />, { user: admin, route: '/campaign/2/report' });
    expect(await screen.findByTestId('campaign-shipping-11')).toBeTruthy();
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Failed' }));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(
          ([url]) =>
            String(url).startsWith('/api/campaigns/2/shippings?') && String(url).includes('status=failed'),
        ),
      ).toBe(true),
    );
    await user.type(screen.getByTestId('campaign-report-search'), '5511');
    await waitFor(
      () =>
        expect(
          fetchMock.mock.calls.some(
            ([url]) => String(url).includes('searchParam=5511') && String(url).includes('status=failed'),
          ),
        ).toBe(true),
      { timeout: 3000 },
    );
  });

  it('update events replace the listed row and the report, and reload recipients at most every 5 s or on a new status', () => {
    const queryClient = new QueryClient();
    const running = campaign({ id: 30, status: 'EM_ANDAMENTO', editable: false });
    queryClient.setQueryData(campaignKeys.list(''), {
      pages: [{ records: [running], count: 1, hasMore: false }],
      pageParams: [1],
    });
    queryClient.setQueryData(campaignKeys.detail(30), { ...running, totals });
    queryClient.setQueryData(campaignKeys.shippingsPage(30, '', ''), { pages: [], pageParams: [] });
    const stale = () => queryClient.getQueryState(campaignKeys.shippingsPage(30, '', ''))!.isInvalidated;
    const moved = { ...totals, delivered: 5, pending: 3 };
    applyCampaignEvent(queryClient, { action: 'update', record: running, totals: moved }, 100_000);
    expect(queryClient.getQueryData<{ totals: typeof totals }>(campaignKeys.detail(30))!.totals).toEqual(
      moved,
    );
    expect(stale()).toBe(true);
    queryClient.setQueryData(campaignKeys.shippingsPage(30, '', ''), { pages: [], pageParams: [] });
    applyCampaignEvent(queryClient, { action: 'update', record: running, totals: moved }, 102_000);
    expect(stale()).toBe(false);
    const done = { ...running, status: 'FINALIZADA' as const };
    applyCampaignEvent(queryClient, { action: 'update', record: done, totals: moved }, 103_000);
    expect(stale()).toBe(true);
    const list = queryClient.getQueryData<{ pages: { records: Campaign[] }[] }>(campaignKeys.list(''));
    expect(list!.pages[0]!.records[0]!.status).toBe('FINALIZADA');
  });
});

/** The report page under its route, so the :campaignId param resolves. */
function ReportRoute() {
  return (
    <Routes>
      <Route path="/campaign/:campaignId/report" element={<CampaignReportPage />} />
    </Routes>
  );
}
