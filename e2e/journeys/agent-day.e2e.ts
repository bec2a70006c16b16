/**
 * Journey of an agent's flow of work in the inbox: a customer writes with WhatsApp formatting, which
 * the list's preview and the bubble render (bold, italic); the agent accepts, types a message,
 * presses Enter and goes on typing a second one, sent within 300 ms of the first: both reach the
 * customer's phone, in order, and the box never lost focus; a message arriving while the ticket
 * is on screen leaves no unread count; `?` outside the box opens the keyboard help sheet; an address
 * that is no ticket goes back to /tickets.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { DEMO_AGENT } from '../support/demo.js';
import { apiJson, closeJourney, openPage } from '../support/journey.js';
import { startInboxJourney } from '../support/openers.js';
import { signInAs, waitForPath, waitForToast } from '../support/pages.js';
import type { RunningServer } from '../support/server.js';

const CUSTOMER = '5511977776666';

let server: RunningServer;
let browser: Browser;
let agent: Page;
let adminToken = '';
let ticketId = 0;

const api = <T>(path: string, init: { method?: string; body?: unknown } = {}) =>
  apiJson<T>(server.url, adminToken, path, init);

const outbox = async () =>
  (await api<{ body: string }[]>(`/simulator/1/outbox?number=${CUSTOMER}`)).json.map((m) => m.body);

before(async () => {
  // The conversation stays between the customer and the agent: no queue greeting, no accept greeting.
  ({ server, browser, adminToken } = await startInboxJourney({ quiet: true }));
  agent = await openPage(browser, { width: 1366, height: 860 });
  await signInAs(agent, server.url, DEMO_AGENT);
});
after(() => closeJourney(browser, server));

describe("the agent's day", () => {
  it("renders the customer's WhatsApp formatting in the list's preview and in the bubble", async () => {
    await agent.getByTestId('tickets-subtab-pending').click();
    const sent = await api<{ ticketId: number }>('/simulator/1/messages', {
      method: 'POST',
      body: { from: CUSTOMER, name: 'Bruno Cliente', body: '*Bom dia*, tudo _bem_? <b>x</b>' },
    });
    assert.equal(sent.status, 201);
    ticketId = sent.json.ticketId;
    const preview = agent.getByTestId(`ticket-last-message-${ticketId}`);
    await preview.waitFor({ timeout: 10_000 });
    assert.equal(await preview.locator('strong').textContent(), 'Bom dia');
    assert.equal(await preview.locator('em').textContent(), 'bem');
    assert.equal(await preview.locator('b').count(), 0);

    await agent.getByTestId(`ticket-accept-${ticketId}`).click();
    await waitForPath(agent, /^\/tickets\/[0-9a-f-]{36}$/);
    const bubble = agent.locator('[data-testid^="message-body-"]', { hasText: 'tudo bem?' });
    await bubble.waitFor();
    assert.equal(await bubble.locator('strong').textContent(), 'Bom dia');
    assert.equal(await bubble.locator('em').textContent(), 'bem');
    assert.match((await bubble.textContent()) ?? '', /<b>x<\/b>$/);
  });

  it('keeps the typing after Enter: two messages sent back to back reach the phone in order', async () => {
    const input = agent.getByTestId('composer-input');
    await input.click();
    await agent.keyboard.type('Bom dia!');
    await agent.keyboard.press('Enter');
    // Keys pressed right after Enter, without waiting for the first send to finish, land in the
    // box (it keeps focus and stays enabled); none of them may be lost or sent with the first line.
    await agent.keyboard.type('Como ');
    await agent.keyboard.insertText('posso ajudar?');
    await agent.keyboard.press('Enter');
    assert.equal(await input.inputValue(), '');
    assert.ok(await input.evaluate((el) => el === document.activeElement), 'the box keeps focus');

    let bodies: string[] = [];
    for (let i = 0; i < 50 && bodies.length < 2; i++) {
      bodies = (await outbox()).filter((b) => /Bom dia!|Como posso ajudar\?/.test(b));
      if (bodies.length < 2) await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(bodies.length, 2, bodies.join(' | '));
    assert.match(bodies[0] ?? '', /Bom dia!$/);
    assert.match(bodies[1] ?? '', /Como posso ajudar\?$/);
    // The signature ('*Agent:*') renders bold in the agent's own bubbles.
    const own = agent.locator('[data-from-me="true"] [data-testid^="message-body-"]', {
      hasText: 'Como posso ajudar?',
    });
    await own.waitFor();
    assert.ok(((await own.locator('strong').first().textContent()) ?? '').endsWith(':'));
  });

  it('a message that arrives while the ticket is on screen leaves no unread count', async () => {
    await agent.getByTestId('tickets-subtab-assigned').click();
    await agent.getByTestId(`ticket-item-${ticketId}`).waitFor();
    const sent = await api('/simulator/1/messages', {
      method: 'POST',
      body: { from: CUSTOMER, name: 'Bruno Cliente', body: 'Obrigado!' },
    });
    assert.equal(sent.status, 201);
    await agent.locator('[data-testid^="message-body-"]', { hasText: 'Obrigado!' }).waitFor();
    let unread = -1;
    for (let i = 0; i < 50 && unread !== 0; i++) {
      unread = (await api<{ unreadMessages: number }>(`/tickets/${ticketId}`)).json.unreadMessages;
      if (unread !== 0) await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(unread, 0, 'the server counts no unread message');
    assert.equal(await agent.getByTestId(`ticket-unread-${ticketId}`).count(), 0);
  });

  it('opens the keyboard help sheet on ? outside the message box only', async () => {
    const input = agent.getByTestId('composer-input');
    await input.click();
    await agent.keyboard.type('Tudo certo?');
    assert.equal(await input.inputValue(), 'Tudo certo?');
    assert.equal(await agent.getByTestId('keyboard-help').count(), 0);
    await agent.keyboard.press('Control+A');
    await agent.keyboard.press('Delete');

    await agent.getByTestId('tickets-page').click({ position: { x: 5, y: 5 } });
    await agent.locator('body').press('?');
    const sheet = agent.getByTestId('keyboard-help');
    await sheet.waitFor();
    assert.match((await sheet.textContent()) ?? '', /Ctrl \+ Shift \+ XStrikethrough/);
    await agent.keyboard.press('Escape');
    await sheet.waitFor({ state: 'hidden' });
  });

  it('goes back to /tickets from an address that is no ticket', async () => {
    await agent.goto(`${server.url}/tickets/not-a-uuid`);
    await waitForToast(agent, 'No ticket found with this ID.');
    await waitForPath(agent, '/tickets');
  });
});
