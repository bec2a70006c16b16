import { QueryClient } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createSessionUser } from '../../test/fixtures';
import { json, stubFetch } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { IntegrationModal } from './integration-modal';
import { PromptsPage } from './prompts-page';
import { QueueIntegrationPage } from './queue-integration-page';
import { applyIntegrationEvent, applyPromptEvent, botKeys } from './use-bots';

const integration = (id: number, type: string, name: string) => ({
  id,
  type,
  name,
  projectName: name,
  jsonContent: '',
  hasJsonContent: false,
  language: 'pt-BR',
  urlN8N: 'https://typebot.example.test',
  typebotSlug: 'loja',
  typebotExpires: 1,
  typebotDelayMessage: 1000,
  typebotKeywordFinish: '',
  typebotKeywordRestart: '',
  typebotRestartMessage: '',
  typebotUnknownMessage: '',
  secret: 's',
});

describe('prompts and queue integrations pages', () => {
  const withPlan = createSessionUser({ profile: 'admin' }, { useOpenAi: true, useIntegrations: true });
  const withoutPlan = createSessionUser({ profile: 'admin' }, { useOpenAi: false, useIntegrations: false });

  const fetchMock = stubFetch(({ url, method }) => {
    if (url === '/api/prompt')
      return json(200, {
        prompts: [
          {
            id: 1,
            name: 'Assistente Azul',
            prompt: 'x'.repeat(60),
            model: 'gpt-4o-mini',
            maxTokens: 150,
            temperature: 1,
            maxMessages: 10,
            apiKey: 'sk-…1234',
            queueId: 2,
            queue: { id: 2, name: 'Suporte' },
          },
        ],
      });
    if (url.startsWith('/api/queueIntegration/?')) {
      const page = new URL(url, 'http://x').searchParams.get('pageNumber');
      return json(200, {
        queueIntegrations:
          page === '1' ? [integration(7, 'typebot', 'Typebot Loja')] : [integration(8, 'n8n', 'Fluxo n8n')],
        count: 2,
        hasMore: page === '1',
      });
    }
    if (url === '/api/queueIntegration/testSession' && method === 'POST')
      return json(200, { ok: true, replies: ['Olá! Eu sou o bot.'] });
    return json(404, { error: 'ERR_NOT_FOUND' });
  });

  it('lists prompts with name, queue and max tokens', async () => {
    renderWithProviders(<PromptsPage />, { user: withPlan, route: '/prompts' });
    expect(await screen.findByText('Assistente Azul')).toBeTruthy();
    expect(screen.getByText('Suporte')).toBeTruthy();
    expect(screen.getByText('150')).toBeTruthy();
  });

  it('without the plan flag: the no-permission toast and no list', async () => {
    renderWithProviders(<PromptsPage />, { user: withoutPlan, route: '/prompts' });
    expect(await screen.findByText(/no permission to access this page/)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalledWith('/api/prompt', expect.anything());
  });

  it('lists integrations with their type logo and loads the next page on scroll', async () => {
    renderWithProviders(<QueueIntegrationPage />, { user: withPlan, route: '/queue-integration' });
    expect(await screen.findByText('Typebot Loja')).toBeTruthy();
    expect(screen.getByTestId('integration-logo-typebot')).toBeTruthy();
    // The table's scrolling container (within 100 px of its bottom in jsdom).
    fireEvent.scroll(screen.getByTestId('integrations-table').parentElement!);
    expect(await screen.findByText('Fluxo n8n')).toBeTruthy();
    expect(screen.getByTestId('integration-logo-n8n')).toBeTruthy();
  });

  it('the dialog shows the typebot fields and the test button runs testSession', async () => {
    const user = userEvent.setup();
    renderWithProviders(<IntegrationModal integrationId={null} onClose={() => {}} />, { user: withPlan });
    expect(screen.getByTestId('integration-typebotSlug')).toBeTruthy();
    expect(screen.queryByTestId('integration-jsonContent')).toBeNull();
    await user.type(screen.getByTestId('integration-name'), 'Meu bot');
    await user.type(screen.getByTestId('integration-urlN8N'), 'https://typebot.example.test');
    await user.type(screen.getByTestId('integration-typebotSlug'), 'loja');
    await user.click(screen.getByTestId('integration-test'));
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith('/api/queueIntegration/testSession', expect.anything()),
    );
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/queueIntegration/testSession')!;
    expect(JSON.parse(String(call[1].body))).toMatchObject({ type: 'typebot', typebotSlug: 'loja' });
    expect(await screen.findByText(/Olá! Eu sou o bot./)).toBeTruthy();
    // Typing the three fields takes a while on a loaded machine.
  }, 20_000);

  it('marks a missing url and slug on their fields (not the server field name) and sends nothing', async () => {
    const user = userEvent.setup();
    renderWithProviders(<IntegrationModal integrationId={null} onClose={() => {}} />, { user: withPlan });
    await user.type(screen.getByTestId('integration-name'), 'Meu bot');
    await user.click(screen.getByTestId('integration-save'));
    const url = screen.getByTestId('integration-urlN8N').closest('.MuiFormControl-root')!;
    expect(await within(url as HTMLElement).findByText('Required')).toBeTruthy();
    await user.type(screen.getByTestId('integration-urlN8N'), 'https://typebot.example.test');
    await user.click(screen.getByTestId('integration-save'));
    const slug = screen.getByTestId('integration-typebotSlug').closest('.MuiFormControl-root')!;
    expect(await within(slug as HTMLElement).findByText('Required')).toBeTruthy();
    expect(screen.queryByText(/urlN8N|typebotSlug/)).toBeNull();
    expect(fetchMock).not.toHaveBeenCalledWith('/api/queueIntegration', expect.anything());
  }, 20_000);
});

describe('prompt and integration events', () => {
  it('mark the lists and pickers stale', () => {
    const client = new QueryClient();
    client.setQueryData(botKeys.prompts, { prompts: [] });
    client.setQueryData(botKeys.integrationList(''), { pages: [], pageParams: [] });
    client.setQueryData(['queues'], []);
    applyPromptEvent(client);
    applyIntegrationEvent(client);
    expect(client.getQueryState(botKeys.prompts)?.isInvalidated).toBe(true);
    expect(client.getQueryState(botKeys.integrationList(''))?.isInvalidated).toBe(true);
    // Positive control: other queries stay fresh.
    expect(client.getQueryState(['queues'])?.isInvalidated).toBe(false);
  });
});
