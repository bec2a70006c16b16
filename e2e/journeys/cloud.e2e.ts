/**
 * Cloud API journey: an admin adds a WhatsApp Business Cloud API connection against a local fake
 * Graph API; it turns CONNECTED and the modal shows the webhook URL and verify token, which pass
 * Meta's verification handshake; a signed inbound webhook becomes a pending ticket live in the
 * inbox; the agent accepts it, replies, and the fake Graph API records the send.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { FakeGraphApi, sign, webhook } from '../../apps/server/src/channels/cloud/fake-graph-api.js';
import { DEMO_ADMIN } from '../support/demo.js';
import { closeJourney, openPage, startJourney } from '../support/journey.js';
import { signInAs, waitForPath } from '../support/pages.js';
import type { RunningServer } from '../support/server.js';

const APP_SECRET = 'e2e-app-secret-0123456789';
let fake: FakeGraphApi;
let server: RunningServer;
let browser: Browser;
let page: Page;
let whatsappId: number;
let ticketId: number;
const customer = '5511987654321';

before(async () => {
  fake = new FakeGraphApi();
  const origin = await fake.start();
  ({ server, browser } = await startJourney({ CLOUD_API_URL: origin, CLOUD_API_VERSION: 'v21.0' }));
  page = await openPage(browser, { width: 1366, height: 860 });
});
after(() => closeJourney(browser, server, () => fake?.stop()));

describe('the official Cloud API channel', () => {
  it('adds a cloud connection that connects against the Graph API', async () => {
    await signInAs(page, server.url, DEMO_ADMIN);
    await page.getByTestId('menu-connections').click();
    await waitForPath(page, '/connections');
    await page.getByTestId('add-connection-button').click();
    const form = page.getByTestId('connection-form');
    await page.getByTestId('connection-name').fill('WhatsApp Oficial');
    await form.getByRole('combobox', { name: 'Provider' }).click();
    await page.getByRole('option', { name: 'Official WhatsApp API (Cloud API)' }).click();
    await page.getByTestId('cloud-phoneNumberId').fill(fake.phoneNumberId);
    await page.getByTestId('cloud-wabaId').fill(fake.wabaId);
    await page.getByTestId('cloud-accessToken').fill(fake.token);
    await page.getByTestId('cloud-appSecret').fill(APP_SECRET);
    await page.getByTestId('connection-save').click();
    await form.waitFor({ state: 'detached', timeout: 15_000 });
    const row = page.locator('[data-testid^="connection-row-"]', { hasText: 'WhatsApp Oficial' });
    await row.locator('[data-status="CONNECTED"]').waitFor({ timeout: 15_000 });
    whatsappId = Number((await row.getAttribute('data-testid'))!.replace('connection-row-', ''));
    const probe = fake.requests.find((r) => r.method === 'GET' && r.path.endsWith(`/${fake.phoneNumberId}`));
    assert.equal(probe?.authorization, `Bearer ${fake.token}`);
  });

  it('shows the webhook URL and verify token, which pass the verification handshake', async () => {
    await page.getByTestId(`connection-edit-${whatsappId}`).click();
    const url = (await page.getByTestId('cloud-webhook-url').textContent()) ?? '';
    const verifyToken = (await page.getByTestId('cloud-verify-token').textContent()) ?? '';
    assert.equal(url, `${server.url}/api/cloud/webhook/${whatsappId}`);
    assert.match(verifyToken, /^[\w-]{20,}$/);
    // The secrets are never shown back.
    assert.equal(await page.getByTestId('cloud-accessToken').inputValue(), '');
    const res = await fetch(`${url}?hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=4242`);
    assert.equal(res.status, 200);
    assert.equal(await res.text(), '4242');
    await page.keyboard.press('Escape');
    await page.getByTestId('connection-form').waitFor({ state: 'detached' });
  });

  it('a signed inbound webhook becomes a pending ticket live in the inbox', async () => {
    await page.getByTestId('menu-tickets').click();
    await waitForPath(page, '/tickets');
    await page.getByTestId('tickets-subtab-pending').click();
    const body = JSON.stringify(
      webhook(fake.phoneNumberId, {
        contacts: [{ wa_id: customer, name: 'Cliente Oficial' }],
        messages: [
          {
            from: customer,
            id: 'wamid.HBgNNTUxMTk4NzY1NDMyMRUCABIYFjNFQjBDMEQ2RkY0QjQ1',
            timestamp: String(Math.floor(Date.now() / 1000)),
            type: 'text',
            text: { body: 'Olá, quero falar com o suporte' },
          },
        ],
      }),
    );
    const unsigned = await fetch(`${server.url}/api/cloud/webhook/${whatsappId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    assert.equal(unsigned.status, 403);
    const res = await fetch(`${server.url}/api/cloud/webhook/${whatsappId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': sign(body, APP_SECRET) },
      body,
    });
    assert.equal(res.status, 200);
    const item = page.locator('[data-testid^="ticket-item-"]', { hasText: 'quero falar com o suporte' });
    await item.waitFor({ timeout: 20_000 });
    ticketId = Number((await item.getAttribute('data-testid'))!.replace('ticket-item-', ''));
    assert.ok(ticketId > 0);
  });

  it('the agent accepts and replies; the fake Graph API records the send', async () => {
    await page.getByTestId(`ticket-accept-${ticketId}`).click();
    await waitForPath(page, /^\/tickets\/[0-9a-f-]{36}$/);
    await page.getByTestId('composer-input').fill('Olá! Como posso ajudar?');
    await page.getByTestId('composer-send').click();
    await page
      .locator('[data-testid^="message-"][data-from-me="true"]', { hasText: 'Como posso ajudar?' })
      .first()
      .waitFor({ timeout: 10_000 });
    const deadline = Date.now() + 10_000;
    let sent: Record<string, unknown> | undefined;
    while (!sent && Date.now() < deadline) {
      sent = fake
        .sent()
        .find((m) => (m.text as { body?: string } | undefined)?.body?.includes('Como posso ajudar?'));
      if (!sent) await new Promise((r) => setTimeout(r, 200));
    }
    assert.ok(sent, 'the Graph API received the reply');
    assert.equal(sent.to, customer);
    assert.equal(sent.type, 'text');
  });
});
