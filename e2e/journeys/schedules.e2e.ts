/**
 * Schedules journey: an admin opens /schedules?contactId= for a contact, the modal
 * opens with that contact, writes a message with a variable and a send time in the current minute,
 * saves; the schedule shows on the calendar and the customer receives the message in the simulator,
 * with the variable replaced, and the calendar shows it as sent.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { type ApiFetch, closeJourney } from '../support/journey.js';
import { startAdminJourney } from '../support/openers.js';
import { waitForToast } from '../support/pages.js';
import type { RunningServer } from '../support/server.js';

const CUSTOMER = '5511987650777';

let server: RunningServer;
let browser: Browser;
let page: Page;
let whatsappId: number;

let api: ApiFetch;

before(async () => {
  ({ server, browser, page, api, whatsappId } = await startAdminJourney());
});
after(() => closeJourney(browser, server));

describe('schedules', () => {
  it('schedules a message for a contact from ?contactId= and the customer receives it', async () => {
    const created = await api('/contacts', {
      method: 'POST',
      body: JSON.stringify({ name: 'Paula Agendada', number: CUSTOMER }),
    });
    assert.ok(created.ok, await created.clone().text());
    const contact = (await created.json()) as { id: number };
    await page.goto(`${server.url}/schedules?contactId=${contact.id}`);
    await page.getByTestId('schedule-modal').waitFor();
    await page.waitForFunction(
      () =>
        (
          document.querySelector('[data-testid="schedule-contact"]') as HTMLInputElement | null
        )?.value.includes('Paula Agendada') ?? false,
    );
    await page.getByTestId('schedule-body').fill('Oi {{firstName}}, seu horário está confirmado');
    const now = new Date();
    const pad = (n: number) => String(n).padStart(2, '0');
    // The send time is a date-time picker typed section by section: MM dd yyyy HH mm in English.
    const typed = `${pad(now.getMonth() + 1)}${pad(now.getDate())}${now.getFullYear()}${pad(now.getHours())}${pad(now.getMinutes())}`;
    await page.getByTestId('schedule-send-at').getByRole('spinbutton').first().click();
    await page.keyboard.type(typed);
    await page.getByTestId('schedule-save').click();
    await waitForToast(page, 'Schedule saved successfully!');
    await page.getByTestId('schedules-calendar').getByText('Paula Agendada').first().waitFor();

    let bodies: string[] = [];
    for (let i = 0; i < 40 && bodies.length === 0; i++) {
      const outbox = await api(`/simulator/${whatsappId}/outbox?number=${CUSTOMER}`);
      bodies = ((await outbox.json()) as { body?: string }[]).map((m) => m.body ?? '');
      if (bodies.length === 0) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    assert.deepEqual(bodies, ['Oi Paula, seu horário está confirmado']);
    await page.getByTestId('schedules-calendar').getByText('Sent').first().waitFor({ timeout: 10_000 });
  });
});
