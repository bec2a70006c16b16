/** Scrolling in jsdom, which lays nothing out: a box's sizes are set by hand. */
import { fireEvent } from '@testing-library/react';

/** Gives `el` a scroll height and a client height (px), as a laid-out scroll box would have. */
export function setBoxHeights(el: HTMLElement, scrollHeight: number, clientHeight: number): void {
  Object.defineProperty(el, 'scrollHeight', { configurable: true, value: scrollHeight });
  Object.defineProperty(el, 'clientHeight', { configurable: true, value: clientHeight });
}

/** Scrolls `el` to `scrollTop` (px) and fires its scroll event. */
export function scrollBoxTo(el: HTMLElement, scrollTop: number): void {
  el.scrollTop = scrollTop;
  fireEvent.scroll(el);
}

/**
 * Makes every element report `scrollHeight` x `clientHeight` (px) until the returned function is
 * called: a box is then tall enough not to load more by itself before it is scrolled.
 */
export function stubAllBoxHeights(scrollHeight: number, clientHeight: number): () => void {
  const proto = HTMLElement.prototype;
  const saved = ['scrollHeight', 'clientHeight'].map(
    (key) => [key, Object.getOwnPropertyDescriptor(proto, key)] as const,
  );
  Object.defineProperty(proto, 'scrollHeight', { configurable: true, get: () => scrollHeight });
  Object.defineProperty(proto, 'clientHeight', { configurable: true, get: () => clientHeight });
  return () => {
    for (const [key, descriptor] of saved)
      if (descriptor) Object.defineProperty(proto, key, descriptor);
      else delete (proto as unknown as Record<string, unknown>)[key];
  };
}
