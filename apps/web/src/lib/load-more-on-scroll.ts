import { LIST_LOAD_THRESHOLD_PX } from '@zapdesk/shared';
import { type UIEvent, useEffect, useRef, useState } from 'react';

/** The part of an infinite query a scroll handler needs. */
export interface PagedList {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

/** Fetches the next page of `list` when there is one and none is being fetched already. */
export function loadNextPage(list: PagedList) {
  if (list.hasNextPage && !list.isFetchingNextPage) void list.fetchNextPage();
}

/**
 * A scroll handler that loads the next page when the element is scrolled within
 * LIST_LOAD_THRESHOLD_PX (100 px, core section 9) of its bottom while more pages exist.
 */
export function loadMoreOnScroll(list: PagedList) {
  return (event: UIEvent<HTMLElement>) => {
    const el = event.currentTarget;
    const nearBottom = el.scrollHeight - el.scrollTop - el.clientHeight < LIST_LOAD_THRESHOLD_PX;
    if (nearBottom) loadNextPage(list);
  };
}

/**
 * Loads the next page of a virtual list's `list` when `remainingPx` (px from the bottom of the scroll
 * box's viewport to the end of the rows) is under LIST_LOAD_THRESHOLD_PX (100 px) while more pages
 * exist: a list shorter than its box loads until it fills it. Asked once per `rows` (the loaded rows,
 * a new array after each page or change), so a failed page is not asked again until the rows change.
 */
export function useLoadMoreNearEnd(list: PagedList, rows: readonly unknown[], remainingPx: number): void {
  const askedFor = useRef<readonly unknown[] | null>(null);
  const nearEnd = remainingPx < LIST_LOAD_THRESHOLD_PX;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  useEffect(() => {
    if (!nearEnd || !hasNextPage || isFetchingNextPage || askedFor.current === rows) return;
    askedFor.current = rows;
    void fetchNextPage();
  }, [nearEnd, rows, hasNextPage, isFetchingNextPage, fetchNextPage]);
}

/**
 * The scroll box of a popover's paged list: `onScroll` loads the next page within 100 px of the
 * bottom (see loadMoreOnScroll), and after each render a box whose rows do not reach that far
 * (nothing to scroll yet) loads the next page too, so a short first page never stops the list.
 */
export function useLoadMoreOnScroll<E extends HTMLElement>(list: PagedList, rows: number) {
  // A state, not a ref object: a popover's portal mounts the box after the list's first effects.
  const [box, setBox] = useState<E | null>(null);
  const latest = useRef(list);
  latest.current = list;
  // biome-ignore lint/correctness/useExhaustiveDependencies: checked again whenever the box, the rows or the paging state change
  useEffect(() => {
    if (box && box.scrollHeight - box.clientHeight < LIST_LOAD_THRESHOLD_PX) loadNextPage(latest.current);
  }, [box, rows, list.hasNextPage, list.isFetchingNextPage]);
  return { ref: setBox, onScroll: loadMoreOnScroll(list) };
}
