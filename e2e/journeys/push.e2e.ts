/**
 * Journey: the installable app and Web Push for agents. The server serves the web manifest and the
 * service worker with their types (the worker revalidated on every load); the login screen registers
 * no worker, the signed-in app does. Headless Chromium cannot create a real push subscription (its
 * push service is Google's, over the internet), so the page stores a subscription that points at a
 * push service on loopback, the way the browser would (POST /api/push/subscriptions), and the journey
 * proves that a customer writing in the simulator on the agent's ticket sends an encrypted push there.
 * The 'Notificações push' dialog passes axe-core's WCAG 2 AA rules, wide and at 360 px.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, WCAG2_AA } from '../support/axe.js';
import { DEMO_ADMIN, DEMO_AGENT } from '../support/demo.js';
import { apiJson, apiLogin, closeJourney, startJourney, waitForConnected } from '../support/journey.js';
import { signInAs } from '../support/pages.js';
import type { RunningServer } from '../support/server.js';

const CUSTOMER = '5511966665555';

/** The loopback push service: every POST web-push makes, by path. */
const pushed: { path: string; encoding: string; bytes: number }[] = [];
const pushService = http.createServer((req, res) => {
  let bytes = 0;
  req.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
  });
  req.on('end', () => {
    pushed.push({ path: req.url ?? '/', encoding: String(req.headers['content-encoding']), bytes });
    res.statusCode = 201;
    res.end();
  });
});

let server: RunningServer;
let browser: Browser;
let agent: Page;
let adminToken = '';
let pushBase = '';

const api = <T>(path: string, init: { method?: string; body?: unknown } = {}) =>
  apiJson<T>(server.url, adminToken, path, init);

/** Waits (10 s at most) until the push service got `count` pushes. */
async function waitForPushes(count: number): Promise<void> {
  for (let i = 0; i < 100 && pushed.length < count; i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(pushed.length >= count, `expected ${count} pushes, got ${pushed.length}`);
}

before(async () => {
  await new Promise<void>((resolve) => pushService.listen(0, '127.0.0.1', resolve));
  pushBase = `http://127.0.0.1:${(pushService.address() as AddressInfo).port}`;
  // The push service is on loopback over http, which only OUTBOUND_ALLOW_PRIVATE_URLS allows.
  ({ server, browser } = await startJourney({
    SIMULATOR_PAIR_MS: '100',
    OUTBOUND_ALLOW_PRIVATE_URLS: 'true',
  }));
  adminToken = (await apiLogin(server.url, DEMO_ADMIN)).token;
  await waitForConnected(async () => (await api<{ status: string }[]>('/whatsapp')).json);
  // Like openPage, and with the page's CSP bypassed so that axe-core can be injected.
  agent = await (
    await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 }, bypassCSP: true })
  ).newPage();
  await agent.context().grantPermissions(['notifications'], { origin: server.url });
});
after(() => closeJourney(browser, server, () => new Promise((resolve) => pushService.close(resolve))));

describe('installable app and Web Push', () => {
  it('serves the manifest and the service worker with their types', async () => {
    const manifest = await fetch(`${server.url}/manifest.webmanifest`);
    assert.equal(manifest.status, 200);
    assert.match(String(manifest.headers.get('content-type')), /^application\/manifest\+json/);
    const body = (await manifest.json()) as { name: string; icons: { src: string; type: string }[] };
    assert.equal(body.name, 'Zapdesk');
    for (const icon of body.icons.filter((i) => i.type === 'image/png')) {
      const png = await fetch(`${server.url}${icon.src}`);
      assert.equal(png.headers.get('content-type'), 'image/png');
    }
    const sw = await fetch(`${server.url}/sw.js`);
    assert.equal(sw.status, 200);
    assert.match(String(sw.headers.get('content-type')), /javascript/);
    assert.equal(sw.headers.get('cache-control'), 'no-cache');
    assert.match(await sw.text(), /showNotification/);
  });

  it('registers the service worker after sign-in, never on the login screen', async () => {
    await agent.goto(`${server.url}/login`);
    await agent.getByTestId('login-submit').waitFor();
    assert.equal(
      await agent.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length),
      0,
    );
    await signInAs(agent, server.url, DEMO_AGENT);
    const script = await agent.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return registration.active?.scriptURL ?? '';
    });
    assert.equal(script, `${server.url}/sw.js`);
  });

  it('pushes to the agent when a customer writes on the agent ticket', async () => {
    // The subscription a browser would store, pointing at the loopback push service.
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.generateKeys();
    const subscription = {
      endpoint: `${pushBase}/agent-browser`,
      keys: {
        p256dh: ecdh.getPublicKey().toString('base64url'),
        auth: crypto.randomBytes(16).toString('base64url'),
      },
    };
    const stored = await agent.evaluate(async (body) => {
      const res = await fetch('/api/push/subscriptions', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${localStorage.getItem('token')}`,
        },
        body: JSON.stringify(body),
      });
      return res.status;
    }, subscription);
    assert.equal(stored, 201);

    const first = await api<{ ticketId: number }>('/simulator/1/messages', {
      method: 'POST',
      body: { from: CUSTOMER, name: 'Carla Push', body: 'Olá, preciso de ajuda' },
    });
    assert.equal(first.status, 201);
    // The agent's id from the admin's user list (a second sign-in would end the agent's session).
    const users = await api<{ users: { id: number; email: string }[] }>(
      `/users?searchParam=${DEMO_AGENT.email}`,
    );
    const agentId = users.json.users.find((u) => u.email === DEMO_AGENT.email)!.id;
    const held = await api(`/tickets/${first.json.ticketId}`, {
      method: 'PUT',
      body: { status: 'open', userId: agentId },
    });
    assert.equal(held.status, 200);
    // The assignment pushes once.
    await waitForPushes(1);
    const before = pushed.length;
    await api('/simulator/1/messages', { method: 'POST', body: { from: CUSTOMER, body: 'Ainda está aí?' } });
    await waitForPushes(before + 1);
    const last = pushed.at(-1)!;
    assert.equal(last.path, '/agent-browser');
    assert.equal(last.encoding, 'aes128gcm');
    assert.ok(last.bytes > 86);
  });

  it("opens 'Notificações push' from the user menu with the event choices", async () => {
    await agent.getByTestId('user-menu-button').click();
    await agent.getByTestId('push-settings-item').click();
    await agent.getByRole('dialog', { name: 'Push notifications' }).waitFor();
    await agent.getByLabel('Show the message text in the notification').waitFor();
    assert.deepEqual(
      await axeViolations(agent, ['[role="dialog"]'], [...WCAG2_AA, 'wcag21a', 'wcag21aa']),
      [],
    );
    await agent.setViewportSize({ width: 360, height: 740 });
    // The shell settles into its phone layout (lazy chunks), then nothing scrolls sideways.
    await agent.waitForFunction(() => document.documentElement.scrollWidth <= 360, undefined, {
      timeout: 10_000,
    });
    const box = await agent.getByRole('dialog', { name: 'Push notifications' }).boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 360, `the dialog sits at ${JSON.stringify(box)}`);
    assert.deepEqual(
      await axeViolations(agent, ['[role="dialog"]'], [...WCAG2_AA, 'wcag21a', 'wcag21aa']),
      [],
    );
  });
});
