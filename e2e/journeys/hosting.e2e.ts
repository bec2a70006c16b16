/**
 * Journey: the server hosts its API at the root (API_PREFIX=''), as the original Whaticket backend
 * does, and the web app still works beside it under its Content-Security-Policy: sign-in, the
 * tickets page, the live socket, a reload of a client route, with no CSP violation in the console.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO_ADMIN } from '../support/demo.js';
import { closeJourney, startJourney } from '../support/journey.js';
import { signInAs, waitForPath } from '../support/pages.js';
import type { RunningServer } from '../support/server.js';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const violations: string[] = [];
const sockets: string[] = [];
const apiCalls: string[] = [];

before(async () => {
  ({ server, browser } = await startJourney({ API_PREFIX: '' }));
  context = await browser.newContext({ locale: 'en-US' });
  page = await context.newPage();
  page.on('console', (message) => {
    if (/Content[ -]Security[ -]Policy/i.test(message.text())) violations.push(message.text());
  });
  page.on('pageerror', (error) => violations.push(error.message));
  page.on('websocket', (socket) => sockets.push(socket.url()));
  page.on('request', (request) => {
    if (request.resourceType() === 'fetch') apiCalls.push(new URL(request.url()).pathname);
  });
});
after(() => closeJourney(browser, server));

describe('API at the root', () => {
  it('serves the web app, which signs in through the API at the root', async () => {
    await signInAs(page, server.url, DEMO_ADMIN);
    await page.getByTestId('side-menu').waitFor();
    assert.ok(apiCalls.includes('/auth/login'), `calls: ${apiCalls.join(', ')}`);
    assert.ok(!apiCalls.some((p) => p.startsWith('/api/')), `calls: ${apiCalls.join(', ')}`);
  });

  it('opens the live socket', async () => {
    if (!sockets.some((u) => u.includes('/socket.io/'))) {
      sockets.push((await page.waitForEvent('websocket')).url());
    }
    assert.ok(
      sockets.some((u) => u.includes('/socket.io/')),
      `sockets: ${sockets.join(', ')}`,
    );
  });

  it('reloads a client route that shares its path with the API', async () => {
    await page.reload();
    await waitForPath(page, '/tickets');
    await page.getByTestId('side-menu').waitFor();
  });

  it('breaks no Content-Security-Policy rule', () => {
    assert.deepEqual(violations, []);
  });
});
