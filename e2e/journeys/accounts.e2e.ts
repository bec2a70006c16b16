/**
 * Journeys of accounts administration: a user who forgot the password asks
 * for a code, reads it in the mail (the outbox folder of the embedded default, no SMTP_URL), sets a
 * new password and signs in with it; the super user creates a plan and a company on it in /settings
 * and extends the company's due date with Expire; an admin sets the service-level warning share,
 * a value out of bounds refused on the page.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { DEMO_ADMIN, DEMO_AGENT } from '../support/demo.js';
import { closeJourney, openPage, startJourney } from '../support/journey.js';
import { signIn, signInAs, waitForPath, waitForToast } from '../support/pages.js';
import type { RunningServer } from '../support/server.js';

let server: RunningServer;
let browser: Browser;

before(async () => {
  ({ server, browser } = await startJourney());
});
after(() => closeJourney(browser, server));

const newPage = (): Promise<Page> => openPage(browser);

/** The code of the newest mail to `to` in DATA_DIR/outbox, waiting for it to be written. */
async function codeFromOutbox(to: string): Promise<string> {
  const dir = path.join(server.dataDir, 'outbox');
  const deadline = Date.now() + 10_000;
  for (;;) {
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
    for (const file of files.reverse()) {
      const mail = fs.readFileSync(path.join(dir, file), 'utf8');
      const code = /^(\d{8})$/m.exec(mail)?.[1];
      if (mail.includes(`To: ${to}`) && code) return code;
    }
    if (Date.now() > deadline) throw new Error(`no mail to ${to} in ${dir}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('accounts', () => {
  it('forgot password: mail in the outbox, code, new password, sign in', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/login`);
    await page.getByRole('link', { name: /forgot/i }).click();
    await waitForPath(page, '/forgetpsw');
    // The link opened the full app through the history: back shows the form again, forward returns.
    await page.goBack();
    await waitForPath(page, '/login');
    await page.getByTestId('login-submit').waitFor();
    await page.goForward();
    await waitForPath(page, '/forgetpsw');
    await page.getByTestId('forgot-email').fill(DEMO_AGENT.email);
    await page.getByTestId('forgot-send').click();
    await waitForToast(page, 'Email sent');
    const code = await codeFromOutbox(DEMO_AGENT.email);

    await page.getByTestId('reset-code').fill(code);
    await page.getByTestId('reset-password').fill('NewAgent123');
    await page.getByTestId('reset-confirm').fill('NewAgent123');
    await page.getByTestId('reset-submit').click();
    await waitForPath(page, '/login');
    await waitForToast(page, 'Password reset successfully');

    // The old password no longer works; the new one does.
    await page.getByLabel('Email').fill(DEMO_AGENT.email);
    await page.getByLabel('Password').fill(DEMO_AGENT.password);
    await page.getByTestId('login-submit').click();
    await page.locator('.Toastify__toast').first().waitFor();
    assert.equal(new URL(page.url()).pathname, '/login');
    await signIn(page, server.url, DEMO_AGENT.email, 'NewAgent123');

    // The code was spent: using it again is refused.
    const again = await fetch(`${server.url}/api/resetpasswords`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: DEMO_AGENT.email, token: code, password: 'Another123' }),
    });
    assert.equal(again.status, 400);
  });

  it('the super user creates a plan and a company on it, then extends the company with Expire', async () => {
    const page = await newPage();
    await signInAs(page, server.url, DEMO_ADMIN);
    await page.goto(`${server.url}/settings`);
    await page.getByTestId('settings-plans-tab').click();
    const planName = `Plano E2E ${Date.now().toString(36)}`;
    await page.getByTestId('add-plan-button').click();
    await page.getByTestId('plan-name').fill(planName);
    await page.getByTestId('plan-value').fill('59.9');
    await page.getByTestId('plan-users').fill('4');
    await page.getByTestId('plan-useKanban').check();
    await page.getByTestId('plan-save').click();
    await waitForToast(page, 'Plan saved');
    await page.getByTestId('plans-tab').getByText(planName).waitFor();
    await page.getByTestId('plans-tab').getByText('R$ 59,90').waitFor();

    await page.getByTestId('settings-companies-tab').click();
    await page.getByTestId('add-company-button').click();
    const companyName = `Empresa E2E ${Date.now().toString(36)}`;
    await page.getByTestId('company-name').fill(companyName);
    await page.getByTestId('company-plan').click();
    await page.getByRole('option', { name: planName }).click();
    await page.getByTestId('company-due-date').fill('2030-01-15');
    await page.getByTestId('company-save').click();
    await waitForToast(page, 'Company saved');
    const row = page.locator('[data-testid^="company-row-"]', { hasText: companyName });
    await row.waitFor();
    assert.equal(await row.getAttribute('data-colour'), 'none');
    await row.getByText('15/01/2030').waitFor();
    await row.getByText(planName).waitFor();

    // Expire: MENSAL moves the due date one month.
    const id = (await row.getAttribute('data-testid'))!.replace('company-row-', '');
    await page.getByTestId(`company-expire-${id}`).click();
    await waitForToast(page, 'Due date extended to 15/02/2030');
    await page.getByTestId(`company-due-${id}`).getByText('15/02/2030').waitFor();
  });

  it('an admin sets the service-level warning share; out of bounds is refused on the page', async () => {
    const page = await newPage();
    await signInAs(page, server.url, DEMO_ADMIN);
    await page.goto(`${server.url}/settings`);
    const percent = page.getByLabel('Due time warning (% of the service target)');
    await percent.fill('100');
    await page.getByText('Enter a whole number from 1 to 99.').waitFor();
    await percent.fill('85');
    await percent.press('Enter');
    await waitForToast(page, 'Operation updated successfully.');
    await page.reload();
    await page.getByTestId('setting-slaWarningPercent').waitFor();
    assert.equal(await page.getByTestId('setting-slaWarningPercent').inputValue(), '85');
  });
});
