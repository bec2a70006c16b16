import { LIST_LOAD_THRESHOLD_PX } from '@zapdesk/shared';
import type { UIEvent } from 'react';

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
