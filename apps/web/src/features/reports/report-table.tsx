import {
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TableSortLabel,
  Typography,
} from '@mui/material';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** A column of a report table: its field, header key, how a value shows, and whether it is a number. */
export interface ReportColumn<R> {
  key: keyof R & string;
  /** i18n key of the header. */
  labelKey: string;
  /** The cell's text (the raw value when absent). */
  format?: (value: R[keyof R], row: R) => string;
  numeric?: boolean;
}

type Order = 'asc' | 'desc';

/** Compares two cell values: numbers and strings in order, missing values always last. */
function compareValues(a: unknown, b: unknown, order: Order, locale: string): number {
  const missing = (v: unknown) => v === null || v === undefined;
  if (missing(a) || missing(b)) return missing(a) === missing(b) ? 0 : missing(a) ? 1 : -1;
  const sign = order === 'asc' ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return (a - b) * sign;
  return String(a).localeCompare(String(b), locale) * sign;
}

/**
 * A report table sortable by any column (a header button; `aria-sort` on the sorted one), inside a
 * box that scrolls sideways on narrow screens. `empty` shows one row with the empty-period text.
 */
export function ReportTable<R>({
  rows,
  columns,
  rowKey,
  testId,
  caption,
  empty,
}: {
  rows: R[];
  columns: ReportColumn<R>[];
  rowKey: (row: R) => string;
  testId: string;
  /** The table's accessible name. */
  caption: string;
  empty: boolean;
}) {
  const { t, i18n } = useTranslation();
  const [sort, setSort] = useState<{ key: keyof R & string; order: Order } | null>(null);
  const sorted = useMemo(() => {
    if (!sort) return rows;
    return [...rows].sort((a, b) => compareValues(a[sort.key], b[sort.key], sort.order, i18n.language));
  }, [rows, sort, i18n.language]);
  const onSort = (key: keyof R & string, numeric: boolean) =>
    setSort((current) =>
      current?.key === key
        ? { key, order: current.order === 'asc' ? 'desc' : 'asc' }
        : { key, order: numeric ? 'desc' : 'asc' },
    );
  return (
    <ReportTableRegion caption={caption}>
      <Table size="small" data-testid={testId} aria-label={caption}>
        <TableHead>
          <TableRow>
            {columns.map((column) => {
              const active = sort?.key === column.key;
              return (
                <TableCell
                  key={column.key}
                  align={column.numeric ? 'right' : 'left'}
                  sortDirection={active ? sort.order : false}
                  sx={{ whiteSpace: 'nowrap' }}
                >
                  <TableSortLabel
                    active={active}
                    direction={active ? sort.order : column.numeric ? 'desc' : 'asc'}
                    onClick={() => onSort(column.key, column.numeric === true)}
                    data-testid={`${testId}-sort-${column.key}`}
                  >
                    {t(column.labelKey)}
                  </TableSortLabel>
                </TableCell>
              );
            })}
          </TableRow>
        </TableHead>
        <TableBody>
          {empty ? (
            <TableRow>
              <TableCell colSpan={columns.length}>
                <Typography variant="body2" color="text.secondary">
                  {t('reports.noData')}
                </Typography>
              </TableCell>
            </TableRow>
          ) : (
            sorted.map((row) => (
              <TableRow key={rowKey(row)} data-testid={`${testId}-row-${rowKey(row)}`}>
                {columns.map((column, index) => {
                  const value = row[column.key];
                  const text = column.format ? column.format(value, row) : String(value ?? '–');
                  return (
                    <TableCell
                      key={column.key}
                      component={index === 0 ? 'th' : 'td'}
                      scope={index === 0 ? 'row' : undefined}
                      align={column.numeric ? 'right' : 'left'}
                      sx={{ whiteSpace: 'nowrap' }}
                      data-testid={`${testId}-${rowKey(row)}-${column.key}`}
                    >
                      {text}
                    </TableCell>
                  );
                })}
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
    </ReportTableRegion>
  );
}

/**
 * The scrollable region a report table sits in, named by its caption and focusable, so a keyboard
 * can scroll it sideways on a narrow screen.
 */
export function ReportTableRegion({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    <TableContainer
      role="region"
      aria-label={caption}
      tabIndex={0}
      sx={{ maxWidth: '100%', overflowX: 'auto' }}
    >
      {children}
    </TableContainer>
  );
}
