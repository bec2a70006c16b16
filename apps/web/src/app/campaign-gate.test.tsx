import { screen } from '@testing-library/react';
import { STORAGE_KEYS } from '@zapdesk/shared';
import { describe, expect, it } from 'vitest';
import { createSessionUser } from '../test/fixtures';
import { renderWithProviders } from '../test/render';
import { CampaignGate } from './router';

const gated = (
  <CampaignGate>
    <div data-testid="campaign-page">campaigns</div>
  </CampaignGate>
);

describe('campaign routes (/campaigns, /campaigns-config, /campaign/:id/report)', () => {
  it('show their page when the plan allows campaigns', async () => {
    renderWithProviders(gated, { user: createSessionUser({ profile: 'admin' }, { useCampaigns: true }) });
    expect(await screen.findByTestId('campaign-page')).toBeTruthy();
  });

  it('show their page with the cshow local flag, whatever the plan', async () => {
    localStorage.setItem(STORAGE_KEYS.cshow, '1');
    renderWithProviders(gated, { user: createSessionUser({ profile: 'admin' }, { useCampaigns: false }) });
    expect(await screen.findByTestId('campaign-page')).toBeTruthy();
  });

  it('are not found without the plan flag or cshow', async () => {
    renderWithProviders(gated, { user: createSessionUser({ profile: 'admin' }, { useCampaigns: false }) });
    expect(await screen.findByTestId('not-found')).toBeTruthy();
    expect(screen.queryByTestId('campaign-page')).toBeNull();
  });
});
