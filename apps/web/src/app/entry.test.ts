import { afterEach, describe, expect, it, vi } from 'vitest';
import { isLoginOnly, startEntry } from './entry';

const { loginStart, appStart } = vi.hoisted(() => ({
  loginStart: vi.fn(async (_element: HTMLElement) => {}),
  appStart: vi.fn(async (_element: HTMLElement) => {}),
}));
vi.mock('./login-entry', () => ({ start: loginStart }));
vi.mock('./app', () => ({ start: appStart }));

describe('isLoginOnly', () => {
  it('is true at /login (with or without a trailing slash) without a stored token', () => {
    expect(isLoginOnly('/login', null)).toBe(true);
    expect(isLoginOnly('/login/', null)).toBe(true);
  });

  it('is false with a stored token or on any other path', () => {
    expect(isLoginOnly('/login', 'token')).toBe(false);
    expect(isLoginOnly('/', null)).toBe(false);
    expect(isLoginOnly('/tickets', null)).toBe(false);
    expect(isLoginOnly('/signup', null)).toBe(false);
    expect(isLoginOnly('/login-help', null)).toBe(false);
  });
});

describe('startEntry', () => {
  afterEach(() => {
    loginStart.mockClear();
    appStart.mockClear();
    window.history.replaceState(null, '', '/');
  });

  it('starts the login entry at /login without a session', async () => {
    window.history.replaceState(null, '', '/login');
    const element = document.createElement('div');
    await startEntry(element);
    expect(loginStart).toHaveBeenCalledWith(element);
    expect(appStart).not.toHaveBeenCalled();
  });

  it('starts the full app at /login with a stored token (the app sends the user on)', async () => {
    window.history.replaceState(null, '', '/login');
    localStorage.setItem('token', 'stored');
    const element = document.createElement('div');
    await startEntry(element);
    expect(appStart).toHaveBeenCalledWith(element);
    expect(loginStart).not.toHaveBeenCalled();
  });

  it('starts the full app on every other page', async () => {
    window.history.replaceState(null, '', '/signup');
    const element = document.createElement('div');
    await startEntry(element);
    expect(appStart).toHaveBeenCalledWith(element);
    expect(loginStart).not.toHaveBeenCalled();
  });
});
