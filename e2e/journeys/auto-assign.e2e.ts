/**
 * Journey of automatic assignment (docs/automation.md "Automatic assignment"): the admin turns on
 * round robin for the queue in its modal, with a 30-minute first-response target (docs/reports.md
 * "Service levels"); two agents are signed in, each in a browser of their own;
 * four customers write on the simulator and each agent finds two of them in their 'Open' tab without
 * pressing Accept. One agent switches to 'Away' in the top bar and the next customer goes to the
 * other; the admin's users page shows each agent's load. The agents answer their customers and the
 * admin's /reports counts the four conversations, each agent's first response times and downloads
 * the agents' CSV. The top bar, its phone menu, the users table and the reports page pass axe's
 * WCAG A and AA rules, on a wide screen and at 360 px.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { axeViolations } from '../support/axe.js';
import { DEMO_ADMIN, DEMO_AGENT } from '../support/demo.js';
import { apiJson, closeJourney, openPage, pageToken } from '../support/journey.js';
import { startInboxJourney } from '../support/openers.js';
import { signInAs, waitForPath } from '../support/pages.js';
import type { RunningServer } from '../support/server.js';

const SECOND = { email: 'bia@zapdesk.local', password: 'bia-agente-1' };

const TOP_BAR = '[data-testid="top-bar"]';
/** A duration as the reports show it: '45 s', '1 min 20 s', '2 h 5 min'. */
const DURATION = /^\d+ (d|h|min|s)( \d+ (h|min|s))?$/;

let server: RunningServer;
let browser: Browser;
let admin: Page;
let agent: Page;
let second: Page;
let adminToken = '';
let queueId = 0;
let agentId = 0;
let secondId = 0;
/** The four first customers' tickets and the agent each went to. */
let firstTickets: { ticketId: number; holder: number }[] = [];

const api = <T>(path: string, init: { method?: string; body?: unknown } = {}) =>
  apiJson<T>(server.url, adminToken, path, init);

/** A customer writes on the simulator; answers the ticket's id. */
async function customerWrites(n: number): Promise<number> {
  const sent = await api<{ ticketId: number }>('/simulator/1/messages', {
    method: 'POST',
    body: {
      from: `55119888800${String(n).padStart(2, '0')}`,
      name: `Cliente ${n}`,
      body: 'Olá, preciso de ajuda',
    },
  });
  assert.equal(sent.status, 201);
  return sent.json.ticketId;
}

/** Polls the ticket until it is open with someone; answers who. */
async function holderOf(ticketId: number): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const { json } = await api<{ status: string; userId: number | null }>(`/tickets/${ticketId}`);
    if (json.status === 'open' && json.userId) return json.userId;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`ticket ${ticketId} was not assigned`);
}

/**
 * Runs axe's WCAG 2 A and AA rules on the parts of the page this journey is about (CSS selectors);
 * fails with the violations found.
 */
async function assertAccessible(page: Page, what: string, include: string[]): Promise<void> {
  const violations = await axeViolations(page, include);
  assert.deepEqual(violations, [], `${what}: ${violations.join(' | ')}`);
}

before(async () => {
  // Only the assignment speaks to the customers here: no queue greeting.
  ({ server, browser, adminToken } = await startInboxJourney({
    settings: { sendGreetingMessageOneQueues: 'disabled' },
  }));
  const queues = (await api<{ id: number; name: string }[]>('/queue')).json;
  queueId = queues.find((q) => q.name === 'Suporte')!.id;
  const users = (await api<{ users: { id: number; email: string }[] }>('/users/')).json.users;
  agentId = users.find((u) => u.email === DEMO_AGENT.email)!.id;
  const created = await api<{ id: number }>('/users', {
    method: 'POST',
    body: { name: 'Bia Agente', ...SECOND, profile: 'user', queueIds: [queueId] },
  });
  assert.equal(created.status, 201);
  secondId = created.json.id;

  admin = await openPage(browser, { width: 1366, height: 860 });
  agent = await openPage(browser, { width: 1366, height: 860 });
  second = await openPage(browser, { width: 1366, height: 860 });
  await signInAs(admin, server.url, DEMO_ADMIN);
  // Signing in ends the admin's other sessions: the API goes on with the page's.
  adminToken = await pageToken(admin);
  await signInAs(agent, server.url, DEMO_AGENT);
  await signInAs(second, server.url, SECOND);
});
after(() => closeJourney(browser, server));

