import { Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow } from '@mui/material';
import type { SxProps, Theme } from '@mui/material/styles';
import type { ReactNode, UIEventHandler } from 'react';
import { loadMoreOnScroll, type PagedList } from '../../lib/load-more-on-scroll';

/** One header cell: its text (none for an unlabelled column), width in px and alignment. */
export interface DataColumn {
  label?: ReactNode;
  width?: number;
  align?: 'center' | 'right';
}

export interface DataTableProps {
  /** The table's data-testid. */
  testId: string;
  /** The header's columns; a `false` entry is a column the viewer does not see. */
  columns: ReadonlyArray<DataColumn | false>;
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
export function DataTable({ testId, columns, children, paper = true, pages, ...rest }: DataTableProps) {
  const stickyHeader = rest.stickyHeader ?? Boolean(pages);
  const sx = rest.sx ?? (pages ? { flex: 1 } : undefined);
  const onScroll = rest.onScroll ?? (pages ? loadMoreOnScroll(pages) : undefined);
  const table = (
    <Table size="small" stickyHeader={stickyHeader} data-testid={testId}>
      <TableHead>
        <TableRow>
          <HeadCells columns={columns} />
        </TableRow>
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

/** The header cells of `columns`, in order, leaving out the `false` ones. */
export function HeadCells({ columns }: { columns: ReadonlyArray<DataColumn | false> }) {
  return columns.map(
    (column, index) =>
      column && (
        // biome-ignore lint/suspicious/noArrayIndexKey: a page's columns are fixed
        <TableCell key={index} width={column.width} align={column.align}>
          {column.label}
        </TableCell>
      ),
  );
}
