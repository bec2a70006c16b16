/**
 * Journey: a visitor signs up a company, signs in, sees the admin menu, switches language and theme,
 * adds an agent, signs out; the agent signs in and sees no admin-only items.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { closeJourney, startJourney } from '../support/journey.js';
import { signInAs, signOut, waitForPath, waitForToast } from '../support/pages.js';
import type { RunningServer } from '../support/server.js';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const stamp = Date.now().toString(36);
const owner = { company: `Padaria ${stamp}`, email: `owner-${stamp}@example.test`, password: 'owner-pass' };
const agent = { name: `Agente ${stamp}`, email: `agent-${stamp}@example.test`, password: 'agent-pass' };

before(async () => {
  ({ server, browser } = await startJourney());
  context = await browser.newContext({ locale: 'en-US' });
  page = await context.newPage();
});
after(() => closeJourney(browser, server));

describe('platform shell', () => {
  it('signs up a company on the free trial and lands on /login', async () => {
    await page.goto(`${server.url}/signup`);
    await page.getByLabel('Company name').fill(owner.company);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Phone (with area code)').fill('11987654321');
    await page.getByLabel('Password').fill(owner.password);
    assert.match((await page.getByTestId('signup-plan').textContent()) ?? '', /Teste Gratis/);
    await page.getByTestId('signup-submit').click();
    await waitForPath(page, '/login');
    await waitForToast(page, 'Sign-up completed');
  });

  it('signs in and shows the admin menu and the greeting', async () => {
    await signInAs(page, server.url, owner);
    const menu = page.getByTestId('side-menu');
    await menu.waitFor();
    for (const id of ['menu-dashboard', 'menu-tickets', 'menu-users', 'menu-settings', 'menu-queues']) {
      assert.equal(await menu.getByTestId(id).count(), 1, id);
    }
    assert.equal(await menu.getByTestId('menu-announcements').count(), 0, 'announcements is for super users');
    assert.match((await page.getByTestId('greeting').textContent()) ?? '', /welcome to Padaria/);
    assert.match((await page.getByTestId('app-version').textContent()) ?? '', /8\.0\.1/);
    await page.getByTestId('menu-contacts').click();
    await waitForPath(page, '/contacts');
    await page.getByTestId('contacts-page').waitFor();
    await page.getByTestId('menu-helps').click();
    await waitForPath(page, '/helps');
    await page.getByTestId('helps-page').waitFor();
  });

  it('switches to Portuguese and back, and to dark mode', async () => {
    await page.getByTestId('language-menu-button').click();
    await page.getByTestId('language-option-pt').click();
    await page.getByTestId('side-menu').getByRole('link', { name: 'Usuários' }).waitFor();
    // The open page's own strings (a chunk per page and language) follow the switch too.
    await page.getByTestId('helps-page').getByRole('heading', { name: 'Ajuda' }).waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem('i18nextLng')), 'pt');
    await page.getByTestId('language-menu-button').click();
    await page.getByTestId('language-option-en').click();
    await page.getByTestId('side-menu').getByRole('link', { name: 'Users' }).waitFor();
    await page.getByTestId('helps-page').getByRole('heading', { name: 'Help' }).waitFor();

    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const before = await background();
    const initial = await page.evaluate(() => localStorage.getItem('preferredTheme'));
    await page.getByTestId('theme-toggle').click();
    const stored = await page.evaluate(() => localStorage.getItem('preferredTheme'));
    assert.ok(stored === 'dark' || stored === 'light');
    assert.notEqual(stored, initial ?? 'light');
    assert.notEqual(await background(), before);
    if (stored === 'light') await page.getByTestId('theme-toggle').click();
    assert.equal(await page.evaluate(() => localStorage.getItem('preferredTheme')), 'dark');
    await page.reload();
    await page.getByTestId('side-menu').waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem('preferredTheme')), 'dark');
  });

  it('adds an agent on /users', async () => {
    await page.getByTestId('menu-users').click();
    await waitForPath(page, '/users');
    await page.getByTestId('add-user-button').click();
    const form = page.getByTestId('user-form');
    await form.getByLabel('Name').fill('A');
    await form.getByLabel('Email').fill(agent.email);
    await form.getByLabel('Password').fill(agent.password);
    await page.getByTestId('user-modal-save').click();
    await form.getByText('Too Short!').waitFor();
    await form.getByLabel('Name').fill(agent.name);
    await page.getByTestId('user-modal-save').click();
    await waitForToast(page, 'User saved successfully!');
    await page.getByRole('cell', { name: agent.email }).waitFor();
  });

  it('signs out, and the agent sees no admin-only menu items', async () => {
    await signOut(page);
    assert.equal(await page.evaluate(() => localStorage.getItem('token')), null);
    await page.goto(`${server.url}/users`);
    await waitForPath(page, '/login');

    await signInAs(page, server.url, agent);
    const menu = page.getByTestId('side-menu');
    await menu.getByTestId('menu-tickets').waitFor();
    for (const id of [
      'menu-dashboard',
      'menu-users',
      'menu-settings',
      'menu-connections',
      'menu-group-flows',
    ]) {
      assert.equal(await menu.getByTestId(id).count(), 0, id);
    }
    assert.equal(await page.getByTestId('plans-button').count(), 0);
    const status = await page.evaluate(async () => {
      const res = await fetch('/api/users', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${localStorage.getItem('token')}`,
        },
        body: JSON.stringify({ name: 'Nope', email: 'nope@example.test', password: 'abcde' }),
      });
      return res.status;
    });
    assert.equal(status, 403);
  });
});
