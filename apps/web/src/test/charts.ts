/** What the chart tests need from the DOM that jsdom lacks. */
import { vi } from 'vitest';

/**
 * For one test (call it in a `beforeEach`): quiets recharts' warning that its container has no size
 * (jsdom lays nothing out; other warnings still print) and stubs a ResizeObserver that observes
 * nothing. The tests' `vi.unstubAllGlobals()` / `vi.restoreAllMocks()` undo both.
 */
export function stubChartLayout(): void {
  const warn = console.warn.bind(console);
  vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    if (!String(args[0]).includes('of chart should be greater than 0')) warn(...args);
  });
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
}
