import { Paper, Table, TableBody, TableContainer, TableHead, TableRow } from '@mui/material';
import type { SxProps, Theme } from '@mui/material/styles';
import type { ReactNode, UIEventHandler } from 'react';
import { loadMoreOnScroll, type PagedList } from '../../lib/load-more-on-scroll';

export interface DataTableProps {
  /** The table's data-testid. */
  testId: string;
  /** The header cells. */
  head: ReactNode;
  /** The body rows. */
  children: ReactNode;
  /** The container is an outlined paper (default); false when the page wraps it in its own. */
  paper?: boolean;
  stickyHeader?: boolean;
  onScroll?: UIEventHandler<HTMLDivElement>;
  sx?: SxProps<Theme>;
  /**
   * The paged list the rows come from: the header then sticks, the table fills the page's height
   * (flex 1) and scrolling near its bottom loads the next page (loadMoreOnScroll).
   */
  pages?: PagedList;
}

/**
 * A small table with one header row, in an outlined paper: tags, queues, connections; with `pages`,
 * the endless table of a list page (campaigns, flows, files, contact lists).
 */
export function DataTable({ testId, head, children, paper = true, pages, ...rest }: DataTableProps) {
  const stickyHeader = rest.stickyHeader ?? Boolean(pages);
  const sx = rest.sx ?? (pages ? { flex: 1 } : undefined);
  const onScroll = rest.onScroll ?? (pages ? loadMoreOnScroll(pages) : undefined);
  const table = (
    <Table size="small" stickyHeader={stickyHeader} data-testid={testId}>
      <TableHead>
        <TableRow>{head}</TableRow>
      </TableHead>
      <TableBody>{children}</TableBody>
    </Table>
  );
  return paper ? (
    <TableContainer component={Paper} variant="outlined" sx={sx} onScroll={onScroll}>
      {table}
    </TableContainer>
  ) : (
    <TableContainer sx={sx} onScroll={onScroll}>
      {table}
    </TableContainer>
  );
}
