/**
 * Journey of the tickets inbox: a customer writes through the simulator; the ticket appears live in
 * 'pending' for the agent (another browser context); the agent accepts it (greeting sent), replies
 * with text and an image, sees the ticks turn to read when the phone reads, adds a note and a tag,
 * transfers it to another queue; the admin resolves it; a second agent outside the queues never sees
 * it; the closed ticket reopens when the customer writes again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { DEMO_ADMIN, DEMO_AGENT } from '../support/demo.js';
import { apiJson, closeJourney, openPage, pageToken } from '../support/journey.js';
import { startInboxJourney } from '../support/openers.js';
import { signIn, signInAs, waitForPath, waitForToast } from '../support/pages.js';
import type { RunningServer } from '../support/server.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const CUSTOMER = '5511988887777';

let server: RunningServer;
let browser: Browser;
let agent: Page;
let admin: Page;
let outsider: Page;
let adminToken = '';
let ticketId = 0;

const api = <T>(path: string, init: { method?: string; body?: unknown } = {}) =>
  apiJson<T>(server.url, adminToken, path, init);

const customerSays = (body: string) =>
  api<{ ticketId: number }>('/simulator/1/messages', {
    method: 'POST',
    body: { from: CUSTOMER, name: 'Joana Cliente', body },
  });

const outbox = async () =>
  (await api<{ body: string; ack: number; kind: string }[]>(`/simulator/1/outbox?number=${CUSTOMER}`)).json;

before(async () => {
  // Once the simulator connection is paired, the accept greeting is on; this journey is about the
  // inbox: the queue's own greeting (chatbot) stays out of the conversation. Then an agent with no queue.
  ({ server, browser, adminToken } = await startInboxJourney({
    settings: { sendGreetingAccepted: 'enabled', sendGreetingMessageOneQueues: 'disabled' },
  }));
  const created = await api('/users', {
    method: 'POST',
    body: {
      name: 'Outro Agente',
      email: 'outsider@zapdesk.local',
      password: 'outsider-pass',
      profile: 'user',
    },
  });
  assert.equal(created.status, 201);
  agent = await openPage(browser, { width: 1366, height: 860 });
  outsider = await openPage(browser, { width: 1366, height: 860 });
  await signInAs(agent, server.url, DEMO_AGENT);
  await signIn(outsider, server.url, 'outsider@zapdesk.local', 'outsider-pass');
});
after(() => closeJourney(browser, server));

describe('tickets inbox', () => {
  it("shows the customer's new ticket live in the agent's pending tab", async () => {
    await agent.getByTestId('tickets-subtab-pending').click();
    await outsider.getByTestId('tickets-subtab-pending').click();
    const sent = await customerSays('Oi, meu pedido não chegou');
    assert.equal(sent.status, 201);
    ticketId = sent.json.ticketId;
    const item = agent.getByTestId(`ticket-item-${ticketId}`);
    await item.waitFor({ timeout: 10_000 });
    // The preview is the conversation's last message: the customer's, or the connection's and the
    // queue's greetings that answer every new customer right after it.
    assert.match(
      (await item.textContent()) ?? '',
      /Joana Cliente.*(meu pedido não chegou|Bem-vindo à Zapdesk Demo|Em que podemos ajudar)/,
    );
    assert.equal(await agent.getByTestId(`ticket-unread-${ticketId}`).count(), 1);
  });

  it('in the nearest-due order the list asks for sortBy=due and still shows the ticket', async () => {
    const dueList = agent.waitForRequest(
      (request) => request.url().includes('/api/tickets?') && request.url().includes('sortBy=due'),
    );
    await agent.getByTestId('tickets-sort').selectOption('due');
    await dueList;
    await agent.getByTestId(`ticket-item-${ticketId}`).waitFor();
    await agent.getByTestId('tickets-sort').selectOption('updatedAt');
    await agent.getByTestId(`ticket-item-${ticketId}`).waitFor();
  });

  it('the agent accepts it and the greeting reaches the customer', async () => {
    await agent.getByTestId(`ticket-accept-${ticketId}`).click();
    await waitForPath(agent, /^\/tickets\/[0-9a-f-]{36}$/);
    await agent.getByTestId('composer-input').waitFor();
    const greeting = (await outbox()).find((m) => m.body.includes('vou prosseguir com o seu atendimento'));
    assert.ok(greeting, 'greeting sent');
  });

  it('replies with text and an image and sees the ticks turn to read', async () => {
    await agent.getByTestId('composer-input').fill('Olá Joana! Vou verificar seu pedido.');
    await agent.getByTestId('composer-send').click();
    const reply = agent.locator('[data-testid^="message-"][data-from-me="true"]', {
      hasText: 'Vou verificar seu pedido',
    });
    await reply.first().waitFor();
    await agent
      .getByTestId('composer-attach')
      .setInputFiles({ name: 'comprovante.png', mimeType: 'image/png', buffer: PNG });
    await agent.getByTestId('composer-send').click();
    await agent.locator('[data-testid^="message-image-"]').first().waitFor({ timeout: 20_000 });
    await new Promise((r) => setTimeout(r, 1500));
    const kinds = (await outbox()).map((m) => m.kind);
    assert.ok(kinds.includes('image'), `image delivered (${kinds.join(',')})`);
    assert.equal(
      (await api(`/simulator/1/read`, { method: 'POST', body: { number: CUSTOMER } })).status,
      204,
    );
    const textId = await reply.first().getAttribute('data-testid');
    await agent
      .locator(`[data-testid="${textId!.replace('message-', 'message-ack-')}"][data-icon="read"]`)
      .waitFor({ timeout: 10_000 });
  });

  it('adds a note and a tag', async () => {
    await agent.getByTestId('contact-drawer-toggle').click();
    await agent.getByTestId('note-input').fill('Cliente aguardando reembolso');
    await agent.getByTestId('note-save').click();
    await waitForToast(agent, 'Note added successfully!');
    await agent.locator('[data-testid^="note-item-"]', { hasText: 'Cliente aguardando reembolso' }).waitFor();
    const tags = (await api<{ id: number; name: string }[]>('/tags/list')).json;
    const vip = tags.find((tag) => tag.name === 'VIP')!;
    await agent.getByTestId('ticket-tags').getByRole('combobox').click();
    await agent.getByTestId(`tag-option-${vip.id}`).click();
    await agent.keyboard.press('Escape');
    for (let i = 0; i < 50; i++) {
      const ticket = (await api<{ tags: { id: number }[] }>(`/tickets/${ticketId}`)).json;
      if (ticket.tags.some((tag) => tag.id === vip.id)) break;
      assert.ok(i < 49, 'tag saved');
      await new Promise((r) => setTimeout(r, 200));
    }
  });

  it('transfers it to the Vendas queue and loses sight of it', async () => {
    const queues = (await api<{ id: number; name: string }[]>('/queue')).json;
    const sales = queues.find((queue) => queue.name === 'Vendas')!;
    await agent.getByTestId('ticket-transfer').click();
    await agent.getByTestId('transfer-queue').click();
    const option = agent.getByTestId(`transfer-queue-${sales.id}`);
    await option.click();
    // A click that lands while the menu is still opening can be lost, leaving the menu over the dialog.
    await agent
      .getByRole('listbox')
      .waitFor({ state: 'hidden', timeout: 3000 })
      .catch(() => option.click());
    await agent.getByTestId('transfer-save').click();
    await waitForPath(agent, '/tickets');
    const ticket = (await api<{ queueId: number; status: string }>(`/tickets/${ticketId}`)).json;
    assert.deepEqual([ticket.queueId, ticket.status], [sales.id, 'pending']);
    await agent.getByTestId('tickets-subtab-pending').click();
    await agent.getByTestId(`ticket-item-${ticketId}`).waitFor({ state: 'detached', timeout: 10_000 });
  });

  it('the admin resolves it', async () => {
    admin = await openPage(browser, { width: 1366, height: 860 });
    await signInAs(admin, server.url, DEMO_ADMIN);
    // Signing in again ended the admin's API session: the API calls go on with the page's.
    adminToken = await pageToken(admin);
    const { uuid } = (await api<{ uuid: string }>(`/tickets/${ticketId}`)).json;
    await admin.goto(`${server.url}/tickets/${uuid}`);
    await admin.getByTestId('ticket-accept').click();
    await admin.getByTestId('ticket-resolve').waitFor();
    await admin.getByTestId('ticket-resolve').click();
    await waitForPath(admin, '/tickets');
    assert.equal((await api<{ status: string }>(`/tickets/${ticketId}`)).json.status, 'closed');
  });

  it('a second agent outside the queues never saw it; the customer writing again reopens it', async () => {
    await outsider.getByTestId('tickets-subtab-pending').click();
    assert.equal(await outsider.getByTestId(`ticket-item-${ticketId}`).count(), 0);
    const visible = await outsider.evaluate(async (id) => {
      const res = await fetch(`/api/tickets/${id}`, {
        headers: { authorization: `Bearer ${localStorage.getItem('token')}` },
      });
      return res.status;
    }, ticketId);
    assert.equal(visible, 403);

    await admin.getByTestId('show-all-switch').click();
    await admin.getByTestId('tickets-subtab-pending').click();
    const again = await customerSays('Ainda estou esperando!');
    assert.equal(again.json.ticketId, ticketId);
    await admin.getByTestId(`ticket-item-${ticketId}`).waitFor({ timeout: 10_000 });
    assert.equal((await api<{ status: string }>(`/tickets/${ticketId}`)).json.status, 'pending');
  });
});
