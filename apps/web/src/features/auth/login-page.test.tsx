import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSessionUser } from '../../test/fixtures';
import { json } from '../../test/http';
import { renderLoginRoutes } from '../../test/login-routes';
import { LoginPage } from './login-page';

function renderLogin() {
  renderLoginRoutes({ login: <LoginPage />, landing: { path: '/tickets', text: 'tickets page' } });
}

async function submit(email: string, password: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(/Email/), email);
  await user.type(screen.getByLabelText(/Password/), password);
  await user.click(screen.getByTestId('login-submit'));
}

describe('LoginPage', () => {
  // The form loads its validation code (zod) a moment after it shows; transforming it here once
  // keeps the first submit of a test within the default wait.
  beforeAll(async () => {
    await import('./login-validation');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('stores the session, warns about the due date and goes to /tickets', async () => {
    const user = createSessionUser({ id: 5, companyId: 9 });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(200, { token: 'tok', user, dueDateWarningDays: 3 })),
    );
    renderLogin();
    await submit('ana@example.com', 'secret');
    expect(await screen.findByText('tickets page')).toBeTruthy();
    expect(localStorage.getItem('token')).toBe('tok');
    expect(localStorage.getItem('companyId')).toBe('9');
    expect(localStorage.getItem('userId')).toBe('5');
    expect(await screen.findByText('Your subscription expires in 3 days')).toBeTruthy();
  });

  it('names the due date of an expired subscription', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        json(402, { error: 'ERR_SUBSCRIPTION_EXPIRED', dueDate: '2026-03-05T12:00:00.000Z' }),
      ),
    );
    renderLogin();
    await submit('ana@example.com', 'secret');
    expect(await screen.findByText(/expired on 05\/03\/2026/)).toBeTruthy();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('translates a known error code', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(401, { error: 'ERR_INVALID_CREDENTIALS' })),
    );
    renderLogin();
    await submit('ana@example.com', 'wrong');
    expect(await screen.findByText('Authentication error. Please try again.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('tickets page')).toBeNull());
  });

  it('checks the fields with the login schema before calling the API', async () => {
    const fetchMock = vi.fn(async () => json(401, { error: 'ERR_INVALID_CREDENTIALS' }));
    vi.stubGlobal('fetch', fetchMock);
    renderLogin();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/Email/), 'not-an-email');
    await user.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('Invalid email')).toBeTruthy();
    expect(screen.getByText('Required')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
    // Positive control: once both fields are valid, the messages go and the API is called.
    await user.clear(screen.getByLabelText(/Email/));
    await submit('ana@example.com', 'secret');
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(screen.queryByText('Invalid email')).toBeNull();
    expect(screen.queryByText('Required')).toBeNull();
  });
});
