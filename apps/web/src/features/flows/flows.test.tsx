import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { describe, expect, it, type vi } from 'vitest';
import { createSessionUser, createWhatsapp } from '../../test/fixtures';
import { json, stubFetch } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { FlowCampaignsPage } from './flow-campaigns-page';
import { FlowsPage } from './flows-page';

const admin = createSessionUser({ profile: 'admin' }, { useCampaigns: true });
const agent = createSessionUser({ profile: 'user' }, { useCampaigns: true });
const connection = createWhatsapp({ id: 3, name: 'Loja' });
const stamp = '2026-11-01T00:00:00.000Z';
const flow = { createdAt: stamp, updatedAt: stamp };

function Where() {
  return <div data-testid="where">{useLocation().pathname}</div>;
}

const bodyOf = (fetchMock: ReturnType<typeof vi.fn>, url: string, method: string) => {
  const call = fetchMock.mock.calls.find(([u, init]) => u === url && init?.method === method);
  return call ? JSON.parse(String(call[1]?.body)) : undefined;
};

describe('flows pages', () => {
  const fetchMock = stubFetch(({ url, method, init }) => {
    if (url.startsWith('/api/flowbuilder?'))
      return json(200, {
        flows: [
          { ...flow, id: 7, name: 'Boas-vindas', active: true, broken: false },
          { ...flow, id: 8, name: 'Antigo', active: false, broken: true },
        ],
        hasMore: false,
      });
    if (url === '/api/flowbuilder' && method === 'POST')
      return json(201, { id: 9, name: 'Novo', active: true });
    if (url === '/api/flowbuilder' && method === 'PUT')
      return json(200, { id: 7, name: 'Renomeado', active: true });
    if (url === '/api/flowbuilder/duplicate')
      return json(201, { id: 10, name: 'Boas-vindas (cópia)', active: true });
    if (url === '/api/flowbuilder/7' && method === 'DELETE') return new Response(null, { status: 204 });
    if (url === '/api/flowcampaign' || url.startsWith('/api/flowcampaign?'))
      if (method === 'GET')
        return json(200, {
          flow: [
            {
              id: 4,
              name: 'Promo',
              flowId: 7,
              whatsappId: 3,
              phrase: 'oi',
              status: true,
              flow: { id: 7, name: 'Boas-vindas' },
              whatsapp: { id: 3, name: 'Loja' },
              createdAt: stamp,
              updatedAt: stamp,
            },
          ],
          hasMore: false,
        });
      else return json(method === 'POST' ? 201 : 200, { id: 4, ...JSON.parse(String(init?.body)) });
    if (url.startsWith('/api/whatsapp')) return json(200, [connection]);
    return json(404, { error: 'ERR_NOT_FOUND' });
  });

  const renderFlows = () =>
    renderWithProviders(
      <Routes>
        <Route path="/flowbuilders" element={<FlowsPage />} />
        <Route path="*" element={<Where />} />
      </Routes>,
      { user: admin, route: '/flowbuilders' },
    );

  it('lists flows with status, flags broken references and opens the editor on a row click', async () => {
    const user = userEvent.setup();
    renderFlows();
    expect(await screen.findByText('Boas-vindas')).toBeTruthy();
    expect(within(screen.getByTestId('flow-row-7')).getByText('Active')).toBeTruthy();
    expect(within(screen.getByTestId('flow-row-8')).getByText('Inactive')).toBeTruthy();
    expect(screen.getByTestId('flow-broken-8')).toBeTruthy();
    expect(screen.queryByTestId('flow-broken-7')).toBeNull();
    // The status switch turns the flow off without opening it.
    await user.click(screen.getByTestId('flow-active-7'));
    await waitFor(() =>
      expect(bodyOf(fetchMock, '/api/flowbuilder', 'PUT')).toEqual({ flowId: 7, active: false }),
    );
    expect(screen.queryByTestId('where')).toBeNull();
    await user.click(screen.getByText('Boas-vindas'));
    expect((await screen.findByTestId('where')).textContent).toBe('/flowbuilder/7');
  });

  it('shows the name rules in pt and creates a flow, then opens its editor', async () => {
    localStorage.setItem('i18nextLng', 'pt');
    const { default: i18n } = await import('../../lib/i18n');
    await i18n.changeLanguage('pt');
    try {
      const user = userEvent.setup();
      renderFlows();
      expect(await screen.findByText('Fluxos de conversa')).toBeTruthy();
      await user.click(screen.getByTestId('add-flow'));
      await user.click(await screen.findByTestId('flow-name-save'));
      expect(await screen.findByText('Digite um nome!')).toBeTruthy();
      await user.type(screen.getByTestId('flow-name-input'), 'a');
      await user.click(screen.getByTestId('flow-name-save'));
      expect(await screen.findByText('Muito curto!')).toBeTruthy();
      await user.type(screen.getByTestId('flow-name-input'), 'b'.repeat(50));
      await user.click(screen.getByTestId('flow-name-save'));
      expect(await screen.findByText('Muito longo!')).toBeTruthy();
      expect(bodyOf(fetchMock, '/api/flowbuilder', 'POST')).toBeUndefined();
      await user.clear(screen.getByTestId('flow-name-input'));
      await user.type(screen.getByTestId('flow-name-input'), 'Novo');
      await user.click(screen.getByTestId('flow-name-save'));
      expect((await screen.findByTestId('where')).textContent).toBe('/flowbuilder/9');
      expect(bodyOf(fetchMock, '/api/flowbuilder', 'POST')).toEqual({ name: 'Novo' });
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('renames, duplicates and deletes (after confirmation) from the row menu', async () => {
    const user = userEvent.setup();
    renderFlows();
    await screen.findByText('Boas-vindas');
    await user.click(screen.getByTestId('flow-menu-7'));
    await user.click(await screen.findByTestId('flow-action-rename'));
    const input = (await screen.findByTestId('flow-name-input')) as HTMLInputElement;
    expect(input.value).toBe('Boas-vindas');
    await user.clear(input);
    await user.type(input, 'Renomeado');
    await user.click(screen.getByTestId('flow-name-save'));
    await waitFor(() =>
      expect(bodyOf(fetchMock, '/api/flowbuilder', 'PUT')).toEqual({ name: 'Renomeado', flowId: 7 }),
    );

    await user.click(screen.getByTestId('flow-menu-7'));
    await user.click(await screen.findByTestId('flow-action-duplicate'));
    await waitFor(() =>
      expect(bodyOf(fetchMock, '/api/flowbuilder/duplicate', 'POST')).toEqual({ flowId: 7 }),
    );
    expect(await screen.findByText('Flow duplicated')).toBeTruthy();

    await user.click(screen.getByTestId('flow-menu-7'));
    await user.click(await screen.findByTestId('flow-action-delete'));
    expect(fetchMock).not.toHaveBeenCalledWith(
      '/api/flowbuilder/7',
      expect.objectContaining({ method: 'DELETE' }),
    );
    await user.click(await screen.findByTestId('confirm-button'));
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        '/api/flowbuilder/7',
        expect.objectContaining({ method: 'DELETE' }),
      ),
    );
    expect(await screen.findByText('Flow deleted')).toBeTruthy();
  });

  it('shows flow campaigns with flow and connection names and toggles the status', async () => {
    const user = userEvent.setup();
    renderWithProviders(<FlowCampaignsPage />, { user: admin });
    const row = await screen.findByTestId('flow-campaign-row-4');
    expect(within(row).getByText('Promo')).toBeTruthy();
    expect(within(row).getByText('oi')).toBeTruthy();
    expect(await within(row).findByText('Boas-vindas')).toBeTruthy();
    expect(await within(row).findByText('Loja')).toBeTruthy();
    expect(within(row).getByText('Active')).toBeTruthy();
    await user.click(screen.getByTestId('flow-campaign-status-4'));
    await waitFor(() =>
      expect(bodyOf(fetchMock, '/api/flowcampaign', 'PUT')).toEqual({
        id: 4,
        name: 'Promo',
        flowId: 7,
        whatsappId: 3,
        phrase: 'oi',
        status: false,
      }),
    );
  });

  it('shows an agent (the cshow flag) the flows and flow campaigns without their write controls', async () => {
    // The server takes flow and flow-campaign writes from admins and super users only.
    const first = renderWithProviders(<FlowCampaignsPage />, { user: agent });
    await screen.findByTestId('flow-campaign-row-4');
    expect(screen.queryByTestId('add-flow-campaign')).toBeNull();
    expect(screen.queryByTestId('flow-campaign-edit-4')).toBeNull();
    expect(screen.queryByTestId('flow-campaign-delete-4')).toBeNull();
    expect((screen.getByTestId('flow-campaign-status-4') as HTMLInputElement).disabled).toBe(true);
    first.unmount();
    const second = renderWithProviders(<FlowsPage />, { user: agent, route: '/flowbuilders' });
    await screen.findByText('Boas-vindas');
    expect(screen.queryByTestId('add-flow')).toBeNull();
    expect(screen.queryByTestId('flow-menu-7')).toBeNull();
    expect((screen.getByTestId('flow-active-7') as HTMLInputElement).disabled).toBe(true);
    second.unmount();
    // A super user who is not a company admin writes, as the server allows.
    const superUser = createSessionUser({ profile: 'user', super: true }, { useCampaigns: true });
    const third = renderWithProviders(<FlowsPage />, { user: superUser, route: '/flowbuilders' });
    expect(await screen.findByTestId('flow-menu-7')).toBeTruthy();
    expect(screen.getByTestId('add-flow')).toBeTruthy();
    third.unmount();
    renderWithProviders(<FlowCampaignsPage />, { user: admin });
    expect(await screen.findByTestId('flow-campaign-delete-4')).toBeTruthy();
    expect(screen.getByTestId('flow-campaign-edit-4')).toBeTruthy();
    expect(screen.getByTestId('add-flow-campaign')).toBeTruthy();
  });

  it('flags the empty campaign fields and creates one with flow, connection and phrase', async () => {
    const user = userEvent.setup();
    renderWithProviders(<FlowCampaignsPage />, { user: admin });
    await screen.findByTestId('flow-campaign-row-4');
    await user.click(screen.getByTestId('add-flow-campaign'));
    await user.click(await screen.findByTestId('flow-campaign-save'));
    expect((await screen.findAllByText('Required')).length).toBe(4);
    await user.type(screen.getByTestId('flow-campaign-name'), 'Black Friday');
    await user.click(screen.getByTestId('flow-campaign-flowId'));
    await user.click(await screen.findByRole('option', { name: 'Boas-vindas' }));
    await user.click(screen.getByTestId('flow-campaign-whatsappId'));
    await user.click(await screen.findByRole('option', { name: 'Loja' }));
    await user.type(screen.getByTestId('flow-campaign-phrase'), 'promo');
    await user.click(screen.getByTestId('flow-campaign-save'));
    await waitFor(() =>
      expect(bodyOf(fetchMock, '/api/flowcampaign', 'POST')).toEqual({
        name: 'Black Friday',
        flowId: 7,
        whatsappId: 3,
        phrase: 'promo',
      }),
    );
    expect(await screen.findByText('Phrase created!')).toBeTruthy();
  });

  it('explains a plan without campaigns instead of calling the API', async () => {
    renderWithProviders(<FlowsPage />, {
      user: createSessionUser({ profile: 'admin' }, { useCampaigns: false }),
    });
    expect(await screen.findByTestId('flows-no-plan')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
