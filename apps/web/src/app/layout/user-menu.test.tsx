import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { LanguageMenu } from '../../features/common/language-menu';
import { createSessionUser } from '../../test/fixtures';
import { renderWithLocation, renderWithProviders } from '../../test/render';
import { UserMenu } from './user-menu';

describe('UserMenu (its menu a lazy chunk)', () => {
  it('renders no menu until opened, then logs out and goes to /login', async () => {
    const user = userEvent.setup();
    const logout = vi.fn(async () => {});
    renderWithLocation(<UserMenu />, { user: createSessionUser(), route: '/tickets', session: { logout } });
    expect(screen.queryByTestId('logout')).toBeNull();
    await user.click(screen.getByTestId('user-menu-button'));
    expect(await screen.findByTestId('profile')).toBeTruthy();
    await user.click(screen.getByTestId('logout'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
    expect(logout).toHaveBeenCalledTimes(1);
  });

  it('closes the menu on Escape and opens it again', async () => {
    const user = userEvent.setup();
    renderWithProviders(<UserMenu />, { user: createSessionUser() });
    await user.click(screen.getByTestId('user-menu-button'));
    await screen.findByTestId('logout');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('logout')).toBeNull());
    await user.click(screen.getByTestId('user-menu-button'));
    expect(await screen.findByTestId('logout')).toBeTruthy();
  });
});

describe('LanguageMenu (its menu a lazy chunk)', () => {
  it('lists the languages when opened and switches the UI language', async () => {
    const user = userEvent.setup();
    renderWithProviders(<LanguageMenu />, { user: createSessionUser() });
    expect(screen.queryByTestId('language-option-es')).toBeNull();
    await user.click(screen.getByTestId('language-menu-button'));
    await user.click(await screen.findByTestId('language-option-es'));
    await waitFor(() => expect(document.documentElement.lang).toBe('es'));
  });
});
