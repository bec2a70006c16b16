import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type FetchingSource,
  FIRST_PAGE_MAX_WAIT_MS,
  firstPageSettled,
  onFirstPageSettled,
  resetFirstPageForTests,
  settleWhenIdle,
} from './first-page';

/** A fetching counter whose changes are announced to its subscribers. */
function counter(initial: number): FetchingSource & { set(n: number): void } {
  let n = initial;
  const subscribers = new Set<() => void>();
  return {
    isFetching: () => n,
    subscribe(onChange) {
      subscribers.add(onChange);
      return () => subscribers.delete(onChange);
    },
    set(value) {
      n = value;
      for (const s of [...subscribers]) s();
    },
  };
}

afterEach(() => {
  resetFirstPageForTests();
  vi.useRealTimers();
});

describe('first page settled', () => {
  it('waits for the page queries, then, once the browser is idle, tells every listener once', () => {
    vi.useFakeTimers();
    const source = counter(2);
    const listener = vi.fn();
    onFirstPageSettled(listener);
    settleWhenIdle(source);
    expect(firstPageSettled()).toBe(false);
    source.set(1);
    expect(listener).not.toHaveBeenCalled();
    source.set(0);
    expect(listener).not.toHaveBeenCalled();
    vi.advanceTimersByTime(50);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(firstPageSettled()).toBe(true);
    source.set(1);
    source.set(0);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('settles at once for a page with nothing fetching, or without a query client', () => {
    vi.useFakeTimers();
    settleWhenIdle(counter(0));
    vi.advanceTimersByTime(50);
    expect(firstPageSettled()).toBe(true);
    resetFirstPageForTests();
    settleWhenIdle(null);
    expect(firstPageSettled()).toBe(true);
  });

  it('stops waiting for a query that never ends after the longest wait', () => {
    vi.useFakeTimers();
    const listener = vi.fn();
    onFirstPageSettled(listener);
    settleWhenIdle(counter(1));
    vi.advanceTimersByTime(FIRST_PAGE_MAX_WAIT_MS - 1);
    expect(listener).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('calls a listener added after the moment at once, and none that unsubscribed', () => {
    const gone = vi.fn();
    const off = onFirstPageSettled(gone);
    off();
    settleWhenIdle(null);
    expect(gone).not.toHaveBeenCalled();
    const late = vi.fn();
    onFirstPageSettled(late);
    expect(late).toHaveBeenCalledTimes(1);
  });

  it('a cleaned-up watch neither settles nor keeps its timer', () => {
    vi.useFakeTimers();
    const source = counter(1);
    const stop = settleWhenIdle(source);
    stop();
    source.set(0);
    vi.advanceTimersByTime(FIRST_PAGE_MAX_WAIT_MS);
    expect(firstPageSettled()).toBe(false);
  });
});
