/**
 * Journeys of the platform's notices: the super user posts an announcement
 * on /announcements and an agent, signed in elsewhere, sees it in the top bar without a reload; a
 * help video opens in its modal and closes with Escape (no internet: only the iframe's address is
 * checked, not its content).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { DEMO_ADMIN, DEMO_AGENT } from '../support/demo.js';
import { apiLogin, closeJourney, openPage, startJourney } from '../support/journey.js';
import { signInAs, waitForPath } from '../support/pages.js';
import type { RunningServer } from '../support/server.js';

let server: RunningServer;
let browser: Browser;
let superPage: Page;
let agentPage: Page;

before(async () => {
  ({ server, browser } = await startJourney());
  superPage = await openPage(browser);
  agentPage = await openPage(browser);
  await signInAs(superPage, server.url, DEMO_ADMIN);
  await signInAs(agentPage, server.url, DEMO_AGENT);
});
after(() => closeJourney(browser, server));

describe('notices', () => {
  it('the super user posts an announcement and an agent sees it in the top bar without reloading', async () => {
    await agentPage.getByTestId('announcements-button').waitFor();
    await agentPage.evaluate(() => {
      (window as unknown as { liveMark: boolean }).liveMark = true;
    });
    const before = Number((await agentPage.getByTestId('announcements-count').textContent()) || 0);

    await superPage.goto(`${server.url}/announcements`);
    await waitForPath(superPage, '/announcements');
    await superPage.getByTestId('add-announcement-button').click();
    const title = `Manutenção ${Date.now().toString(36)}`;
    await superPage.getByTestId('announcement-title').fill(title);
    await superPage.getByTestId('announcement-text').fill('O sistema para às 22h.');
    await superPage.getByTestId('announcement-save').click();
    await superPage.getByTestId('announcements-list').getByText(title).waitFor({ timeout: 10_000 });

    const count = agentPage.getByTestId('announcements-count');
    await agentPage.waitForFunction(
      ([n]) => Number(document.querySelector('[data-testid="announcements-count"]')?.textContent || 0) > n!,
      [before],
      { timeout: 10_000 },
    );
    assert.equal(Number(await count.textContent()), before + 1);
    await agentPage.getByTestId('announcements-button').click();
    await agentPage.getByTestId('announcements-popover').getByText(title).waitFor();
    assert.equal(
      await agentPage.evaluate(() => (window as unknown as { liveMark?: boolean }).liveMark),
      true,
    );
    await agentPage.keyboard.press('Escape');
  });

  it('a help video opens and closes with Escape', async () => {
    const login = await apiLogin(server.url, DEMO_ADMIN);
    assert.equal(login.status, 200);
    const { token } = login;
    const created = await fetch(`${server.url}/api/helps`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Primeiros passos', description: 'Conectar', video: 'dQw4w9WgXcQ' }),
    });
    assert.equal(created.status, 201, await created.clone().text());
    const { id } = (await created.json()) as { id: number };

    await agentPage.goto(`${server.url}/helps`);
    await agentPage.getByTestId(`help-card-${id}`).click();
    await agentPage.getByTestId('help-video-modal').waitFor();
    assert.equal(
      await agentPage.getByTestId('help-video-frame').getAttribute('src'),
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1',
    );
    await agentPage.keyboard.press('Escape');
    await agentPage.getByTestId('help-video-modal').waitFor({ state: 'detached' });
  });
});
