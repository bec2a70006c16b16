import { Paper, Table, TableBody, TableContainer, TableHead, TableRow } from '@mui/material';
import type { SxProps, Theme } from '@mui/material/styles';
import type { ReactNode, UIEventHandler } from 'react';

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
}

/** A small table with one header row, in an outlined paper: tags, queues, connections. */
export function DataTable({
  testId,
  head,
  children,
  paper = true,
  stickyHeader,
  onScroll,
  sx,
}: DataTableProps) {
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
