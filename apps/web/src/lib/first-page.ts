/**
 * The moment the first page is usable (docs/web.md, "Web delivery"): what the first render does not
 * need (the realtime connection, the toast container) loads after it, so its download does not
 * compete with the page's own code and data. Settles once per page life, when the first route's page
 * has rendered and no query is fetching, or FIRST_PAGE_MAX_WAIT_MS after the page rendered, whichever
 * comes first; a toast asked for earlier mounts its container at once (lib/notify.ts).
 */
import { useEffect, useState } from 'react';

/** The longest the first page's queries may keep the deferred code waiting (ms). */
export const FIRST_PAGE_MAX_WAIT_MS = 3_000;

let settled = false;
const listeners = new Set<() => void>();

/** Whether the first page has settled. */
export function firstPageSettled(): boolean {
  return settled;
}

/**
 * Calls `listener` once the first page has settled (at once, synchronously, if it has). Returns the
 * unsubscribe.
 */
export function onFirstPageSettled(listener: () => void): () => void {
  if (settled) {
    listener();
    return () => {};
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the first page has settled, re-rendering the component once it does. */
export function useFirstPageSettled(): boolean {
  const [settledNow, setSettledNow] = useState(firstPageSettled);
  useEffect(() => onFirstPageSettled(() => setSettledNow(true)), []);
  return settledNow;
}

/** Marks the first page as settled and calls the waiting listeners (later calls do nothing). */
export function settleFirstPage(): void {
  if (settled) return;
  settled = true;
  const waiting = [...listeners];
  listeners.clear();
  for (const listener of waiting) listener();
}

/** Something that reports how many queries are fetching and tells when that may have changed. */
export interface FetchingSource {
  isFetching(): number;
  subscribe(onChange: () => void): () => void;
}

/**
 * Settles the first page as soon as `source` reports no query fetching, or after `maxWaitMs`.
 * Called once the first page has rendered (its queries have started by then). Returns the cleanup.
 */
export function settleWhenIdle(
  source: FetchingSource | null,
  maxWaitMs = FIRST_PAGE_MAX_WAIT_MS,
): () => void {
  if (settled) return () => {};
  if (!source) {
    settleFirstPage();
    return () => {};
  }
  let stop = () => {};
  let cancelIdle = () => {};
  const timer = setTimeout(() => {
    stop();
    settleFirstPage();
  }, maxWaitMs);
  const check = () => {
    if (source.isFetching() > 0) return;
    clearTimeout(timer);
    stop();
    // The last answers are rendered after this notice (the query client hands them to the page in a
    // later task): settle once the browser is idle, so that what waits for this moment is not
    // fetched while the page draws them.
    cancelIdle = whenIdle(settleFirstPage);
  };
  stop = source.subscribe(check);
  check();
  return () => {
    clearTimeout(timer);
    cancelIdle();
    stop();
  };
}

/** The longest a browser may keep the idle callback waiting (ms). */
const IDLE_TIMEOUT_MS = 1_000;
/** The delay used where the browser has no idle callbacks (ms). */
const NO_IDLE_DELAY_MS = 50;

/** Calls `callback` when the browser is next idle (at most IDLE_TIMEOUT_MS later); returns the cancel. */
function whenIdle(callback: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(callback, { timeout: IDLE_TIMEOUT_MS });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = setTimeout(callback, NO_IDLE_DELAY_MS);
  return () => clearTimeout(handle);
}

/** Forgets the settled state (tests only). */
export function resetFirstPageForTests(): void {
  settled = false;
  listeners.clear();
}
