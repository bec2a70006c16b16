import type { Page } from 'playwright-core';

/** Waits until `page` is on a path matching `path` (string prefix or RegExp). */
export async function waitForPath(page: Page, path: string | RegExp, timeout = 15_000): Promise<void> {
  await page.waitForURL(
    (url) => (typeof path === 'string' ? url.pathname === path : path.test(url.pathname)),
    { timeout },
  );
}

/** Signs in through the /login form (English labels) and waits for /tickets. */
export async function signIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByTestId('login-submit').click();
  await waitForPath(page, '/tickets');
}

/** Signs out through the profile menu and waits for /login. */
export async function signOut(page: Page): Promise<void> {
  await page.getByTestId('user-menu-button').click();
  await page.getByTestId('logout').click();
  await waitForPath(page, '/login');
}

/** The visible text of every toast currently shown. */
export async function toastTexts(page: Page): Promise<string[]> {
  return page.locator('.Toastify__toast').allInnerTexts();
}

/** Waits for a toast containing `text`. */
export async function waitForToast(page: Page, text: string, timeout = 10_000): Promise<void> {
  await page.locator('.Toastify__toast', { hasText: text }).first().waitFor({ timeout });
}

/** Signs in as `user` through the /login form (see `signIn`). */
export function signInAs(
  page: Page,
  baseUrl: string,
  user: { email: string; password: string },
): Promise<void> {
  return signIn(page, baseUrl, user.email, user.password);
}
