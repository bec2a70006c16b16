/**
 * Journeys of the company's administration: an admin imports a contacts spreadsheet and sees the
 * result (new contacts and the error bag); the dashboard shows the counts of the day.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { DEMO_ADMIN } from '../support/demo.js';
import { closeJourney, openPage, startJourney } from '../support/journey.js';
import { signInAs, waitForPath } from '../support/pages.js';
import type { RunningServer } from '../support/server.js';

let server: RunningServer;
let browser: Browser;
let page: Page;

before(async () => {
  ({ server, browser } = await startJourney({ SIMULATOR_PAIR_MS: '100' }));
  page = await openPage(browser, { width: 1366, height: 860 });
  await signInAs(page, server.url, DEMO_ADMIN);
});
after(() => closeJourney(browser, server));

async function sheet(rows: (string | number)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const worksheet = workbook.addWorksheet('Contatos');
  worksheet.addRow(['Nome', 'Número', 'Email']);
  for (const row of rows) worksheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('administration', () => {
  it('imports a spreadsheet and shows new contacts and the rows that failed', async () => {
    await page.getByTestId('menu-contacts').click();
    await waitForPath(page, '/contacts');
    const file = await sheet([
      ['Ana Lima', '5511912345678', 'ana@example.test'],
      ['Bruno Reis', '5521998765432', ''],
      ['Sem Número', '', ''],
      ['Ana de Novo', '5511912345678', ''],
    ]);
    await page.getByTestId('import-contacts-input').setInputFiles({
      name: 'contatos.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: file,
    });
    const result = page.getByTestId('import-result');
    await result.waitFor({ timeout: 15_000 });
    const text = (await result.textContent()) ?? '';
    assert.match(text, /Ana Lima/);
    assert.match(text, /Bruno Reis/);
    assert.match(text, /Sem Número/);
    assert.match(text, /Ana de Novo/);
    await page.keyboard.press('Escape');
    await page.getByTestId('contacts-search').fill('bruno');
    await page.getByTestId('contacts-table').getByText('5521998765432').waitFor({ timeout: 10_000 });
  });

  it('shows the counts of the day on the dashboard', async () => {
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const call = (path: string, body: unknown) =>
      fetch(`${server.url}/api${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
    for (let i = 0; i < 50; i++) {
      const res = await call('/simulator/1/messages', {
        from: `55119700000${10 + i}`,
        name: `Cliente ${i}`,
        body: 'Oi',
      });
      if (res.status === 201) {
        for (let j = 1; j < 3; j++)
          await call('/simulator/1/messages', { from: `55119700000${10 + j}`, body: 'Olá' });
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    await page.getByTestId('menu-dashboard').click();
    await waitForPath(page, '/');
    const pending = page.getByTestId('counter-supportPending-value');
    await pending.waitFor({ timeout: 15_000 });
    for (let i = 0; i < 50 && ((await pending.textContent()) ?? '').trim() !== '3'; i++)
      await page.waitForTimeout(200);
    assert.equal(((await pending.textContent()) ?? '').trim(), '3');
    assert.equal(
      ((await page.getByTestId('counter-supportHappening-value').textContent()) ?? '').trim(),
      '0',
    );
  });
});
