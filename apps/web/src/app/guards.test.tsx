import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createSessionUser } from '../test/fixtures';
import { renderWithProviders } from '../test/render';
import { PrivateRoute, PublicRoute } from './guards';

function TestRoutes() {
  return (
    <Routes>
      <Route element={<PublicRoute />}>
        <Route path="/login" element={<p>login page</p>} />
        <Route path="/signup" element={<p>signup page</p>} />
      </Route>
      <Route element={<PrivateRoute />}>
        <Route path="/" element={<p>home page</p>} />
        <Route path="/tickets" element={<p>tickets page</p>} />
        <Route path="/users" element={<p>users page</p>} />
      </Route>
    </Routes>
  );
}

describe('route guards', () => {
  it('sends an unauthenticated visitor of a private route to /login', () => {
    renderWithProviders(<TestRoutes />, { route: '/users', user: null });
    expect(screen.getByText('login page')).toBeTruthy();
    expect(screen.queryByText('users page')).toBeNull();
  });

  it('shows a private route to a signed-in user', () => {
    renderWithProviders(<TestRoutes />, { route: '/users', user: createSessionUser() });
    expect(screen.getByText('users page')).toBeTruthy();
  });

  it('sends a signed-in user on a public route to /', () => {
    renderWithProviders(<TestRoutes />, { route: '/signup', user: createSessionUser() });
    expect(screen.getByText('home page')).toBeTruthy();
  });

  it('sends the user to /tickets right after login', () => {
    renderWithProviders(<TestRoutes />, { route: '/login', user: createSessionUser(), justLoggedIn: true });
    expect(screen.getByText('tickets page')).toBeTruthy();
  });

  it('shows public pages to a visitor', () => {
    renderWithProviders(<TestRoutes />, { route: '/login', user: null });
    expect(screen.getByText('login page')).toBeTruthy();
  });

  it('waits while the stored session is being checked', () => {
    renderWithProviders(<TestRoutes />, { route: '/users', user: null, loading: true });
    expect(screen.queryByText('login page')).toBeNull();
    expect(screen.queryByText('users page')).toBeNull();
    expect(screen.getByRole('progressbar')).toBeTruthy();
  });
});
