/**
 * Lists and files journey: the contacts CSV comes from the server in one request; a contact list
 * without an import answers without a 404; a quick message whose file the server refuses is saved
 * once, says why and closes; the dashboard's 'Filtrar' asks again with the same period.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type ApiFetch, closeJourney } from '../support/journey.js';
import { type AdminJourney, startAdminJourney } from '../support/openers.js';

let journey: AdminJourney;
let page: Page;
let api: ApiFetch;
let serverUrl: string;

before(async () => {
  journey = await startAdminJourney({ width: 1366, height: 900 });
  ({ page, api } = journey);
  serverUrl = journey.server.url;
});
after(() => closeJourney(journey?.browser, journey?.server));

/** The paths of the API requests the page makes while `action` runs. */
async function apiRequests(action: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const listen = (request: { url: () => string }) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) seen.push(`${url.pathname}${url.search}`);
  };
  page.on('request', listen);
  try {
    await action();
  } finally {
    page.off('request', listen);
  }
  return seen;
}

describe('lists and files', () => {
  it('downloads the contacts CSV from the server in one request', async () => {
    await page.goto(`${serverUrl}/contacts`);
    await page.getByTestId('export-contacts-button').waitFor();
    let file = '';
    const requests = await apiRequests(async () => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('export-contacts-button').click(),
      ]);
      assert.equal(download.suggestedFilename(), 'contatos.csv');
      file = fs.readFileSync((await download.path()) as string, 'utf8');
    });
    assert.deepEqual(
      requests.filter((r) => r.startsWith('/api/contacts')),
      ['/api/contacts/export'],
    );
    const lines = file.replace(/^\uFEFF/, '').split('\r\n');
    assert.equal(lines[0], 'name;number;email');
    const count = ((await (await api('/contacts')).json()) as { count: number }).count;
    assert.equal(lines.length - 1, count);
  });

  it('opens a contact list without an import and sees no 404', async () => {
    const res = await api('/contact-lists', {
      method: 'POST',
      body: JSON.stringify({ name: 'Sem importação' }),
    });
    assert.equal(res.status, 201, await res.clone().text());
    const { id } = (await res.json()) as { id: number };
    const missing: string[] = [];
    const onResponse = (response: { status: () => number; url: () => string }) => {
      if (response.status() === 404) missing.push(response.url());
    };
    page.on('response', onResponse);
    await page.goto(`${serverUrl}/contact-lists/${id}/contacts`);
    await page.getByTestId('contact-list-import').waitFor();
    await page.waitForLoadState('networkidle');
    page.off('response', onResponse);
    assert.deepEqual(missing, []);
  });

  it('saves a quick message once when its file is refused, says why and closes', async () => {
    await page.goto(`${serverUrl}/quick-messages`);
    await page.getByTestId('add-quick-message-button').click();
    await page.getByTestId('quick-message-shortcode').fill('recusado');
    await page.getByTestId('quick-message-file').setInputFiles({
      name: 'foto.png',
      mimeType: 'image/png',
      buffer: Buffer.from('MZ this is a program, not a picture'),
    });
    await page.getByTestId('quick-message-save').click();
    await page.getByTestId('quick-message-modal').waitFor({ state: 'detached' });
    await page
      .locator('.Toastify__toast', { hasText: /Unsupported content type|Tipo de conteúdo não suportado/ })
      .first()
      .waitFor();
    const stored = (await (await api('/quick-messages?searchParam=recusado')).json()) as {
      records: { shortcode: string; mediaPath: string | null }[];
    };
    assert.deepEqual(
      stored.records.map((r) => [r.shortcode, r.mediaPath]),
      [['recusado', null]],
    );
  });

  it("asks the server again when 'Filtrar' is pressed twice with the same period", async () => {
    await page.goto(`${serverUrl}/`);
    await page.getByTestId('counter-leads').waitFor();
    await page.getByTestId('dashboard-period').selectOption('7');
    const requests = await apiRequests(async () => {
      for (let i = 0; i < 2; i++) {
        const answered = page.waitForResponse((r) => r.url().includes('/api/dashboard?days=7'));
        await page.getByTestId('dashboard-filter').click();
        await answered;
      }
    });
    assert.equal(requests.filter((r) => r === '/api/dashboard?days=7').length, 2);
  });
});
