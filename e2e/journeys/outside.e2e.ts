/**
 * Journeys of the outside world: an admin finds the connection's token and
 * the curl example with this server's URL on /messages-api, sends a text with the test form and the
 * customer receives it in the simulator; then adds a webhook pointing at a local receiver, copies
 * the secret shown once, and the next message sent through the API reaches the receiver signed with
 * it and shows as delivered in the delivery log.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { DEMO_ADMIN } from '../support/demo.js';
import {
  apiFetcher,
  apiLogin,
  closeJourney,
  openPage,
  pageToken,
  simulatorConnectionId,
  startJourney,
} from '../support/journey.js';
import { signInAs, waitForPath } from '../support/pages.js';
import type { RunningServer } from '../support/server.js';

const CUSTOMER = '5511987650123';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}
const received: Received[] = [];
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    res.end('ok');
  });
});

let server: RunningServer;
let browser: Browser;
let page: Page;
let adminToken: string;
let whatsappId: number;
/** The connection's API token, made by the server (POST /whatsapp/:id/token). */
let TOKEN: string;

const api = apiFetcher(
  () => server.url,
  () => adminToken,
);

before(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  // The receiver is on loopback: this server may call it.
  ({ server, browser } = await startJourney({ OUTBOUND_ALLOW_PRIVATE_URLS: 'true' }));
  page = await openPage(browser);
  adminToken = (await apiLogin(server.url, DEMO_ADMIN)).token;
  whatsappId = await simulatorConnectionId(api);
  const renewed = await api(`/whatsapp/${whatsappId}/token`, { method: 'POST' });
  assert.equal(renewed.status, 200, await renewed.clone().text());
  TOKEN = ((await renewed.json()) as { token: string }).token;
  await signInAs(page, server.url, DEMO_ADMIN);
  // One session per user: the API calls below use the browser's own token.
  adminToken = await pageToken(page);
});
after(() => closeJourney(browser, server, () => new Promise((resolve) => receiver.close(resolve))));

describe('messages API and webhooks', () => {
  it('an admin sends a text from the test form and the customer receives it', async () => {
    await page.goto(`${server.url}/messages-api`);
    await waitForPath(page, '/messages-api');
    await page.getByTestId('messages-api-tokens').getByText(TOKEN).waitFor();
    const curl = await page.getByTestId('messages-api-curl-text').textContent();
    assert.ok(curl?.includes(`${server.url}/api/messages/send`), curl ?? '');
    assert.ok(curl?.includes(`Bearer ${TOKEN}`));

    const form = page.getByTestId('messages-api-test-text');
    await form.getByRole('combobox').click();
    await page.getByRole('option').first().click();
    await page.getByTestId('messages-api-text-number').fill(CUSTOMER);
    await page.getByTestId('messages-api-text-body').fill('Seu pedido saiu para entrega');
    await page.getByTestId('messages-api-text-submit').click();
    const result = await page.getByTestId('messages-api-text-result').textContent({ timeout: 15_000 });
    assert.match(result ?? '', /Message sent \(id \d+\)/);

    const deadline = Date.now() + 10_000;
    let bodies: string[] = [];
    while (Date.now() < deadline) {
      const outbox = await api(`/simulator/${whatsappId}/outbox?number=${CUSTOMER}`);
      const items = (await outbox.json()) as { body?: string }[];
      assert.ok(Array.isArray(items), `outbox ${outbox.status}: ${JSON.stringify(items)}`);
      bodies = items.map((m) => m.body ?? '');
      if (bodies.includes('Seu pedido saiu para entrega')) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.ok(bodies.includes('Seu pedido saiu para entrega'), JSON.stringify(bodies));

    // A wrong token sends nothing.
    const refused = await fetch(`${server.url}/api/messages/send`, {
      method: 'POST',
      headers: { authorization: 'Bearer not-a-token', 'content-type': 'application/json' },
      body: JSON.stringify({ number: CUSTOMER, body: 'não' }),
    });
    assert.equal(refused.status, 401);
  });

  it('an admin adds a webhook; the next message reaches the receiver signed and shows delivered', async () => {
    await page.getByTestId('messages-api-tab-webhooks').click();
    await page.getByTestId('add-webhook-button').click();
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/zapdesk`;
    await page.getByTestId('webhook-url').fill(url);
    await page.getByTestId('webhook-save').click();
    const secret = await page.getByTestId('webhook-secret').inputValue();
    assert.match(secret, /^whsec_/);
    await page.getByTestId('webhook-secret-close').click();
    await page.getByTestId('webhooks-table').getByText(url).waitFor();

    const sent = await fetch(`${server.url}/api/messages/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ number: CUSTOMER, body: 'Chegou hoje' }),
    });
    assert.equal(sent.status, 200, await sent.clone().text());
    const { id } = (await sent.json()) as { id: number };

    const deadline = Date.now() + 15_000;
    let hit: Received | undefined;
    while (!hit && Date.now() < deadline) {
      hit = received.find((r) => JSON.parse(r.body).id === `message.created:${id}`);
      if (!hit) await new Promise((r) => setTimeout(r, 200));
    }
    assert.ok(hit, `no delivery of message ${id}: ${received.map((r) => r.body).join('\n')}`);
    const timestamp = String(hit.headers['x-zapdesk-timestamp']);
    const expected = `sha256=${crypto.createHmac('sha256', secret).update(`${timestamp}.${hit.body}`).digest('hex')}`;
    assert.equal(hit.headers['x-zapdesk-signature'], expected);
    assert.equal(JSON.parse(hit.body).data.message.body, 'Chegou hoje');

    const row = page.locator('[data-testid^="webhook-row-"]').first();
    const rowId = (await row.getAttribute('data-testid'))!.replace('webhook-row-', '');
    await page.getByTestId(`webhook-log-${rowId}`).click();
    await page.getByTestId('webhook-deliveries').getByText('Delivered').first().waitFor({ timeout: 10_000 });
  });
});
