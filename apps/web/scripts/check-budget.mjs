/**
 * Web size budget (docs/web.md "Web delivery"): sums, per route, the gzip size
 * (level 9) of the JavaScript a cold load of that route needs before it renders (the entry chunk and
 * its static imports, the boot strings of the default UI language (en); for /login the login entry
 * (src/app/login-entry.tsx, which holds the login page) and nothing of the full app; for every other
 * page the full app (src/app/app.tsx: router, session, toasts), the query client and MUI theme, the
 * signed-in layout for private routes, then the route's page chunk and its static imports, and the
 * locale chunks of the providers, layout and page in en; each file counted once and each chunk with
 * its static imports), read from the build's manifest (dist/.vite/manifest.json), and fails (exit 1)
 * when a route exceeds its budget or a page named below is missing from the build. Fast: no browser,
 * only the build's files.
 *
 *   npm run build && node scripts/check-budget.mjs [distDir]
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { closure as closureIn, distDir, pageKeys, readManifest } from './build-manifest.mjs';

/**
 * Budgets in KiB of gzip JavaScript: the sizes reached plus a few KiB, so a
 * regression fails CI; lower them as the app gets lighter (the delivery aims are 100 for /login and
 * 200 for /tickets). Named routes first; every other page gets DEFAULT_BUDGET_KB.
 */
const ROUTES = [
  // The login entry alone: the full app loads after the sign-in or a link.
  { route: '/login', page: 'src/features/auth/login-page.tsx', budgetKb: 99 },
  { route: '/signup', page: 'src/features/auth/signup-page.tsx', budgetKb: 246 }, // 258 → 246: toasts on demand (2026-11-28)
  { route: '/forgetpsw', page: 'src/features/auth/forgot-password-page.tsx', budgetKb: 240 }, // the two-step MUI form inside the app providers
  // The ticket list only: the open ticket's view, the search filters, the peek dialog, the realtime
  // connection and every page's strings but its own load later; the shell's and the list's menus,
  // popovers, tooltips and closed-filter inputs load on first use (docs/web.md, "Web delivery").
  // 259: the error catalogue's CRM billing codes (2026-11-27); the base was at 258.0 already.
  // 260: the bell's mentions in notes and their schemas in the shell (2026-11-27).
  // 262: with the reports entry of the menu and the tickets' service-level mark (2026-11-27).
  // 262 still: 261.4 in 84 files → 259.6 in 9 (first-render chunks, decision 0129; 2026-11-27).
  // 243: 259.7 → 240.7 once the dashboard's filters stopped bringing MUI's TextField, select, menu and
  // modal into the chunks every first page loads (decision 0132; 2026-11-27).
  // 236: 240.9 → 232.5 with react-toastify out of every first render: the toast container mounts once the
  // first page is usable or at the first toast (app/lazy-toasts.tsx; 2026-11-28).
  // 234: 240.9 → 231.9 with @tanstack/react-virtual for the lists instead of react-virtuoso (2026-11-28).
  // 226: both of the above, 223.6 (2026-11-28).
  // 221: 223.6 → 218.6, what only some first pages share in chunks of their own (chunk-plan.ts; 2026-11-28).
  { route: '/tickets', page: 'src/features/tickets/tickets-page.tsx', budgetKb: 221 },
  // The date pickers come with the date-range filter, the charts after the counters.
  // 265: the shell's mentions and reports entry (2026-11-27).
  // 261: 264.1 in 95 files → 253.0 in 9 (first-render chunks, 2026-11-27).
  // 237: 253.0 → 234.6, its two filters drawn as MUI's outlined native select (decision 0132).
  // 230: 234.7 → 226.2, toasts on demand (2026-11-28).
  // 228: 234.7 → 225.7, the lists' virtualiser in the shell lighter (@tanstack/react-virtual; 2026-11-28).
  // 220: both, 217.4 (2026-11-28).
  // 206: 217.4 → 203.4, no virtual list code or kanban cards (shared-* chunks; 2026-11-28).
  { route: '/ (dashboard)', page: 'src/features/dashboard/dashboard-page.tsx', budgetKb: 206 },
  // The lanes: 262.2 → 243.6 with MUI's form code out of the first pages' chunks (decision 0132).
  // 239: 243.7 → 235.2, toasts on demand (2026-11-28).
  // 237: 243.7 → 234.7 with @tanstack/react-virtual for the lanes (2026-11-28).
  // 229: both, 226.4 (2026-11-28).
  // 225: 226.4 → 222.3 (shared-* chunks; 2026-11-28).
  { route: '/kanban', page: 'src/features/kanban/kanban-page.tsx', budgetKb: 225 },
  // The filters' selects and toggles, the tables and heat map; recharts (its chart) loads after the data.
  // 282: pages that share a cache with the realtime connection now load its one chunk statically (it
  // was fetched right after the shell before too; 2026-11-27).
  // 274: 280.0 → 271.1, the shell's virtualiser lighter (@tanstack/react-virtual; 2026-11-28).
  { route: '/reports', page: 'src/features/reports/reports-page.tsx', budgetKb: 274 },
  // react-big-calendar (month/week/day grid, date-fns localizer) and its CSS, loaded by this page only.
  // 321: the bell's mentions in notes and their schemas in the shell (2026-11-27).
  // 322: the service-level toast's and the list order's strings in the shell's locale chunk (2026-11-27).
  // 340: with the realtime chunk, which it shares a cache with (2026-11-27).
  // 332: 338.1 → 329.1, the shell's virtualiser lighter (@tanstack/react-virtual; 2026-11-28).
  { route: '/schedules', page: 'src/features/schedules/schedules-page.tsx', budgetKb: 332 },
  // @xyflow/react (the React Flow canvas) and its CSS, loaded by the flow editor only.
  // 319: the shell's mentions and reports entry (2026-11-27).
  // 356: the shell of the first-render chunks carries what the first pages share with other pages,
  // and the realtime chunk comes statically (317.8 in 96 files → 349.7 in 21; 2026-11-27).
  // 348: 354.1 → 345.1, the shell's virtualiser lighter (@tanstack/react-virtual; 2026-11-28).
  { route: '/flowbuilder/{id}', page: 'src/features/flows/flow-builder-page.tsx', budgetKb: 348 }, // its test panel, node dialogs and graph check load when used
];
/**
 * Any other page (a private route inside the layout). 296: the heaviest, chats, 302.5 → 293.5 and
 * /contacts 285.0 → 276.1 with @tanstack/react-virtual instead of react-virtuoso (2026-11-28).
 */