describe('automatic assignment', () => {
  it('the admin turns on round robin and a first-response target in the queue modal', async () => {
    await admin.goto(`${server.url}/queues`);
    await admin.getByTestId(`queue-edit-${queueId}`).click();
    await admin.getByTestId('queue-auto-assignment').click();
    await admin.getByRole('option', { name: 'Round robin' }).click();
    // A service-level target of 0 minutes is refused in the form; 30 minutes is saved.
    const firstResponse = admin.getByTestId('queue-sla-first');
    await firstResponse.fill('0');
    await admin.getByTestId('queue-save').click();
    await admin.getByText('Enter a whole number between 1 and 525,600').waitFor();
    await firstResponse.fill('30');
    await admin.getByTestId('queue-save').click();
    await admin.getByTestId('queue-modal').waitFor({ state: 'hidden' });
    const saved = await api<{ autoAssignment: string; slaFirstResponseMinutes: number | null }>(
      `/queue/${queueId}`,
    );
    assert.equal(saved.json.autoAssignment, 'round_robin');
    assert.equal(saved.json.slaFirstResponseMinutes, 30);
  });

  it('four customers write and each online agent gets two tickets without pressing Accept', async () => {
    for (const page of [agent, second]) {
      assert.equal(await page.getByTestId('availability-switch').getAttribute('data-availability'), 'online');
    }
    const ids: number[] = [];
    for (let n = 1; n <= 4; n++) ids.push(await customerWrites(n));
    const holders = await Promise.all(ids.map(holderOf));
    firstTickets = ids.map((ticketId, i) => ({ ticketId, holder: holders[i]! }));
    assert.equal(holders.filter((h) => h === agentId).length, 2, holders.join(','));
    assert.equal(holders.filter((h) => h === secondId).length, 2, holders.join(','));
    for (const [page, id] of [
      [agent, agentId],
      [second, secondId],
    ] as const) {
      await page.getByTestId('tickets-subtab-assigned').click();
      for (const ticketId of ids.filter((_t, i) => holders[i] === id)) {
        await page.getByTestId(`ticket-item-${ticketId}`).waitFor({ timeout: 10_000 });
      }
      assert.equal(await page.locator('[data-testid^="ticket-accept-"]').count(), 0);
    }
  });

  it("the agents answer; the admin's /reports counts four conversations and each agent's first response", async () => {
    const tokens = new Map([
      [agentId, await pageToken(agent)],
      [secondId, await pageToken(second)],
    ]);
    for (const { ticketId, holder } of firstTickets) {
      const sent = await apiJson(server.url, tokens.get(holder)!, `/messages/${ticketId}`, {
        method: 'POST',
        body: { body: 'Olá! Já vou ajudar.' },
      });
      assert.ok(sent.status < 300, `reply to ${ticketId}: ${sent.status}`);
    }

    await admin.getByTestId('menu-reports').click();
    await waitForPath(admin, '/reports');
    const value = (id: string) => admin.getByTestId(`report-card-${id}-value`);
    await admin.locator('[data-testid="report-card-opened-value"]', { hasText: /^4$/ }).waitFor();
    await admin
      .locator('[data-testid="report-card-firstResponse-detail"]', { hasText: '4 tickets' })
      .waitFor();
    assert.match((await value('firstResponse').textContent()) ?? '', DURATION);
    for (const id of [agentId, secondId]) {
      await admin.locator(`[data-testid="report-agents-${id}-handled"]`, { hasText: /^2$/ }).waitFor();
      for (const column of ['firstResponseAvg', 'firstResponseMedian', 'firstResponseP90']) {
        const text = await admin.getByTestId(`report-agents-${id}-${column}`).textContent();
        assert.match(text ?? '', DURATION, `${column} of ${id}`);
      }
    }
    // The page's period and filters are in its address, so the report can be linked.
    assert.match(new URL(admin.url()).search, /^\?from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}$/);

    const [download] = await Promise.all([
      admin.waitForEvent('download'),
      admin.getByTestId('report-download-agents-csv').click(),
    ]);
    assert.match(download.suggestedFilename(), /^agents-\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = readFileSync((await download.path()) as string, 'utf8')
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/);
    assert.match(lines[0] ?? '', /^userId,name,handled,resolved,openNow,firstResponseAvg,/);
    await admin.getByTestId('report-agents-chart').waitFor();
    await assertAccessible(admin, 'reports page', ['[data-testid="reports-page"]']);
  });

  it("an agent set to 'Away' in the top bar gets no more; the admin sees each one's load", async () => {
    const toggle = second.getByTestId('availability-switch');
    await toggle.click();
    await second.locator('[data-testid="availability-switch"][data-availability="away"]').waitFor();
    assert.equal(await toggle.textContent(), 'Away');
    const next = await customerWrites(5);
    assert.equal(await holderOf(next), agentId);

    await admin.getByTestId('menu-users').click();
    await waitForPath(admin, '/users');
    await admin.getByTestId(`user-load-${agentId}`).getByText('3/∞').waitFor();
    assert.match((await admin.getByTestId(`user-load-${secondId}`).textContent()) ?? '', /^2\/∞Away$/);
    await assertAccessible(admin, 'users page', [TOP_BAR, '[data-testid="users-table"]']);
    await assertAccessible(second, 'top bar', [TOP_BAR]);
  });

  it('at 360 px the switch sits in the more menu and the screens stay accessible', async () => {
    await second.setViewportSize({ width: 360, height: 740 });
    await second.getByTestId('top-bar-more').click();
    const item = second.getByTestId('more-availability');
    assert.equal(await item.textContent(), 'Away');
    // axe reads colours as drawn: the menu's opening transition (opacity) must be over.
    await second.waitForFunction(() => {
      const paper = document.querySelector('[data-testid="top-bar-more-menu"]')?.parentElement;
      return paper !== null && paper !== undefined && getComputedStyle(paper).opacity === '1';
    });
    await assertAccessible(second, 'more menu at 360 px', ['[data-testid="top-bar-more-menu"]']);
    await item.click();
    await second.getByTestId('top-bar-more').click();
    await second.locator('[data-testid="more-availability"][data-availability="online"]').waitFor();
    await second.keyboard.press('Escape');
    await admin.setViewportSize({ width: 360, height: 740 });
    await admin.getByTestId(`user-load-${agentId}`).waitFor();
    await assertAccessible(admin, 'users page at 360 px', [TOP_BAR, '[data-testid="users-table"]']);
    const overflow = await admin.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    assert.equal(overflow, false, 'the users page scrolls sideways at 360 px');

    // The reports at 360 px: the tables and the heat map scroll inside their boxes.
    await admin.goto(`${server.url}/reports`);
    await admin.getByTestId('report-heatmap').waitFor();
    await admin.getByTestId('report-agents').waitFor();
    await assertAccessible(admin, 'reports page at 360 px', ['[data-testid="reports-page"]']);
    const reportsOverflow = await admin.evaluate(
      () => document.documentElement.scrollWidth > window.innerWidth,
    );
    assert.equal(reportsOverflow, false, 'the reports page scrolls sideways at 360 px');
  });
});
