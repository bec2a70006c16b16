/**
 * Edits journey: an admin renames a contact list and one of its contacts through their dialogs (the
 * typed text stays and is saved), and a flow editor opened on a flow that does not exist leaves for
 * the flows list instead of spinning.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { DEMO_ADMIN } from '../support/demo.js';
import {
  type ApiFetch,
  apiFetcher,
  closeJourney,
  openPage,
  pageToken,
  startJourney,
} from '../support/journey.js';
import { signInAs, waitForPath } from '../support/pages.js';
import type { RunningServer } from '../support/server.js';

let server: RunningServer;
let browser: Browser;
let page: Page;
let api: ApiFetch;

before(async () => {
  ({ server, browser } = await startJourney());
  page = await openPage(browser, { width: 1366, height: 900 });
  await signInAs(page, server.url, DEMO_ADMIN);
  const token = await pageToken(page);
  api = apiFetcher(
    () => server.url,
    () => token,
  );
});
after(() => closeJourney(browser, server));

async function created(path: string, body: object): Promise<{ id: number }> {
  const res = await api(path, { method: 'POST', body: JSON.stringify(body) });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()) as { id: number };
}

describe('edits', () => {
  it('renames a contact list and one of its contacts', async () => {
    const list = await created('/contact-lists', { name: 'Lista antiga' });
    const item = await created('/contact-list-items', {
      contactListId: list.id,
      name: 'Contato antigo',
      number: '5511987652001',
    });
    await page.goto(`${server.url}/contact-lists`);
    await page.getByTestId(`contact-list-edit-${list.id}`).click();
    const name = page.getByTestId('contact-list-name');
    await page.waitForFunction(
      () => (document.querySelector('[data-testid="contact-list-name"]') as HTMLInputElement)?.value,
    );
    await name.fill('Lista nova');
    await name.press('End');
    await name.pressSequentially(' 2');
    assert.equal(await name.inputValue(), 'Lista nova 2');
    await page.getByTestId('contact-list-save').click();
    await page.getByTestId('contact-list-modal').waitFor({ state: 'detached' });
    await page.getByTestId(`contact-list-row-${list.id}`).getByText('Lista nova 2').waitFor();

    await page.goto(`${server.url}/contact-lists/${list.id}/contacts`);
    await page.getByTestId(`contact-list-item-edit-${item.id}`).click();
    const itemName = page.getByTestId('contact-list-item-name');
    await page.waitForFunction(
      () => (document.querySelector('[data-testid="contact-list-item-name"]') as HTMLInputElement)?.value,
    );
    await itemName.fill('Contato novo');
    await page.getByTestId('contact-list-item-save').click();
    await page.getByTestId('contact-list-item-modal').waitFor({ state: 'detached' });
    const stored = (await (await api(`/contact-list-items/${item.id}`)).json()) as { name: string };
    assert.equal(stored.name, 'Contato novo');
  });

  it('leaves a flow that does not exist for the flows list', async () => {
    await page.goto(`${server.url}/flowbuilder/999999`);
    await waitForPath(page, /\/flowbuilders$/);
  });
});
