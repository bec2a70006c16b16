/**
 * Journey: a note in the conversation mentioning a colleague (docs/inbox.md "Notes, mentions and
 * presence"). The admin opens the agent's conversation, sees the customer typing in the header,
 * switches the composer to a note, mentions the agent with '@' and saves with Enter: the note shows
 * inline as an internal note. The agent's bell lists the mention without a reload; opening it opens
 * the ticket with the note inline and clears the mention.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { DEMO_ADMIN, DEMO_AGENT } from '../support/demo.js';
import { apiJson, closeJourney, openPage, pageToken } from '../support/journey.js';
import { startInboxJourney } from '../support/openers.js';
import { signInAs, waitForPath } from '../support/pages.js';
import type { RunningServer } from '../support/server.js';

const CUSTOMER = '5511977775151';

let server: RunningServer;
let browser: Browser;
let admin: Page;
let agent: Page;
let adminToken = '';

const api = <T>(path: string, init: { method?: string; body?: unknown } = {}) =>
  apiJson<T>(server.url, adminToken, path, init);

before(async () => {
  ({ server, browser, adminToken } = await startInboxJourney({ quiet: true }));
  admin = await openPage(browser, { width: 1366, height: 860 });
  agent = await openPage(browser, { width: 1366, height: 860 });
  await signInAs(admin, server.url, DEMO_ADMIN);
  await signInAs(agent, server.url, DEMO_AGENT);
  // One session per user: the admin's sign-in in the browser ended the API one.
  adminToken = await pageToken(admin);
});
after(() => closeJourney(browser, server));

describe('notes and mentions', () => {
  it("an admin's note mentions the agent, whose bell opens the ticket with the note inline", async () => {
    const users = (await api<{ id: number; name: string }[]>('/users/list')).json;
    const agentId = users.find((u) => u.name === 'Agente')!.id;
    const sent = await api<{ ticketId: number }>('/simulator/1/messages', {
      method: 'POST',
      body: { from: CUSTOMER, name: 'Clara Cliente', body: 'Preciso de ajuda com meu pedido' },
    });
    assert.equal(sent.status, 201);
    const { ticketId } = sent.json;
    const held = await api<{ uuid: string }>(`/tickets/${ticketId}`, {
      method: 'PUT',
      body: { status: 'open', userId: agentId },
    });
    assert.equal(held.status, 200);
    const { uuid } = held.json;

    await agent.evaluate(() => {
      (window as unknown as { liveMark: boolean }).liveMark = true;
    });

    await admin.goto(`${server.url}/tickets/${uuid}`);
    await admin.getByText('Preciso de ajuda com meu pedido').waitFor();
    // The customer types: the header says so.
    const typing = await api(`/simulator/1/presence`, {
      method: 'POST',
      body: { number: CUSTOMER, presence: 'composing' },
    });
    assert.equal(typing.status, 204);
    await admin.getByTestId('ticket-presence').getByText('typing…').waitFor({ timeout: 10_000 });

    await admin.getByTestId('composer-mode-note').click();
    const input = admin.getByTestId('composer-input');
    await input.click();
    await admin.keyboard.type('Pode ligar para a cliente, @Age');
    await admin.getByTestId(`mention-option-${agentId}`).waitFor();
    await admin.keyboard.press('Enter');
    await admin.keyboard.type('? Obrigado');
    await admin.keyboard.press('Enter');
    const adminNote = admin.locator('[data-testid^="note-bubble-"]', {
      hasText: 'Pode ligar para a cliente',
    });
    await adminNote.waitFor({ timeout: 10_000 });
    assert.match((await adminNote.textContent()) ?? '', /Internal note/);
    assert.equal(await input.inputValue(), '');
    // A note is not a message: nothing reached the customer's phone.
    const outbox = await api<{ body: string }[]>(`/simulator/1/outbox?number=${CUSTOMER}`);
    assert.equal(outbox.json.length, 0);

    // The agent's bell lists the mention, live.
    const mention = agent.locator('[data-testid^="notifications-mention-"]');
    await agent
      .getByTestId('notifications-count')
      .getByText(/^[1-9]/)
      .waitFor({ timeout: 10_000 });
    await agent.getByTestId('notifications-button').click();
    await mention.first().waitFor({ timeout: 10_000 });
    await mention.first().click();
    await waitForPath(agent, `/tickets/${uuid}`);
    const agentNote = agent.locator('[data-testid^="note-bubble-"]', {
      hasText: 'Pode ligar para a cliente',
    });
    await agentNote.waitFor({ timeout: 10_000 });
    assert.match((await agentNote.textContent()) ?? '', /Admin|Administrador/);
    const left = await apiJson<unknown[]>(server.url, await pageToken(agent), '/ticket-notes/mentions');
    assert.equal(left.json.length, 0);
    assert.equal(await agent.evaluate(() => (window as unknown as { liveMark?: boolean }).liveMark), true);
  });
});
