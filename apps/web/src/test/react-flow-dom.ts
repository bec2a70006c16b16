/** What React Flow needs from the DOM that jsdom lacks. */
import { beforeAll } from 'vitest';

/**
 * Before the calling file's tests, gives jsdom a ResizeObserver that observes nothing (React Flow
 * measures nodes with it) and a DOMMatrixReadOnly whose `m22` is the `scale(...)` of the transform
 * it is given, 1 without one (React Flow reads its zoom there). Set once, not stubbed, so that the
 * tests' `vi.unstubAllGlobals()` leaves them in place.
 */
export function polyfillReactFlowDom(): void {
  beforeAll(() => {
    globalThis.ResizeObserver ??= class {
      observe() {}
      unobserve() {}
      disconnect() {}
    };
    (globalThis as { DOMMatrixReadOnly?: unknown }).DOMMatrixReadOnly ??= class {
      m22: number;
      constructor(transform?: string) {
        const scale = transform?.match(/scale\(([0-9.]+)\)/)?.[1];
        this.m22 = scale ? Number(scale) : 1;
      }
    };
  });
}
