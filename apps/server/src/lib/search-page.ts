import { type AnyColumn, ilike, or, type SQL } from 'drizzle-orm';

/** The query of a searchable, paged list (document 2 section 7): `searchParam` and 1-based `pageNumber`. */
export interface SearchPageQuery {
  searchParam: string;
  pageNumber: number;
}

/** `text` with the LIKE wildcards (`\`, `%`, `_`) escaped, so that it matches only itself. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The "contains, ignoring case" filter of a list's search box: any of `columns` holds the trimmed
 * `searchParam`; undefined (no filter) when the term is blank.
 */
export function containsTerm(searchParam: string, ...columns: AnyColumn[]): SQL | undefined {
  const term = searchParam.trim();
  if (!term) return undefined;
  const like = `%${escapeLike(term)}%`;
  return or(...columns.map((column) => ilike(column, like)));
}

/**
 * The rows to read for page `pageNumber` (1-based) of `size` rows: one more than the page, so that
 * `cutPage` can tell whether another page follows.
 */
export function pageWindow(pageNumber: number, size: number): { limit: number; offset: number } {
  return { limit: size + 1, offset: (pageNumber - 1) * size };
}

/** Splits rows read with `pageWindow` into the page itself and whether more rows follow it. */
export function cutPage<T>(rows: T[], size: number): { page: T[]; hasMore: boolean } {
  return { page: rows.slice(0, size), hasMore: rows.length > size };
}

/**
 * Reads page `pageNumber` (1-based) of `size` rows: `read` is given the window (`pageWindow`) to
 * apply to its query, and the rows it answers are cut into the page and whether more follow.
 */
export async function readPage<T>(
  pageNumber: number,
  size: number,
  read: (window: { limit: number; offset: number }) => PromiseLike<T[]>,
): Promise<{ page: T[]; hasMore: boolean }> {
  return cutPage(await read(pageWindow(pageNumber, size)), size);
}
