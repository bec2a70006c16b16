import { act, screen } from '@testing-library/react';
import type { SessionUser } from '@zapdesk/shared';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetFirstPageForTests, settleFirstPage } from '../../lib/first-page';
import { createSessionUser } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { AppLayout } from './app-layout';

// The realtime connection is a lazy chunk of the layout; a marker stands in for the socket.
vi.mock('../use-realtime', () => ({
  Realtime: ({ user }: { user: SessionUser }) => <div data-testid="realtime">{user.id}</div>,
}));

describe('AppLayout', () => {
  // The top bar's counters stay loading: this test is about the shell.
  beforeEach(() =>
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => {})),
    ),
  );
  afterEach(() => vi.unstubAllGlobals());

  afterEach(() => resetFirstPageForTests());

  it("renders the page, then opens the signed-in user's realtime connection once the first page settled", async () => {
    const user = createSessionUser({ id: 42 });
    renderWithProviders(
      <Routes>
        <Route element={<AppLayout />}>
          <Route path="/tickets" element={<div data-testid="page">page</div>} />
        </Route>
      </Routes>,
      { user, route: '/tickets' },
    );
    expect(screen.getByTestId('page')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByTestId('realtime')).toBeNull();
    act(() => settleFirstPage());
    expect((await screen.findByTestId('realtime')).textContent).toBe('42');
  });
});