const DEFAULT_BUDGET_KB = 296;
/** The boot strings (locale-plugin.ts) of the default UI language, loaded before the first render. */
const BOOT_LOCALE = 'virtual:locale/en/boot';
/** The locale chunk of a root (a page, the layout, the providers) in the default UI language, if it has one. */
const localeOf = (source) => `virtual:locale/en/${source.replace(/^src\//, '').replace(/\.tsx?$/, '')}`;
/** The signed-in shell, loaded before any private page. */
const LAYOUT = 'src/app/layout/app-layout.tsx';
/** The query client and MUI theme, loaded before every page but the login form. */
const PROVIDERS = 'src/app/app-providers.tsx';
/** The one page that renders without PROVIDERS, served at /login by LOGIN_ENTRY instead of APP. */
const LOGIN_PAGE = 'src/features/auth/login-page.tsx';
/** What a visitor without a session loads at /login (the entry chunk picks it: src/app/entry.ts). */
const LOGIN_ENTRY = 'src/app/login-entry.tsx';
/** The full app (router, session, toasts): loaded by the entry chunk for every other page. */
const APP = 'src/app/app.tsx';
/** Pages outside the layout. */
const PUBLIC_PAGE = /^src\/features\/auth\//;

const dist = distDir();
const { manifest, sources } = readManifest(dist, 'check-budget');
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);

const gzipSizes = new Map();
/** gzip -9 size of a built file (its .gz sibling when the build wrote one). */
function gzipSize(file) {
  if (!gzipSizes.has(file)) {
    const full = path.join(dist, file);
    const size = fs.existsSync(`${full}.gz`)
      ? fs.statSync(`${full}.gz`).size
      : zlib.gzipSync(fs.readFileSync(full), { level: 9 }).length;
    gzipSizes.set(file, size);
  }
  return gzipSizes.get(file);
}

/** The files of a manifest chunk and of its static imports, added to `into`. */
const closure = (key, into) => closureIn(manifest, key, into);

const pages = pageKeys(manifest, sources);
const rows = [];
let failed = false;
for (const key of [
  BOOT_LOCALE,
  localeOf(LAYOUT),
  LAYOUT,
  PROVIDERS,
  LOGIN_ENTRY,
  APP,
  ...ROUTES.map((r) => r.page),
]) {
  if (!manifest[key]) {
    console.error(
      `check-budget: ${key} is not a chunk of the build (renamed? update scripts/check-budget.mjs)`,
    );
    failed = true;
  }
}
for (const page of pages) {
  const named = ROUTES.find((r) => r.page === page);
  const files = new Set();
  closure(entryKey, files);
  closure(BOOT_LOCALE, files);
  if (page === LOGIN_PAGE) closure(LOGIN_ENTRY, files);
  else {
    closure(APP, files);
    closure(PROVIDERS, files);
    closure(localeOf(PROVIDERS), files);
  }
  if (!PUBLIC_PAGE.test(page)) {
    closure(LAYOUT, files);
    closure(localeOf(LAYOUT), files);
  }
  closure(page, files);
  closure(localeOf(page), files);
  const js = [...files].filter((file) => file.endsWith('.js'));
  const kb = js.reduce((sum, file) => sum + gzipSize(file), 0) / 1024;
  const budgetKb = named?.budgetKb ?? DEFAULT_BUDGET_KB;
  rows.push({ route: named?.route ?? page.replace(/^src\/features\//, ''), files: js.length, kb, budgetKb });
  if (kb > budgetKb) failed = true;
}
rows.sort((a, b) => a.kb - b.kb);
const width = Math.max(...rows.map((r) => r.route.length));
for (const row of rows) {
  const status = row.kb > row.budgetKb ? 'OVER BUDGET' : 'ok';
  console.log(
    `${row.route.padEnd(width)}  ${String(row.files).padStart(3)} files  ${row.kb.toFixed(1).padStart(6)} KiB gzip  / ${String(row.budgetKb).padStart(3)} KiB  ${status}`,
  );
}
// The build is a production build whatever NODE_ENV the shell had (vite.config.ts): React's
// development build announces its DevTools, which its production build never does.
const developmentChunks = fs
  .readdirSync(path.join(dist, 'assets'))
  .filter((file) => file.endsWith('.js'))
  .filter((file) =>
    fs.readFileSync(path.join(dist, 'assets', file), 'utf8').includes('Download the React DevTools'),
  );
if (developmentChunks.length) {
  console.error(`check-budget: React's development build is in ${developmentChunks.join(', ')}`);
  failed = true;
}
if (failed) {
  console.error('check-budget: a route is over its JavaScript budget (or a named page is missing)');
  process.exit(1);
}
console.log(`check-budget: ${rows.length} routes within budget`);
