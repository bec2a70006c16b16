import { Paper, Table, TableBody, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { type PagedList, useLoadMoreNearEnd } from '../../lib/load-more-on-scroll';
import { type DataColumn, HeadCells } from './data-table';
import { ROW_STYLE, SCROLLER_STYLE, useVirtualRows, VIEWPORT_STYLE } from './virtual-list';

/** A row's height (px) until it is measured: a small table row with a 32 px avatar. */
const ROW_ESTIMATE_PX = 45;
/** Rows rendered below the bottom of the box: about 100 px. */
const OVERSCAN_ROWS = 2;
/** The table element's own style: no gaps between cells, no scroll anchoring. */
const TABLE_STYLE = { borderSpacing: 0, overflowAnchor: 'none' } as const;
/** The header row stays at the top of the box while the rows scroll under it. */
const HEAD_STYLE = { position: 'sticky', top: 0, zIndex: 2 } as const;

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

/** An empty body row standing for `px` of rows that are not rendered. */
function SpacerRow({ px }: { px: number }) {
  return px > 0 ? (
    <tr>
      <td style={{ border: 0, height: px, padding: 0 }} />
    </tr>
  ) : null;
}

/**
 * A virtualised, infinitely scrolling table (users, contacts) in an outlined paper with a sticky
 * header row, and the empty text under it once the list has loaded without records. Only the rows in
 * the box (and two below it) are rendered, between two spacer rows standing for the others;
 * the next page loads when the end comes within 100 px of the bottom of the box.
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
  const rows = useVirtualRows<HTMLTableRowElement>({
    count: data.length,
    estimatePx: ROW_ESTIMATE_PX,
    overscan: OVERSCAN_ROWS,
  });
  useLoadMoreNearEnd(list, data, rows.remainingPx);
  return (
    <>
      <Paper variant="outlined" sx={{ flex: 1, minHeight: 300 }}>
        <TableContainer ref={rows.scroller} tabIndex={0} style={SCROLLER_STYLE} data-testid={testId}>
          <div style={VIEWPORT_STYLE}>
            <Table size="small" stickyHeader sx={{ tableLayout: 'fixed' }} style={TABLE_STYLE}>
              <TableHead style={HEAD_STYLE}>
                <TableRow sx={{ bgcolor: 'background.paper' }}>
                  <HeadCells columns={columns} />
                </TableRow>
              </TableHead>
              <TableBody>
                <SpacerRow px={rows.padTop} />
                {rows.rows.map((virtual) => {
                  const item = data[virtual.index] as T;
                  return (
                    <TableRow
                      key={virtual.key}
                      hover
                      data-index={virtual.index}
                      ref={rows.measure}
                      style={ROW_STYLE}
                      {...(rowTestId ? { 'data-testid': rowTestId(item) } : {})}
                    >
                      {row(item)}
                    </TableRow>
                  );
                })}
                <SpacerRow px={rows.padBottom} />
              </TableBody>
            </Table>
          </div>
        </TableContainer>
      </Paper>
      {list.isSuccess && data.length === 0 && (
        <Typography color="text.secondary" data-testid={empty.testId}>
          {empty.text}
        </Typography>
      )}
    </>
  );
}
