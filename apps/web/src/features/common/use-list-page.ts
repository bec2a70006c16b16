import type { InfiniteData } from '@tanstack/react-query';
import { SEARCH_DEBOUNCE_MS } from '@zapdesk/shared';
import { type ReactNode, useMemo, useState } from 'react';
import { useDebouncedValue } from '../../lib/use-debounced-value';

/**
 * A list page's search box: the typed text, its setter, and the search to ask the server for (the
 * text trimmed, or as `normalize` makes it, once typing has paused SEARCH_DEBOUNCE_MS ms).
 */
export function useSearchParam(normalize: (text: string) => string = (text) => text.trim()) {
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(normalize(search), SEARCH_DEBOUNCE_MS);
  return [search, setSearch, searchParam] as const;
}

/**
 * `useSearchParam` with the box's props ready for ListPageHeader's `search`: `{ param, box }`,
 * `param` being the debounced search to ask the server for.
 */
export function useSearchBox(label: string, testId: string, normalize?: (text: string) => string) {
  const [value, onChange, param] = useSearchParam(normalize);
  return { param, box: { value, onChange, label, testId } };
}

/** The rows of every loaded page of an infinite list: each page's `key` array, in order. */
export function usePageRows<P, K extends keyof P>(list: { data?: InfiniteData<P> }, key: K) {
  return useMemo(() => list.data?.pages.flatMap((page) => page[key]) ?? [], [list.data, key]) as P[K] extends
    | readonly (infer R)[]
    | undefined
    ? R[]
    : never;
}

/**
 * The add/edit dialog of a list page: `target` (what the dialog edits; null while it is closed),
 * `open(target)`, `close()`, and `add`, ListPage's add button (`label`, `testId`) that opens the
 * dialog on `blank` (a new record).
 */
export function useEditTarget<M>(blank: M, add: { label: string; testId: string; icon?: ReactNode }) {
  const [target, setTarget] = useState<M | null>(null);
  return {
    target,
    open: setTarget as (target: M) => void,
    close: () => setTarget(null),
    add: { ...add, onClick: () => setTarget(blank) },
  };
}
