/**
 * Journey: internal chat between two users (document 2 sections 2 and 7, core section 2 "Side
 * menu"). The admin creates a chat with the agent and writes; the agent, without a reload, sees the
 * unread dot on the menu's chats link and the count in the top bar; opening the chat shows the
 * message and clears the dot, and the agent's answer reaches the admin's open chat live.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { DEMO_ADMIN, DEMO_AGENT } from '../support/demo.js';
import { closeJourney, openPage, startJourney } from '../support/journey.js';
import { signInAs, waitForPath } from '../support/pages.js';
import type { RunningServer } from '../support/server.js';

let server: RunningServer;
let browser: Browser;
let admin: Page;
let agent: Page;

before(async () => {
  ({ server, browser } = await startJourney());
  admin = await openPage(browser, { width: 1280, height: 800 });
  agent = await openPage(browser, { width: 1280, height: 800 });
  await signInAs(admin, server.url, DEMO_ADMIN);
  await signInAs(agent, server.url, DEMO_AGENT);
});
after(() => closeJourney(browser, server));

describe('internal chat', () => {
  it('two users chat and the unread dot appears and clears', async () => {
    // A reload of the agent's page would drop this mark.
    await agent.evaluate(() => {
      (window as unknown as { liveMark: boolean }).liveMark = true;
    });
    assert.equal(await agent.getByTestId('chats-unread').count(), 0);

    await admin.getByTestId('menu-chats').click();
    await waitForPath(admin, '/chats');
    await admin.getByTestId('chat-new').click();
    // Empty title and no users: the form asks for them and sends nothing.
    await admin.getByTestId('chat-save').click();
    await admin.getByText('Please fill in the chat title.').waitFor();
    const title = `Plantão ${Date.now().toString(36)}`;
    await admin.getByTestId('chat-title-input').fill(title);
    await admin.getByTestId('chat-users-input').click();
    await admin.getByRole('option', { name: 'Agente' }).click();
    await admin.getByTestId('chat-save').click();
    await waitForPath(admin, /^\/chats\/[0-9a-f-]{36}$/);
    const input = admin.getByTestId('chat-input');
    await input.fill('Bom dia, equipe!');
    await input.press('Enter');
    await admin.getByTestId('chat-messages').getByText('Bom dia, equipe!').waitFor();

    // The agent sees the dot and the top bar count without a reload.
    await agent.getByTestId('chats-unread').waitFor({ timeout: 10_000 });
    await agent.getByTestId('chats-popover-count').getByText('1').waitFor();
    await agent.getByTestId('chats-popover-button').click();
    await agent.getByTestId('chats-popover-list').getByText(title).click();
    await waitForPath(agent, /^\/chats\/[0-9a-f-]{36}$/);
    await agent.getByTestId('chat-messages').getByText('Bom dia, equipe!').waitFor();
    await agent.getByTestId('chats-unread').waitFor({ state: 'detached', timeout: 10_000 });

    // The agent does not own the chat: no edit or delete. An answer reaches the admin live.
    await agent.getByText(title).first().waitFor();
    assert.equal(await agent.locator('[data-testid^="chat-edit-"]').count(), 0);
    assert.equal(await admin.locator('[data-testid^="chat-edit-"]').count(), 1);
    await agent.getByTestId('chat-input').fill('Bom dia!');
    await agent.getByTestId('chat-send').click();
    await admin
      .getByTestId('chat-messages')
      .getByText('Bom dia!', { exact: true })
      .waitFor({ timeout: 10_000 });
    // The admin has the chat open, so the answer is read at once: no dot for the admin.
    await admin.getByTestId('chats-unread').waitFor({ state: 'detached', timeout: 10_000 });

    assert.equal(await agent.evaluate(() => (window as unknown as { liveMark?: boolean }).liveMark), true);
  });
});
