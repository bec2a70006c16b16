/**
 * Journey: the JavaScript each first-visited route costs as Chromium fetches it (cold cache, gzip -9
 * of each file, counted by e2e/support/web-weight.ts exactly as bench/web counts it) stays within its
 * budget, and in how many files. The build's manifest check (apps/web/scripts/check-budget.mjs)
 * holds every page before the browser runs; this one holds what a browser really downloads, chunks
 * fetched by the page itself right after its first render included (docs/web.md, "Web delivery").
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { DEMO_ADMIN } from '../support/demo.js';
import { closeJourney, startJourney } from '../support/journey.js';
import { signIn } from '../support/pages.js';
import type { RunningServer } from '../support/server.js';
import { javascriptWeight, measureLoad, type SessionState, WEIGHED_ROUTES } from '../support/web-weight.js';

/**
 * Budgets in KiB of gzip JavaScript and in JavaScript files: the sizes reached plus a little, so a
 * regression fails CI; lower them as the app gets lighter (aims: 100 KiB for /login, 200 KiB in at
 * most 30 files for /tickets, the dashboard and kanban).
 */
// 2026-11-27, first-render chunks (decision 0129): /tickets 292.5 KiB in 112 files → 284.7 in 19,
// dashboard 290.2/116 → 273.7/15, contacts 319.1/135 → 283.8/32, kanban 290.2/101 → 282.9/15.
// 2026-11-27, no MUI form code in the first pages' chunks (decision 0132): /tickets 265.7 in 19,
// dashboard 255.0/14, kanban 264.2/15, contacts 288.3/33 (it fetches the form code with its page now).
// 2026-11-28, the realtime connection, the toasts and the show-all switch after the first page
// (decision 0139): /tickets 236.6 in 14, dashboard 230.3/14, kanban 239.3/14, contacts 290.1/36.
// 2026-11-28, @tanstack/react-virtual for the lists instead of react-virtuoso: /tickets 265.9 → 257.0
// KiB in 19 files, dashboard 255.3 → 246.4 in 15, contacts 289.0 → 280.2 in 35, kanban 264.3 → 255.4 in 15.
// Both: /tickets 227.6 in 14, dashboard 221.4/14, kanban 230.4/14, contacts 281.2/36.
// 2026-11-28, what only some first pages share in chunks of their own (shared-*, chunk-plan.ts):
// /tickets 222.7 in 17, dashboard 207.5/16, kanban 226.4/16, contacts 280.2/39.
const BUDGETS: Record<string, { kib: number; files: number }> = {
  '/login': { kib: 99, files: 10 },
  '/tickets': { kib: 226, files: 20 },
  '/ (dashboard)': { kib: 211, files: 19 },
  '/contacts': { kib: 284, files: 42 },
  '/kanban': { kib: 230, files: 19 },
};

let server: RunningServer;
let browser: Browser;
let session: SessionState;

before(async () => {
  ({ server, browser } = await startJourney());
  const context = await browser.newContext();
  await signIn(await context.newPage(), server.url, DEMO_ADMIN.email, DEMO_ADMIN.password);
  session = await context.storageState();
  await context.close();
});
after(() => closeJourney(browser, server));

describe('JavaScript of a cold load, as Chromium fetches it', () => {
  for (const spec of WEIGHED_ROUTES) {
    it(`${spec.name} stays within its budget`, async () => {
      const budget = BUDGETS[spec.name];
      assert.ok(budget, `no budget for ${spec.name}`);
      const load = await measureLoad(browser, server.url, spec, spec.signedIn ? session : undefined);
      const { files, gzip } = await javascriptWeight(load);
      const kib = gzip / 1024;
      console.log(
        `${spec.name}: ${kib.toFixed(1)} KiB gzip in ${files} files (budget ${budget.kib} KiB, ${budget.files} files)`,
      );
      assert.ok(
        kib <= budget.kib,
        `${spec.name}: ${kib.toFixed(1)} KiB over its budget of ${budget.kib} KiB`,
      );
      assert.ok(files <= budget.files, `${spec.name}: ${files} files over its budget of ${budget.files}`);
    });
  }
});
