import { Paper, Table, TableBody, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { LIST_LOAD_THRESHOLD_PX } from '@zapdesk/shared';
import { forwardRef, type HTMLAttributes, type ReactNode, useMemo } from 'react';
import { type TableComponents, TableVirtuoso } from 'react-virtuoso';
import { loadNextPage, type PagedList } from '../../lib/load-more-on-scroll';
import { type DataColumn, HeadCells } from './data-table';

export interface InfiniteTableProps<T> {
  /** The infinite query: its next page loads when the end of the table nears. */
  list: PagedList & { isSuccess: boolean };
  /** The records of all the pages loaded. */
  data: T[];
  /** The table's data-testid. */
  testId: string;
  /** The row's data-testid, if any; pass a stable (module-level) function. */
  rowTestId?: (item: T) => string;
  /** The header's columns; a `false` entry is a column the viewer does not see. */
  columns: ReadonlyArray<DataColumn | false>;
  /** The cells of one record. */
  row: (item: T) => ReactNode;
  /** The text (and its data-testid) under the table once the list has loaded empty. */
  empty: { text: string; testId: string };
}

function tableComponents<T>(rowTestId?: (item: T) => string): TableComponents<T> {
  return {
    Scroller: forwardRef<HTMLDivElement, HTMLAttributes<HTMLDivElement>>((props, ref) => (
      <TableContainer {...props} ref={ref} />
    )),
    Table: (props) => <Table {...props} size="small" stickyHeader sx={{ tableLayout: 'fixed' }} />,
    TableHead: forwardRef<HTMLTableSectionElement>((props, ref) => <TableHead {...props} ref={ref} />),
    TableRow: ({ item, ...props }) => (
      <TableRow hover {...props} {...(rowTestId ? { 'data-testid': rowTestId(item) } : {})} />
    ),
    TableBody: forwardRef<HTMLTableSectionElement>((props, ref) => <TableBody {...props} ref={ref} />),
  };
}

/**
 * A virtualised, infinitely scrolling table (users, contacts) in an outlined paper with a sticky
 * header row, and the empty text under it once the list has loaded without records.
 */
export function InfiniteTable<T>({
  list,
  data,
  testId,
  rowTestId,
  columns,
  row,
  empty,
}: InfiniteTableProps<T>) {
  const components = useMemo(() => tableComponents(rowTestId), [rowTestId]);
  return (
    <>
      <Paper variant="outlined" sx={{ flex: 1, minHeight: 300 }}>
        <TableVirtuoso
          data={data}
          components={components}
          endReached={() => loadNextPage(list)}
          increaseViewportBy={{ top: 0, bottom: LIST_LOAD_THRESHOLD_PX }}
          data-testid={testId}
          fixedHeaderContent={() => (
            <TableRow sx={{ bgcolor: 'background.paper' }}>
              <HeadCells columns={columns} />
            </TableRow>
          )}
          itemContent={(_index, item) => row(item)}
        />
      </Paper>
      {list.isSuccess && data.length === 0 && (
        <Typography color="text.secondary" data-testid={empty.testId}>
          {empty.text}
        </Typography>
      )}
    </>
  );
}
