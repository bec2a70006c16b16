/**
 * Journeys around the session: the demo admin signs in; a second sign-in elsewhere signs the first
 * browser out with the duplicate-login message; a company whose due date has passed cannot sign in.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import type { Browser } from 'playwright-core';
import { DEMO_ADMIN } from '../support/demo.js';
import { closeJourney, openPage, startJourney } from '../support/journey.js';
import { signInAs, waitForPath, waitForToast } from '../support/pages.js';
import { type RunningServer, startServer } from '../support/server.js';

let server: RunningServer;
let browser: Browser;

before(async () => {
  ({ server, browser } = await startJourney());
});
after(() => closeJourney(browser, server));

describe('sessions', () => {
  it('a second sign-in of the same user signs the first browser out', async () => {
    const first = await openPage(browser);
    await signInAs(first, server.url, DEMO_ADMIN);
    await first.getByTestId('side-menu').waitFor();
    await first.waitForTimeout(500);
    const second = await openPage(browser);
    await signInAs(second, server.url, DEMO_ADMIN);
    await waitForToast(first, 'Your account was accessed from another computer.');
    await waitForPath(first, '/login');
    assert.equal(await first.evaluate(() => localStorage.getItem('token')), null);
    await second.getByTestId('side-menu').waitFor();
    assert.equal(new URL(second.url()).pathname, '/tickets');
  });

  it('a company whose due date has passed cannot sign in', async () => {
    const email = `late-${Date.now().toString(36)}@example.test`;
    const res = await fetch(`${server.url}/api/companies/cadastro`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Empresa Atrasada', email, password: 'late-pass', phone: '11912345678' }),
    });
    assert.equal(res.status, 201);
    const { companyId } = (await res.json()) as { companyId: number };

    // Move the due date into the past directly in the embedded database, with the server stopped.
    await server.stop({ keepData: true });
    const db = await PGlite.create(path.join(server.dataDir, 'pglite'));
    await db.query(`update companies set due_date = '2026-01-15T12:00:00Z' where id = $1`, [companyId]);
    await db.close();
    server = await startServer({}, server.dataDir);

    const page = await openPage(browser);
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('late-pass');
    await page.getByTestId('login-submit').click();
    await waitForToast(page, 'Your subscription expired on 15/01/2026');
    assert.equal(new URL(page.url()).pathname, '/login');
    assert.equal(await page.evaluate(() => localStorage.getItem('token')), null);
  });
});
