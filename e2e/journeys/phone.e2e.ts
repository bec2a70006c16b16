/**
 * Journey of the inbox on a phone (390 x 844): sign in, the ticket list, a customer's conversation
 * accepted and answered (the reply reaches the customer's phone), the side menu as an overlay that
 * closes after following a link, the internal chat and contacts pages, the profile menu reached from the top bar to
 * sign out, then an admin's dashboard, plans and API tokens. No page scrolls sideways; toasts cover none of the top bar;
 * the list, the conversation, the overlay menu and the profile pass axe's WCAG 2 A and AA rules.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { axeViolations } from '../support/axe.js';
import { DEMO_ADMIN, DEMO_AGENT } from '../support/demo.js';
import { apiJson, closeJourney, openPage } from '../support/journey.js';
import { startInboxJourney } from '../support/openers.js';
import { signInAs, waitForPath, waitForToast } from '../support/pages.js';
import type { RunningServer } from '../support/server.js';

const PHONE = { width: 390, height: 844 };
const CUSTOMER = '5511966665555';

let server: RunningServer;
let browser: Browser;
let page: Page;
let adminToken = '';
let ticketId = 0;

const api = <T>(path: string, init: { method?: string; body?: unknown } = {}) =>
  apiJson<T>(server.url, adminToken, path, init);

/** Fails when the page is wider than the phone (it would scroll sideways). */
async function assertNoSidewaysScroll(where: string): Promise<void> {
  // Late layout (lazy chunks, fonts) settles first.
  await page.waitForTimeout(300);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= PHONE.width, `${where}: the page is ${width} px wide`);
}

/** Fails when axe finds a WCAG 2 A/AA violation anywhere on the page as it is now. */
async function assertAccessible(where: string, include = ['body']): Promise<void> {
  const violations = await axeViolations(page, include);
  assert.deepEqual(violations, [], `${where}: ${violations.join(' | ')}`);
}

/** Fails when the element is not wholly inside the phone's window. */
async function assertOnScreen(testId: string): Promise<void> {
  const box = await page.getByTestId(testId).boundingBox();
  assert.ok(box, `${testId} is not shown`);
  assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width, `${testId} sits at x = ${box.x}`);
}

/** Opens the side menu, follows the link `testId` and checks the overlay closed after it. */
async function followMenuLink(testId: string, path: string): Promise<void> {
  await page.getByTestId('menu-toggle').click();
  await page.getByTestId(testId).click();
  await waitForPath(page, path);
  await page.getByTestId('side-menu').waitFor({ state: 'hidden' });
}

before(async () => {
  ({ server, browser, adminToken } = await startInboxJourney({ quiet: true }));
  page = await openPage(browser, PHONE);
});
after(() => closeJourney(browser, server));

