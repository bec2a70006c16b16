/**
 * Journey: lists follow other users' changes live (document 2 section 4 "Lists"). The admin keeps
 * /tags open while the agent creates, renames and deletes a tag through the API; each change shows
 * in the admin's table without a reload.
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
let page: Page;
let agentToken: string;

before(async () => {
  ({ server, browser } = await startJourney());
  page = await openPage(browser);
  await signInAs(page, server.url, DEMO_ADMIN);
  const login = await apiLogin(server.url, DEMO_AGENT);
  assert.equal(login.status, 200);
  agentToken = login.token;
});
after(() => closeJourney(browser, server));

/** A call of the agent's to the API (JSON in and out). */
async function asAgent(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.url}/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${agentToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe('live lists', () => {
  it("shows another user's new, renamed and deleted tag without a reload", async () => {
    await page.getByTestId('menu-tags').click();
    await waitForPath(page, '/tags');
    const table = page.getByTestId('tags-table');
    await table.waitFor();
    // A reload would drop this mark.
    await page.evaluate(() => {
      (window as unknown as { liveMark: boolean }).liveMark = true;
    });
    const name = `Urgente ${Date.now().toString(36)}`;
    assert.equal(await table.getByText(name).count(), 0);

    const created = await asAgent('POST', '/tags', { name, color: '#A4CCCC' });
    assert.equal(created.status, 201);
    const { id } = (await created.json()) as { id: number };
    const row = page.getByTestId(`tag-row-${id}`);
    await row.getByText(name).waitFor({ timeout: 10_000 });

    const renamed = await asAgent('PUT', `/tags/${id}`, { name: `${name} VIP` });
    assert.equal(renamed.status, 200);
    await row.getByText(`${name} VIP`).waitFor({ timeout: 10_000 });

    assert.equal((await asAgent('DELETE', `/tags/${id}`)).status, 204);
    await row.waitFor({ state: 'detached', timeout: 10_000 });

    assert.equal(await page.evaluate(() => (window as unknown as { liveMark?: boolean }).liveMark), true);
  });
});
