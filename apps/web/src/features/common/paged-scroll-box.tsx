import { Box, CircularProgress } from '@mui/material';
import type { SxProps, Theme } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { type PagedList, useLoadMoreOnScroll } from '../../lib/load-more-on-scroll';

/**
 * The scrolling box of a popover's paged list: loads the next page of `paging` near its bottom (see
 * useLoadMoreOnScroll; `rows` is how many rows are shown) and shows a small spinner under `children`
 * while that page is fetched.
 */
export function PagedScrollBox({
  paging,
  rows,
  sx,
  testId,
  children,
}: {
  paging: PagedList;
  rows: number;
  sx: SxProps<Theme>;
  /** The box's data-testid. */
  testId: string;
  children: ReactNode;
}) {
  const scroll = useLoadMoreOnScroll<HTMLDivElement>(paging, rows);
  return (
    <Box ref={scroll.ref} onScroll={scroll.onScroll} sx={sx} data-testid={testId}>
      {children}
      {paging.isFetchingNextPage && (
        <Box sx={{ display: 'grid', placeItems: 'center', p: 1 }}>
          <CircularProgress size={20} />
        </Box>
      )}
    </Box>
  );
}
