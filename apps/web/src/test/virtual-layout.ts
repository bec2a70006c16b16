/** The sizes of the virtual lists (features/common/virtual-list.tsx) in jsdom, which lays nothing out. */
import { afterEach, beforeEach } from 'vitest';

/** The heights (px) the virtual lists see. */
export interface VirtualLayout {
  /** The height of every list's scroll box (an element with an inline `overflow-y: auto`). */
  viewportHeight: number;
  /** The height of every rendered row (an element with a `data-index`). */
  rowHeight: number;
}

/**
 * A ResizeObserver that, as a browser's does, reports each element once soon after it is observed
 * (its offsetHeight as its border box height); jsdom has none, and the lists measure the rows that
 * appear while scrolling through it.
 */
class FirstReportResizeObserver {
  private observing = true;
  constructor(private readonly callback: ResizeObserverCallback) {}
  observe(target: Element): void {
    setTimeout(() => {
      if (!this.observing || !target.isConnected) return;
      const height = (target as HTMLElement).offsetHeight;
      const size = [{ blockSize: height, inlineSize: 0 }];
      const entry = { target, borderBoxSize: size, contentBoxSize: size, devicePixelContentBoxSize: size };
      this.callback([entry as unknown as ResizeObserverEntry], this as unknown as ResizeObserver);
    }, 0);
  }
  unobserve(): void {}
  disconnect(): void {
    this.observing = false;
  }
}

/**
 * Makes the scroll boxes and rows of the virtual lists report `layout`'s heights, and gives jsdom a
 * ResizeObserver (FirstReportResizeObserver), until the returned function is called; every other
 * element keeps jsdom's sizes (0).
 */
export function layOutVirtualLists(layout: VirtualLayout): () => void {
  const savedObserver = window.ResizeObserver;
  window.ResizeObserver = FirstReportResizeObserver as unknown as typeof ResizeObserver;
  const proto = HTMLElement.prototype;
  const saved = ['clientHeight', 'offsetHeight'].map(
    (key) => [key, Object.getOwnPropertyDescriptor(proto, key)] as const,
  );
  const jsdom = (key: string, el: HTMLElement) =>
    (saved.find(([k]) => k === key)?.[1]?.get?.call(el) as number | undefined) ?? 0;
  Object.defineProperty(proto, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.style.overflowY === 'auto' ? layout.viewportHeight : jsdom('clientHeight', this);
    },
  });
  Object.defineProperty(proto, 'offsetHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.hasAttribute('data-index') ? layout.rowHeight : jsdom('offsetHeight', this);
    },
  });
  return () => {
    window.ResizeObserver = savedObserver;
    for (const [key, descriptor] of saved)
      if (descriptor) Object.defineProperty(proto, key, descriptor);
      else delete (proto as unknown as Record<string, unknown>)[key];
  };
}

/** Lays out the virtual lists (see layOutVirtualLists) in each test of the calling file or block. */
export function layOutVirtualListsInEachTest(layout: VirtualLayout): void {
  let restore: (() => void) | undefined;
  beforeEach(() => {
    restore = layOutVirtualLists(layout);
  });
  afterEach(() => restore?.());
}
