/** The query hooks every record page repeats: a searched, paged list and one record by id. */
import { type QueryKey, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, type RequestOptions } from './api';

/** A page of a paged list: the next page is asked for while `hasMore`. */
interface Paged {
  hasMore: boolean;
}

/**
 * GET `path` as an infinite list: `query(pageNumber)` gives each page's query string (pageNumber
 * from 1), the next page is asked for while the last one `hasMore`. `options`: `enabled`,
 * `staleTime` (ms) and the query's `meta` (e.g. `{ silent: true }`, no error toast).
 */
export function usePagedList<P extends Paged>(
  queryKey: QueryKey,
  path: string,
  query: (pageNumber: number) => RequestOptions['query'],
  options: { enabled?: boolean; meta?: Record<string, unknown>; staleTime?: number } = {},
) {
  return useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam, signal }) => api.get<P>(path, query(pageParam), signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    ...options,
  });
}

/**
 * GET `path?searchParam=&pageNumber=` as an infinite list under `queryKey` (see usePagedList): the
 * list pages' search box's text, `search`, is sent as is.
 */
export function useSearchedList<P extends Paged>(queryKey: QueryKey, path: string, search: string) {
  return usePagedList<P>(queryKey, path, (pageNumber) => ({ searchParam: search, pageNumber }));
}

/** GET `${path}/${id}` under `queryKey`, only while `id` is a number (a record to edit). */
export function useRecordQuery<T>(queryKey: QueryKey, path: string, id: number | null | undefined) {
  return useQuery({
    queryKey,
    queryFn: ({ signal }) => api.get<T>(`${path}/${id}`, undefined, signal),
    enabled: typeof id === 'number',
  });
}

/**
 * Saves a record of the REST resource `path`: PUT `${path}/${id}` when `id` is a number (an edit),
 * POST `path` otherwise (an addition). Resolves to the server's record; rejects with the ApiError.
 */
export function saveRecord<T>(path: string, id: number | null | undefined, body: unknown): Promise<T> {
  return typeof id === 'number' ? api.put<T>(`${path}/${id}`, body) : api.post<T>(path, body);
}
