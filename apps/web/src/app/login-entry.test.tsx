import fs from 'node:fs';
import path from 'node:path';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Root } from 'react-dom/client';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSessionUser } from '../test/fixtures';
import { json } from '../test/http';
import { start } from './login-entry';

// The full app is what the login entry hands over to: here a spy.
const { renderApp } = vi.hoisted(() => ({ renderApp: vi.fn() }));
vi.mock('./app', () => ({ renderApp }));

const roots: Root[] = [];

async function startLogin() {
  const element = document.createElement('div');
  document.body.append(element);
  roots.push(await act(() => start(element)));
}

async function submit(email: string, password: string) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText(/Email/), email);
  await user.type(screen.getByLabelText(/Password/), password);
  await user.click(screen.getByTestId('login-submit'));
}

describe('login entry', () => {
  // What the form loads on demand, transformed once here so that the first use in a test stays
  // within the default wait.
  beforeAll(async () => {
    await import('../features/auth/login-validation');
    await import('react-toastify');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    renderApp.mockClear();
    for (const root of roots.splice(0)) act(() => root.unmount());
    document.body.innerHTML = '';
    window.history.replaceState(null, '', '/');
  });

  it('signs in, stores the session and hands the answer to the full app without GET /auth/me', async () => {
    window.history.replaceState(null, '', '/login');
    const user = createSessionUser({ id: 5, companyId: 9 });
    const answer = { token: 'tok', user, dueDateWarningDays: 3 };
    const fetchMock = vi.fn(async (_url: string) => json(200, answer));
    vi.stubGlobal('fetch', fetchMock);
    await startLogin();
    await submit('ana@example.com', 'secret');
    await waitFor(() => expect(renderApp).toHaveBeenCalledTimes(1));
    expect(renderApp.mock.calls[0]?.[1]).toEqual(answer);
    expect(localStorage.getItem('token')).toBe('tok');
    expect(localStorage.getItem('companyId')).toBe('9');
    expect(localStorage.getItem('userId')).toBe('5');
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(['/api/auth/login']);
    expect(window.location.pathname).toBe('/login');
  });

  it('shows a failed sign-in as a toast (its container loaded on demand) and stays on the form', async () => {
    window.history.replaceState(null, '', '/login');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(401, { error: 'ERR_INVALID_CREDENTIALS' })),
    );
    await startLogin();
    expect(document.querySelector('.Toastify')).toBeNull();
    await submit('ana@example.com', 'wrong');
    expect(await screen.findByText('Authentication error. Please try again.')).toBeTruthy();
    expect(renderApp).not.toHaveBeenCalled();
    expect(localStorage.getItem('token')).toBeNull();
    expect(screen.getByTestId('login-submit')).toBeTruthy();
  });

  it('names the due date of an expired subscription in a toast', async () => {
    window.history.replaceState(null, '', '/login');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        json(402, { error: 'ERR_SUBSCRIPTION_EXPIRED', dueDate: '2026-03-05T12:00:00.000Z' }),
      ),
    );
    await startLogin();
    await submit('ana@example.com', 'secret');
    expect(await screen.findByText(/expired on 05\/03\/2026/)).toBeTruthy();
    expect(renderApp).not.toHaveBeenCalled();
  });

  it('opens the full app at /signup and /forgetpsw through the history', async () => {
    window.history.replaceState(null, '', '/login');
    vi.stubGlobal('fetch', vi.fn());
    await startLogin();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: /sign up/i }));
    await waitFor(() => expect(renderApp).toHaveBeenCalledTimes(1));
    expect(renderApp.mock.calls[0]?.[1]).toBeUndefined();
    expect(window.location.pathname).toBe('/signup');
    // /login stays in the history, under the new entry.
    const back = new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }));
    window.history.back();
    await back;
    expect(window.location.pathname).toBe('/login');

    await user.click(screen.getByRole('link', { name: /forgot/i }));
    await waitFor(() => expect(renderApp).toHaveBeenCalledTimes(2));
    expect(window.location.pathname).toBe('/forgetpsw');
  });

  it('reaches neither the router, the route table, react-toastify nor the full app through static imports', () => {
    const src = path.resolve(import.meta.dirname, '..');
    const seen = new Set<string>();
    const packages = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = fs.readFileSync(file, 'utf8');
      // Static imports only (`import x from`, `export … from`, `import '…'`); `import type` is erased.
      for (const m of text.matchAll(
        /^(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm,
      )) {
        const spec = m[1] as string;
        if (!spec.startsWith('.')) {
          packages.add(spec);
          continue;
        }
        const base = path.resolve(path.dirname(file), spec);
        const found = ['.tsx', '.ts', '']
          .map((ext) => base + ext)
          .find((f) => fs.existsSync(f) && fs.statSync(f).isFile());
        if (found && /\.tsx?$/.test(found)) visit(found);
      }
    };
    visit(path.join(src, 'app/login-entry.tsx'));
    const modules = [...seen].map((f) => path.relative(src, f));
    expect(modules).toContain('features/auth/login-page.tsx');
    expect(modules).not.toContain('app/app.tsx');
    expect(modules).not.toContain('app/router.tsx');
    expect(packages.has('react-dom/client')).toBe(true);
    expect(packages.has('react-router')).toBe(false);
    expect(packages.has('react-toastify')).toBe(false);
  });
});
