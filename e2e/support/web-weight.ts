/**
 * What a cold load of a route costs in files, as Chromium fetches them: shared by the web delivery
 * benchmark (bench/web) and the budget journey (e2e/journeys/web-budget.e2e.ts), so that the figure
 * the budget holds is the figure the benchmark reports (docs/web.md, "Web delivery").
 */
import zlib from 'node:zlib';
import type { Browser, BrowserContext } from 'playwright-core';

/** A measured route: where it is, whether it needs a signed-in user, and when it is usable. */
export interface RouteSpec {
  name: string;
  path: string;
  signedIn: boolean;
  /** CSS selectors that all match once the page can be used. */
  usable: string[];
}

/** The routes measured: the login form, then the signed-in pages an agent opens first. */
export const WEIGHED_ROUTES: RouteSpec[] = [
  {
    name: '/login',
    path: '/login',
    signedIn: false,
    usable: ['[data-testid=login-submit]', 'form input[type=password]'],
  },
  {
    name: '/tickets',
    path: '/tickets',
    signedIn: true,
    usable: ['[data-testid=tickets-manager]', '[data-testid^="ticket-item-"], [data-testid=tickets-empty]'],
  },
  {
    name: '/ (dashboard)',
    path: '/',
    signedIn: true,
    usable: ['[data-testid^="counter-"]'],
  },
  {
    name: '/contacts',
    path: '/contacts',
    signedIn: true,
    usable: ['[data-testid=contacts-page]'],
  },
  {
    name: '/kanban',
    path: '/kanban',
    signedIn: true,
    usable: ['[data-testid^="kanban-lane-"]'],
  },
];

/** One file fetched from the app's origin (API answers excluded). Sizes in bytes. */
export interface FetchedFile {
  url: string;
  kind: 'js' | 'css' | 'html' | 'other';
  /** Resource Timing `transferSize`: what went over the wire, headers included. */
  transfer: number;
  /** The decoded body. */
  raw: number;
  /** The response's content-encoding ('identity' when none, '?' when unseen). */
  encoding: string;
}

/** One cold load: ms from navigation start to usable, and the files the route fetched by itself. */
export interface LoadMeasure {
  usableMs: number;
  /**
   * Every file of the app's origin the route asked for before it was usable (API answers excluded),
   * each counted once it arrived: what the first render needed, whatever the machine's speed; what
   * the page loads after its first render (deferred chunks, prefetches) is not counted.
   */
  files: FetchedFile[];
}

/** Lighthouse's mobile network: 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up. */
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: 200_000, uploadThroughput: 93_750 };

/** The signed-in state a route's context starts from (token and refresh cookie), if any. */
export type SessionState = Awaited<ReturnType<BrowserContext['storageState']>> | undefined;

/**
 * Loads `spec` from `baseUrl` in a fresh context (empty cache, service workers blocked;
 * `storageState` signs it in), under slow 4G when `throttle`, and measures it (see LoadMeasure).
 * @throws when the page is not usable within 60 s.
 */
export async function measureLoad(
  browser: Browser,
  baseUrl: string,
  spec: RouteSpec,
  storageState: SessionState,
  throttle = false,
): Promise<LoadMeasure> {
  const context = await browser.newContext({ storageState, serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    const encodings = new Map<string, string>();
    page.on('response', (response) => {
      encodings.set(response.url(), response.headers()['content-encoding'] ?? 'identity');
    });
    if (throttle) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    }
    // The moment the page's content is first on screen, taken in the page when the DOM changes (a
    // mutation observer runs right after React commits, before the effects that start deferred loads).
    // (No named functions inside: the page runs this source as it is, without the transpiler's helpers.)
    await page.addInitScript((selectors: string[]) => {
      const observer = new MutationObserver(() => {
        if (!selectors.every((s) => document.querySelector(s))) return;
        (window as unknown as { __usableAt: number }).__usableAt = performance.now();
        observer.disconnect();
      });
      observer.observe(document, { childList: true, subtree: true, attributes: true });
    }, spec.usable);
    await page.goto(`${baseUrl}${spec.path}`, { waitUntil: 'commit' });
    const handle = await page.waitForFunction(
      () => (window as unknown as { __usableAt?: number }).__usableAt,
      null,
      {
        polling: 'raf',
        timeout: 60_000,
      },
    );
    const usableMs = (await handle.jsonValue()) as number;
    // Files appear in the timeline when they finish: wait for the ones asked for by then to land.
    await page.waitForLoadState('networkidle', { timeout: 60_000 });
    const timings = await page.evaluate((until: number) => {
      const nav = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
      const res = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      return [...nav, ...res]
        .filter((e) => e.responseEnd > 0 && e.startTime <= until)
        .map((e) => ({
          url: e.name,
          transfer: e.transferSize,
          raw: e.decodedBodySize,
          type: e.initiatorType,
        }));
    }, usableMs);
    const files = timings
      .filter((e) => new URL(e.url).origin === baseUrl && !new URL(e.url).pathname.startsWith('/api/'))
      .map((e): FetchedFile => {
        const pathname = new URL(e.url).pathname;
        const kind = pathname.endsWith('.js')
          ? 'js'
          : pathname.endsWith('.css')
            ? 'css'
            : e.type === 'navigation'
              ? 'html'
              : 'other';
        return { url: e.url, kind, transfer: e.transfer, raw: e.raw, encoding: encodings.get(e.url) ?? '?' };
      });
    return { usableMs, files };
  } finally {
    await context.close();
  }
}

const gzipSizes = new Map<string, number>();

/** gzip -9 size in bytes of a file as the server has it (fetched again without compression). */
export async function gzipSize(url: string): Promise<number> {
  const known = gzipSizes.get(url);
  if (known !== undefined) return known;
  const res = await fetch(url, { headers: { 'accept-encoding': 'identity', accept: '*/*' } });
  const size = zlib.gzipSync(Buffer.from(await res.arrayBuffer()), { level: 9 }).length;
  gzipSizes.set(url, size);
  return size;
}

/** The JavaScript of a load: how many files and their gzip -9 size in bytes. */
export async function javascriptWeight(load: LoadMeasure): Promise<{ files: number; gzip: number }> {
  const js = load.files.filter((f) => f.kind === 'js');
  let gzip = 0;
  for (const file of js) gzip += await gzipSize(file.url);
  return { files: js.length, gzip };
}
