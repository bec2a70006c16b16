import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createSessionUser } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { SideMenu } from './side-menu';

describe('SideMenu', () => {
  it('renders the admin links, submenus and the version footer', () => {
    const user = createSessionUser({ profile: 'admin' }, { useKanban: true, useCampaigns: true });
    renderWithProviders(<SideMenu user={user} expanded />, { user });
    const menu = screen.getByTestId('side-menu');
    expect(within(menu).getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe('/');
    expect(within(menu).getByRole('link', { name: 'Kanban' })).toBeTruthy();
    expect(within(menu).getByTestId('menu-group-campaigns')).toBeTruthy();
    expect(within(menu).getByTestId('menu-group-flows')).toBeTruthy();
    expect(within(menu).getByTestId('app-version').textContent).toContain('8.0.1');
  });

  it('hides admin entries from an agent', () => {
    const user = createSessionUser({ profile: 'user' }, { useCampaigns: true });
    renderWithProviders(<SideMenu user={user} expanded />, { user });
    const menu = screen.getByTestId('side-menu');
    expect(within(menu).queryByRole('link', { name: 'Dashboard' })).toBeNull();
    expect(within(menu).queryByTestId('menu-group-campaigns')).toBeNull();
    expect(within(menu).queryByTestId('menu-group-flows')).toBeNull();
    expect(within(menu).getByRole('link', { name: 'Tickets' }).getAttribute('href')).toBe('/tickets');
    expect(within(menu).queryByRole('link', { name: 'Users' })).toBeNull();
    expect(within(menu).queryByRole('link', { name: 'Settings' })).toBeNull();
  });
});
