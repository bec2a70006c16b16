import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSessionUser } from '../../test/fixtures';
import { renderWithLocation } from '../../test/render';
import { TopBar } from './top-bar';

const renderBar = (compact: boolean, profile: 'admin' | 'user' = 'admin') =>
  renderWithLocation(<TopBar onToggleMenu={() => {}} zIndex={1} compact={compact} />, {
    user: createSessionUser({ profile }),
    route: '/tickets',
  });

describe('TopBar', () => {
  // The counters stay loading: this test is about the buttons.
  beforeEach(() =>
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => {})),
    ),
  );
  afterEach(() => vi.unstubAllGlobals());

  it('shows the settings buttons on wide screens, without a more menu', async () => {
    renderBar(false);
    expect(await screen.findByTestId('language-menu-button')).toBeTruthy();
    expect(screen.getByTestId('plans-button')).toBeTruthy();
    expect(screen.getByTestId('theme-toggle')).toBeTruthy();
    expect(screen.queryByTestId('top-bar-more')).toBeNull();
  });

  it('folds the settings into a more menu on phones; the profile menu stays on the bar', async () => {
    const user = userEvent.setup();
    renderBar(true);
    await user.click(await screen.findByTestId('top-bar-more'));
    for (const id of ['more-plans', 'more-other-services', 'more-theme', 'more-volume', 'more-refresh'])
      expect(await screen.findByTestId(id)).toBeTruthy();
    expect(screen.queryByTestId('language-menu-button')).toBeNull();
    expect(screen.queryByTestId('theme-toggle')).toBeNull();
    expect(screen.getByTestId('user-menu-button')).toBeTruthy();
    expect(screen.getByTestId('notifications-button')).toBeTruthy();

    await user.click(screen.getByTestId('more-language'));
    await user.click(await screen.findByTestId('language-option-es'));
    await waitFor(() => expect(document.documentElement.lang).toBe('es'));

    await user.click(screen.getByTestId('top-bar-more'));
    await user.click(await screen.findByTestId('more-plans'));
    expect(screen.getByTestId('location').textContent).toBe('/planos');
  });

  it('gives agents no plans nor other services in the more menu', async () => {
    const user = userEvent.setup();
    renderBar(true, 'user');
    await user.click(await screen.findByTestId('top-bar-more'));
    expect(await screen.findByTestId('more-theme')).toBeTruthy();
    expect(screen.queryByTestId('more-plans')).toBeNull();
    expect(screen.queryByTestId('more-other-services')).toBeNull();
  });
});
