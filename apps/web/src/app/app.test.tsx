import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AuthLink } from '../features/auth/auth-navigation';
import { RouterNavigation } from './app';

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

describe('RouterNavigation', () => {
  it("moves the login form's links through the router inside the full app", async () => {
    render(
      <MemoryRouter initialEntries={['/login']}>
        <RouterNavigation>
          <Routes>
            <Route path="/login" element={<AuthLink to="/signup">Sign up</AuthLink>} />
            <Route path="/signup" element={<p>signup page</p>} />
          </Routes>
          <Where />
        </RouterNavigation>
      </MemoryRouter>,
    );
    await userEvent.setup().click(screen.getByRole('link', { name: 'Sign up' }));
    expect(await screen.findByText('signup page')).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/signup');
  });
});
