/**
 * Journey: the demo admin sees the simulator connection CONNECTED on /connections, adds a second
 * simulator connection, asks its QR dialog for a new code (the dialog stays and shows it) and
 * watches the dialog close by itself when it pairs; a customer says
 * 'Olá' from the /simulator page, the message reaches an agent's socket live and the API; the
 * admin replies through the API and the simulator outbox shows the reply with its ticks, read
 * after 'mark as read'.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { io, type Socket } from 'socket.io-client';
import { DEMO_ADMIN, DEMO_AGENT } from '../support/demo.js';
import { closeJourney, openPage, startJourney } from '../support/journey.js';
import { signInAs, waitForPath } from '../support/pages.js';
import type { RunningServer } from '../support/server.js';

let server: RunningServer;
let browser: Browser;
let page: Page;
let agentSocket: Socket | undefined;

before(async () => {
  ({ server, browser } = await startJourney({ SIMULATOR_PAIR_MS: '2500' }));
  page = await openPage(browser);
});
after(() => {
  agentSocket?.close();
  return closeJourney(browser, server);
});

/** Calls the API from the page with its session token. */
function api<T>(
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; json: T }> {
  return page.evaluate(
    async ({ path, init }) => {
      const res = await fetch(path, {
        method: init.method ?? 'GET',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${localStorage.getItem('token')}`,
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      return { status: res.status, json: (await res.json().catch(() => null)) as T };
    },
    { path, init },
  );
}

describe('connections and the simulator', () => {
  it('shows the demo simulator connection as CONNECTED', async () => {
    await signInAs(page, server.url, DEMO_ADMIN);
    await page.getByTestId('menu-connections').click();
    await waitForPath(page, '/connections');
    await page.locator('[data-testid^="connection-status-"][data-status="CONNECTED"]').first().waitFor();
    assert.match((await page.getByTestId('connections-table').textContent()) ?? '', /Simulador/);
  });

  it('adds a simulator connection; its QR dialog shows a restarted code and closes once it pairs', async () => {
    await page.getByTestId('add-connection-button').click();
    const form = page.getByTestId('connection-form');
    await page.getByTestId('connection-name').fill('Simulador 2');
    await form.getByRole('combobox', { name: 'Provider' }).click();
    await page.getByRole('option', { name: 'Simulator' }).click();
    await page.getByTestId('connection-save').click();
    await form.waitFor({ state: 'detached' });
    const row = page.locator('[data-testid^="connection-row-"]', { hasText: 'Simulador 2' });
    const qrButton = row.locator('[data-testid^="session-button-qrcode-"]');
    await qrButton.waitFor({ timeout: 10_000 });
    await qrButton.click();
    await page.getByTestId('qr-dialog').waitFor();
    const first = (await page.getByTestId('qr-code').getAttribute('data-value')) ?? '';
    assert.match(first, /^zapdesk-simulator:/);
    // A restart while the dialog is open: the dialog stays and shows the new code.
    await page.getByTestId('qr-dialog-new-qr').click();
    await page.waitForFunction(
      (old) => {
        const value = document.querySelector('[data-testid="qr-code"]')?.getAttribute('data-value');
        return !!value && value !== old;
      },
      first,
      { timeout: 10_000 },
    );
    assert.match((await page.getByTestId('qr-code').getAttribute('data-value')) ?? '', /^zapdesk-simulator:/);
    await page.getByTestId('qr-dialog').waitFor({ state: 'detached', timeout: 10_000 });
    await row.locator('[data-status="CONNECTED"]').waitFor();
  });

  it("delivers the customer's 'Olá' live to an agent and the API; the reply reaches the outbox with ticks", async () => {
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(DEMO_AGENT),
    });
    const { token, user } = (await login.json()) as { token: string; user: { companyId: number } };
    agentSocket = io(server.url, { transports: ['websocket'], query: { token } });
    await new Promise<void>((resolve, reject) => {
      agentSocket!.once('ready', () => resolve());
      agentSocket!.once('connect_error', reject);
    });
    const live = new Promise<{ message: { body: string; ticketId: number } }>((resolve) =>
      agentSocket!.on(
        `company-${user.companyId}-appMessage`,
        (event: { action: string; message: { body: string; ticketId: number } }) => {
          if (event.action === 'create' && event.message.body === 'Olá') resolve(event);
        },
      ),
    );

    await page.goto(`${server.url}/simulator`);
    await page.getByTestId('simulator-from').fill('5511999990001');
    await page.getByTestId('simulator-name').fill('Maria Cliente');
    await page.getByTestId('simulator-body').fill('Olá');
    await page.getByTestId('simulator-send').click();
    const event = await live;
    const ticketId = event.message.ticketId;

    const history = await api<{
      messages: { body: string; fromMe: boolean }[];
      ticket: { contact: { name: string } };
    }>(`/api/messages/${ticketId}`);
    assert.equal(history.status, 200);
    // The customer's message is stored first; the connection's greeting and then the queue's may
    // follow, in that order (the chatbot greets a new customer of a one-queue connection), never
    // anything else.
    const bodies = history.json.messages.map((m) => m.body);
    assert.equal(bodies[0], 'Olá');
    const greetings = ['Olá! Bem-vindo à Zapdesk Demo.', 'Olá! Em que podemos ajudar?'];
    assert.deepEqual(bodies.slice(1), greetings.slice(0, bodies.length - 1), bodies.join(' | '));
    assert.equal(history.json.ticket.contact.name, 'Maria Cliente');

    const reply = await api<{ wid: string }[]>(`/api/messages/${ticketId}`, {
      method: 'POST',
      body: { body: 'Oi Maria, tudo bem?' },
    });
    assert.equal(reply.status, 201);
    const item = page.getByTestId('outbox-item').filter({ hasText: 'Oi Maria, tudo bem?' });
    await item.waitFor({ timeout: 10_000 });
    await item.getByTestId('outbox-ack-3').waitFor({ timeout: 10_000 });
    await page.getByTestId('simulator-mark-read').click();
    await item.getByTestId('outbox-ack-4').waitFor({ timeout: 10_000 });
    const stored = await api<{ messages: { body: string; ack: number }[] }>(`/api/messages/${ticketId}`);
    assert.equal(stored.json.messages.find((m) => m.body === 'Oi Maria, tudo bem?')?.ack, 4);
  });
});
