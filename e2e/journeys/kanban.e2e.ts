/**
 * Journey of the kanban board (document 2 section 2 Kanban): a customer's ticket shows in the
 * 'open' lane of two users' boards; the admin drags its card to a kanban tag's lane and the agent's
 * board, in a second browser, shows it moving without a reload.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { DEMO_ADMIN, DEMO_AGENT } from '../support/demo.js';
import { apiJson, closeJourney, openPage } from '../support/journey.js';
import { startInboxJourney } from '../support/openers.js';
import { signInAs, waitForPath } from '../support/pages.js';
import type { RunningServer } from '../support/server.js';

let server: RunningServer;
let browser: Browser;
let admin: Page;
let agent: Page;
let ticketId = 0;
let laneId = 0;

const api = <T>(token: string, path: string, init: { method?: string; body?: unknown } = {}) =>
  apiJson<T>(server.url, token, path, init);

before(async () => {
  const inbox = await startInboxJourney();
  ({ server, browser } = inbox);
  const token = inbox.adminToken;
  const message = await api<{ ticketId: number }>(token, '/simulator/1/messages', {
    method: 'POST',
    body: { from: '5511977776666', name: 'Kátia Kanban', body: 'Quero um orçamento' },
  });
  assert.equal(message.status, 201);
  ticketId = message.json.ticketId;
  const lanes = await api<{ lista: { id: number; name: string }[] }>(token, '/tags/kanban');
  laneId = lanes.json.lista.find((tag) => tag.name === 'VIP')!.id;

  admin = await openPage(browser);
  agent = await openPage(browser);
  await signInAs(admin, server.url, DEMO_ADMIN);
  await signInAs(agent, server.url, DEMO_AGENT);
});
after(() => closeJourney(browser, server));

const card = (page: Page) => page.getByTestId(`kanban-card-${ticketId}`);
const lane = (page: Page, id: number | 'open') => page.getByTestId(`kanban-lane-${id}`);

/** Drags `from` onto `to` with the mouse, in small steps (the pointer sensor starts after 6 px). */
async function drag(page: Page, from: Locator, to: Locator): Promise<void> {
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 10, a.y + a.height / 2, { steps: 5 });
  await page.mouse.move(b.x + b.width / 2, b.y + 120, { steps: 20 });
  await page.mouse.up();
}

describe('kanban', () => {
  it('an admin drags a card to another lane and a second browser sees it move', async () => {
    for (const page of [admin, agent]) {
      await page.goto(`${server.url}/kanban`);
      await waitForPath(page, '/kanban');
      await lane(page, 'open').getByTestId(`kanban-card-${ticketId}`).waitFor({ timeout: 15_000 });
      assert.equal(await card(page).getByText('Kátia Kanban').count(), 1);
    }
    // A reload would drop this mark.
    await agent.evaluate(() => {
      (window as unknown as { liveMark: boolean }).liveMark = true;
    });

    await drag(admin, card(admin), lane(admin, laneId));
    await lane(admin, laneId).getByTestId(`kanban-card-${ticketId}`).waitFor({ timeout: 10_000 });
    await lane(agent, laneId).getByTestId(`kanban-card-${ticketId}`).waitFor({ timeout: 10_000 });
    assert.equal(await lane(agent, 'open').getByTestId(`kanban-card-${ticketId}`).count(), 0);
    assert.equal(await agent.evaluate(() => (window as unknown as { liveMark?: boolean }).liveMark), true);

    // The move was saved: a fresh board still shows the card in its new lane.
    await admin.reload();
    await lane(admin, laneId).getByTestId(`kanban-card-${ticketId}`).waitFor({ timeout: 15_000 });

    // A click opens the ticket.
    await card(admin).getByText('Kátia Kanban').click();
    await waitForPath(admin, /\/tickets\/[0-9a-f-]{36}$/);
  });
});
