/**
 * Campaigns journey: an admin sets the campaign pace (no interval, sending all day),
 * imports a contact list from an .xlsx, makes a file list with an image, creates a campaign to that
 * list with the file list and starts it; the report reaches FINALIZADA ('Finished') at 100% and every customer
 * finds the message (with their first name) and the image in the simulator.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { type ApiFetch, closeJourney } from '../support/journey.js';
import { startAdminJourney } from '../support/openers.js';
import { waitForPath, waitForToast } from '../support/pages.js';
import type { RunningServer } from '../support/server.js';

const CUSTOMERS = [
  { name: 'Bruna Campanha', number: '5511987651001' },
  { name: 'Caio Campanha', number: '5511987651002' },
  { name: 'Dora Campanha', number: '5511987651003' },
];
/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let server: RunningServer;
let browser: Browser;
let page: Page;
let whatsappId: number;

let api: ApiFetch;

async function sheet(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const ws = workbook.addWorksheet('Contatos');
  ws.addRow(['Nome', 'Numero', 'Email']);
  for (const c of CUSTOMERS) ws.addRow([c.name, c.number, '']);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

before(async () => {
  ({ server, browser, page, api, whatsappId } = await startAdminJourney({ width: 1366, height: 900 }));
});
after(() => closeJourney(browser, server));

describe('campaigns', () => {
  it('sets the pace: no interval, no jitter, all day', async () => {
    await page.goto(`${server.url}/campaigns-config`);
    const form = page.getByTestId('campaigns-config-form');
    await form.waitFor();
    await form.getByRole('combobox', { name: 'Interval between messages' }).click();
    await page.getByRole('option', { name: 'No interval' }).click();
    await page.getByTestId('campaigns-config-sendWindowStart').fill('00:00');
    await page.getByTestId('campaigns-config-sendWindowEnd').fill('00:00');
    await page.getByTestId('campaigns-config-jitterSeconds').fill('0');
    await page.getByTestId('campaigns-config-save').click();
    await page.waitForFunction(async () => {
      const res = await fetch('/api/campaign-settings', {
        headers: { authorization: `Bearer ${localStorage.getItem('token')}` },
      });
      const s = (await res.json()) as { messageInterval: number; jitterSeconds: number };
      return s.messageInterval === 0 && s.jitterSeconds === 0;
    });
  });

  it('imports a contact list from an .xlsx', async () => {
    await page.goto(`${server.url}/contact-lists`);
    await page.getByTestId('add-contact-list').click();
    await page.getByTestId('contact-list-name').fill('Clientes da campanha');
    await page.getByTestId('contact-list-save').click();
    await page.getByTestId('contact-list-modal').waitFor({ state: 'detached' });
    const row = page.locator('[data-testid^="contact-list-row-"]', { hasText: 'Clientes da campanha' });
    const listId = (await row.getAttribute('data-testid'))!.replace('contact-list-row-', '');
    await page.getByTestId(`contact-list-open-${listId}`).click();
    await waitForPath(page, new RegExp(`/contact-lists/${listId}`));
    await page.getByTestId('contact-list-import-input').setInputFiles({
      name: 'contatos.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await sheet(),
    });
    await page.getByTestId('contact-list-import-state').getByRole('alert').waitFor({ timeout: 20_000 });
    for (const c of CUSTOMERS)
      await page.getByTestId('contact-list-items-table').getByText(c.name).waitFor({ timeout: 10_000 });
  });

  it('makes a file list with an image', async () => {
    await page.goto(`${server.url}/files`);
    await page.getByTestId('add-file-list-button').click();
    await page.getByTestId('file-list-name').fill('Tabela de preços');
    await page.getByTestId('file-list-message').fill('Segue a tabela');
    await page.getByTestId('file-option-add').click();
    await page
      .getByTestId('file-option-file-0')
      .setInputFiles({ name: 'tabela.png', mimeType: 'image/png', buffer: PNG });
    await page.getByTestId('file-list-save').click();
    await page.getByTestId('file-list-modal').waitFor({ state: 'detached', timeout: 15_000 });
    await page.locator('[data-testid^="file-list-row-"]', { hasText: 'Tabela de preços' }).waitFor();
  });

  it('creates and starts a campaign to the list with the file list; the report reaches FINALIZADA', async () => {
    await page.goto(`${server.url}/campaigns`);
    await page.getByTestId('add-campaign').click();
    const modal = page.getByTestId('campaign-modal');
    await modal.waitFor();
    await page.getByTestId('campaign-name').fill('Promoção de novembro');
    await modal.getByRole('combobox', { name: 'Contact list' }).click();
    await page.getByRole('option', { name: 'Clientes da campanha' }).click();
    await modal.getByRole('combobox', { name: 'File list' }).click();
    await page.getByRole('option', { name: 'Tabela de preços' }).click();
    await page.getByTestId('campaign-message1').fill('Oi {{firstName}}, temos novidades para você');
    await page.getByTestId('campaign-save').click();
    await modal.waitFor({ state: 'detached', timeout: 15_000 });
    const row = page.locator('[data-testid^="campaign-row-"]', { hasText: 'Promoção de novembro' });
    const id = (await row.getAttribute('data-testid'))!.replace('campaign-row-', '');
    await page.getByTestId(`campaign-restart-${id}`).click();
    await waitForToast(page, 'Campaign started');
    await page.getByTestId(`campaign-report-${id}`).click();
    await waitForPath(page, `/campaign/${id}/report`);
    await page.getByTestId('campaign-report-status').getByText('Finished').waitFor({ timeout: 60_000 });
    assert.equal((await page.getByTestId('campaign-report-percent').textContent())?.trim(), '100%');
  });

  it('every customer received the message with their name, and the image', async () => {
    for (const c of CUSTOMERS) {
      let outbox: { body?: string; kind?: string }[] = [];
      for (let i = 0; i < 40; i++) {
        outbox = (await (
          await api(`/simulator/${whatsappId}/outbox?number=${c.number}`)
        ).json()) as typeof outbox;
        if (outbox.length >= 2) break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      const first = c.name.split(' ')[0];
      assert.ok(
        outbox.some((m) => m.body === `Oi ${first}, temos novidades para você`),
        `${c.name}: ${JSON.stringify(outbox)}`,
      );
      assert.ok(
        outbox.some((m) => m.kind === 'image'),
        `${c.name} got no image: ${JSON.stringify(outbox)}`,
      );
    }
  });
});
