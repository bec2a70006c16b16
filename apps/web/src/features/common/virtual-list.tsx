import { type Range, useVirtualizer, type VirtualItem, type Virtualizer } from '@tanstack/react-virtual';
import { type CSSProperties, type Key, type ReactNode, type RefObject, useCallback, useRef } from 'react';
import { type PagedList, useLoadMoreNearEnd } from '../../lib/load-more-on-scroll';

/**
 * The scroll box of a virtual list: fills its parent's height, scrolls vertically and takes the
 * keyboard focus (tab stop) so that a keyboard can scroll it.
 */
export const SCROLLER_STYLE: CSSProperties = {
  height: '100%',
  outline: 'none',
  overflowY: 'auto',
  position: 'relative',
};

/** The layer inside the scroll box that holds the rows, so that they never size the box itself. */
export const VIEWPORT_STYLE: CSSProperties = { height: '100%', position: 'absolute', top: 0, width: '100%' };

/** A rendered row: the browser keeps the scroll position on its own (no scroll anchoring). */
export const ROW_STYLE: CSSProperties = { overflowAnchor: 'none' };

/**
 * The indexes to render for a range of visible rows: the visible ones and `overscan` more below them
 * (none above, so that the first rendered row is the first visible one).
 */
function rowsAndBelow({ startIndex, endIndex, overscan, count }: Range): number[] {
  const last = Math.min(endIndex + overscan, count - 1);
  const indexes: number[] = [];
  for (let index = startIndex; index <= last; index++) indexes.push(index);
  return indexes;
}

export interface VirtualRowsOptions {
  /** How many rows the list has. */
  count: number;
  /** A row's height (px) until it is measured. */
  estimatePx: number;
  /** Rows rendered below the bottom of the scroll box. */
  overscan: number;
  /** A row's stable key (default: its index). */
  rowKey?: (index: number) => Key;
}

export interface VirtualRows<R extends Element> {
  /** The ref of the scroll box. */
  scroller: RefObject<HTMLDivElement | null>;
  /** The rows to render now, in order. */
  rows: VirtualItem[];
  /** The ref every rendered row (with `data-index` = its index) passes, so its height is measured. */
  measure: Virtualizer<HTMLDivElement, R>['measureElement'];
  /** Space (px) standing for the rows above and below the rendered ones. */
  padTop: number;
  padBottom: number;
  /** Distance (px) from the bottom of the scroll box's viewport to the end of the rows. */
  remainingPx: number;
}

/**
 * The rows of a vertically scrolled list to render (@tanstack/react-virtual): rows are measured as
 * they render, so their heights may vary; the rows above the scroll box and those more than
 * `overscan` rows below it stand as `padTop` / `padBottom` px of space.
 */
export function useVirtualRows<R extends Element>({
  count,
  estimatePx,
  overscan,
  rowKey,
}: VirtualRowsOptions): VirtualRows<R> {
  const scroller = useRef<HTMLDivElement | null>(null);
  const virtualizer = useVirtualizer<HTMLDivElement, R>({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: useCallback(() => estimatePx, [estimatePx]),
    overscan,
    rangeExtractor: rowsAndBelow,
    getItemKey: rowKey,
  });
  const rows = virtualizer.getVirtualItems();
  const total = virtualizer.getTotalSize();
  const last = rows[rows.length - 1];
  return {
    scroller,
    rows,
    measure: virtualizer.measureElement,
    padTop: rows[0]?.start ?? 0,
    padBottom: last ? total - last.end : 0,
    remainingPx: total - (virtualizer.scrollOffset ?? 0) - (virtualizer.scrollRect?.height ?? 0),
  };
}

export interface VirtualListProps<T> {
  items: readonly T[];
  /** A row's stable key. */
  itemKey: (item: T) => Key;
  /** A row's height (px) until it is measured. */
  estimatePx: number;
  /** Rows rendered below the bottom of the scroll box (default 1). */
  overscan?: number;
  /** The content of one row. */
  render: (item: T) => ReactNode;
  /** Shown under the rows (e.g. the next page's spinner). */
  footer?: ReactNode;
  /** The infinite query whose next page loads when the end of the rows nears (useLoadMoreNearEnd). */
  pages?: PagedList;
}

/** A list without pages to load. */
const NO_PAGES: PagedList = { hasNextPage: false, isFetchingNextPage: false, fetchNextPage: () => undefined };

/**
 * A virtualised column of rows of any height that fills its parent's height; only the rows in the
 * scroll box (and `overscan` rows below it) are in the page. With `pages`, the next page loads when the
 * end of the rows comes within 100 px of the bottom of the box.
 */
export function VirtualList<T>({
  items,
  itemKey,
  estimatePx,
  overscan = 1,
  render,
  footer,
  pages = NO_PAGES,
}: VirtualListProps<T>) {
  const rowKey = useCallback((index: number) => itemKey(items[index] as T), [items, itemKey]);
  const list = useVirtualRows<HTMLDivElement>({ count: items.length, estimatePx, overscan, rowKey });
  useLoadMoreNearEnd(pages, items, list.remainingPx);
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll box a keyboard can scroll (SCROLLER_STYLE)
    <div ref={list.scroller} tabIndex={0} style={SCROLLER_STYLE}>
      <div style={VIEWPORT_STYLE}>
        <div style={{ boxSizing: 'border-box', paddingTop: list.padTop, paddingBottom: list.padBottom }}>
          {list.rows.map((row) => (
            <div key={row.key} data-index={row.index} ref={list.measure} style={ROW_STYLE}>
              {render(items[row.index] as T)}
            </div>
          ))}
        </div>
        {footer !== undefined && <div>{footer}</div>}
      </div>
    </div>
  );
}