describe('the inbox on a phone (390 x 844)', () => {
  it('signs in to the ticket list, with the side menu closed and the top bar on screen', async () => {
    await signInAs(page, server.url, DEMO_AGENT);
    await page.getByTestId('tickets-mobile-tab-list').waitFor();
    assert.equal(await page.getByTestId('side-menu').isVisible(), false, 'the menu starts closed');
    for (const id of ['notifications-button', 'announcements-button', 'top-bar-more', 'user-menu-button'])
      await assertOnScreen(id);
    await assertNoSidewaysScroll('/tickets');
    await assertAccessible('/tickets');
  });

  it('opens a conversation, and the reply reaches the customer', async () => {
    await page.getByTestId('tickets-subtab-pending').click();
    const sent = await api<{ ticketId: number }>('/simulator/1/messages', {
      method: 'POST',
      body: { from: CUSTOMER, name: 'Carla Cliente', body: 'Olá, preciso de ajuda' },
    });
    assert.equal(sent.status, 201);
    ticketId = sent.json.ticketId;
    await page.getByTestId(`ticket-accept-${ticketId}`).click();
    await waitForPath(page, /^\/tickets\/[0-9a-f-]{36}$/);
    await page.locator('[data-testid^="message-body-"]', { hasText: 'preciso de ajuda' }).waitFor();
    await assertNoSidewaysScroll('a ticket');

    await page.getByTestId('composer-input').click();
    await page.keyboard.type('Claro, como posso ajudar?');
    await page.keyboard.press('Enter');
    let bodies: string[] = [];
    for (let i = 0; i < 50 && bodies.length === 0; i++) {
      const outbox = await api<{ body: string }[]>(`/simulator/1/outbox?number=${CUSTOMER}`);
      bodies = outbox.json.map((m) => m.body).filter((b) => b.endsWith('como posso ajudar?'));
      if (bodies.length === 0) await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(bodies.length, 1, 'the reply reached the phone');
    await assertNoSidewaysScroll('a ticket after the reply');
    await assertAccessible('a ticket after the reply');
  });

  it('shows a toast below the top bar, covering none of its buttons', async () => {
    await page.goto(`${server.url}/tickets/not-a-uuid`);
    await waitForToast(page, 'No ticket found with this ID.');
    const toast = await page.locator('.Toastify__toast').first().boundingBox();
    const bar = await page.getByTestId('top-bar').boundingBox();
    assert.ok(toast && bar);
    assert.ok(toast.y >= bar.y + bar.height, `the toast at y = ${toast.y} covers the top bar`);
    await waitForPath(page, '/tickets');
  });

  it('reaches the internal chat and contacts through the overlay menu, which closes after each link', async () => {
    await page.getByTestId('menu-toggle').click();
    await page.getByTestId('side-menu').waitFor();
    await assertAccessible('the overlay menu');
    await page.keyboard.press('Escape');
    await page.getByTestId('side-menu').waitFor({ state: 'hidden' });
    await followMenuLink('menu-chats', '/chats');
    await assertNoSidewaysScroll('/chats');
    await followMenuLink('menu-contacts', '/contacts');
    await assertNoSidewaysScroll('/contacts');
  });

  it('folds the settings into the more menu', async () => {
    await page.getByTestId('top-bar-more').click();
    await page.getByTestId('more-theme').waitFor();
    await assertOnScreen('more-theme');
    await page.keyboard.press('Escape');
    await page.getByTestId('more-theme').waitFor({ state: 'hidden' });
  });

  it('closes the menu when a wide window narrows to a phone', async () => {
    await page.setViewportSize({ width: 1300, height: PHONE.height });
    await page.reload();
    await page.getByTestId('side-menu').waitFor();
    await page.setViewportSize(PHONE);
    await page.getByTestId('side-menu').waitFor({ state: 'hidden' });
    await assertNoSidewaysScroll('/contacts after narrowing');
  });

  it('opens the profile from the top bar, full screen, and signs out', async () => {
    await assertOnScreen('user-menu-button');
    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('profile').click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const box = await dialog.boundingBox();
    assert.ok(box);
    assert.equal(Math.round(box.width), PHONE.width, 'the dialog fills the width');
    assert.equal(Math.round(box.height), PHONE.height, 'the dialog fills the height');
    await assertAccessible('the profile dialog', ['[role="dialog"]']);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    await page.getByTestId('user-menu-button').click();
    await assertOnScreen('logout');
    await page.getByTestId('logout').click();
    await waitForPath(page, '/login');
    await assertNoSidewaysScroll('/login');
  });

  it("fits an admin's dashboard, plans (from the more menu) and API tokens", async () => {
    // The API calls are done: the browser may take the admin's session now.
    await signInAs(page, server.url, DEMO_ADMIN);
    await assertNoSidewaysScroll('/tickets (admin)');
    await followMenuLink('menu-dashboard', '/');
    await page.getByTestId('dashboard-page').waitFor();
    await assertNoSidewaysScroll('/ (dashboard)');
    await page.getByTestId('top-bar-more').click();
    await page.getByTestId('more-plans').click();
    await waitForPath(page, '/planos');
    await assertNoSidewaysScroll('/planos');
    // The connections' API tokens are long unbroken strings.
    await page.goto(`${server.url}/messages-api`);
    await page.getByTestId('messages-api-tokens').waitFor();
    await assertNoSidewaysScroll('/messages-api');
  });
});
