import { PassThrough } from 'node:stream';
import type { ReportFigures, ReportSummary } from '@zapdesk/shared';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';

/** A cell of an exported table. */
export type Cell = string | number | null;

/** A report as a table: a sheet (or file) name, the column names and the rows. */
export interface ReportTable {
  name: string;
  columns: string[];
  rows: Cell[][];
}

/**
 * A text cell a spreadsheet would read as a formula (`=`, `+`, `-`, `@`, tab, carriage return first)
 * gets a leading apostrophe, so a queue or agent named `=HYPERLINK(...)` stays text.
 */
function inert(value: Cell): Cell {
  return typeof value === 'string' && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** The rows of `records` under `columns` (their keys), in that order. */
export function tableOf<T extends object>(
  name: string,
  columns: (keyof T & string)[],
  records: T[],
): ReportTable {
  return {
    name,
    columns,
    rows: records.map((record) => columns.map((column) => (record[column] ?? null) as Cell)),
  };
}

/**
 * GET /reports/summary as a table: one row per figure, the period's and the previous period's value;
 * then, when `sla` is given, its rows `sla.firstResponse.tracked|met|rate` and `sla.resolution.…`
 * (docs/reports.md "Service levels"), with the current value only: the summary gives the service
 * levels of the period's openings, not of the previous period's.
 */
export function summaryTable(
  current: ReportFigures,
  previous: ReportFigures,
  sla?: ReportSummary['sla'],
): ReportTable {
  const flat = (f: ReportFigures): [string, Cell][] => [
    ['from', f.from],
    ['to', f.to],
    ['opened', f.opened],
    ['created', f.created],
    ['reopened', f.reopened],
    ['resolved', f.resolved],
    ...(['firstResponse', 'resolution', 'wait'] as const).flatMap((key) =>
      (['count', 'avg', 'median', 'p90'] as const).map((stat): [string, Cell] => [
        `${key}.${stat}`,
        f[key][stat],
      ]),
    ),
    ['csat.count', f.csat.count],
    ['csat.average', f.csat.average],
    ...f.csat.distribution.map((d): [string, Cell] => [`csat.rate${d.rate}`, d.count]),
  ];
  const before = new Map(flat(previous));
  const slaRows = sla
    ? (['firstResponse', 'resolution'] as const).flatMap((target) =>
        (['tracked', 'met', 'rate'] as const).map((stat): Cell[] => [
          `sla.${target}.${stat}`,
          sla[target][stat],
          null,
        ]),
      )
    : [];
  return {
    name: 'summary',
    columns: ['figure', 'current', 'previous'],
    rows: [
      ...flat(current).map(([figure, value]) => [figure, value, before.get(figure) ?? null]),
      ...slaRows,
    ],
  };
}

/**
 * Streams `table` as a download: CSV (UTF-8 with a byte order mark, so spreadsheets read accents) or
 * XLSX (exceljs's streaming writer, one sheet), named `<table.name>-<period>.<format>`.
 */
export function sendTable(reply: FastifyReply, table: ReportTable, format: 'csv' | 'xlsx', period: string) {
  const stream = new PassThrough();
  const rows = table.rows.map((row) => row.map(inert));
  const write = async () => {
    if (format === 'xlsx') {
      const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
        stream,
        useStyles: false,
        useSharedStrings: false,
      });
      const sheet = workbook.addWorksheet(table.name);
      sheet.addRow(table.columns).commit();
      for (const row of rows) sheet.addRow(row).commit();
      sheet.commit();
      await workbook.commit();
    } else {
      const workbook = new ExcelJS.Workbook();
      workbook.addWorksheet(table.name).addRows([table.columns, ...rows]);
      stream.write('\ufeff');
      await workbook.csv.write(stream);
      stream.end();
    }
  };
  write().catch((error: unknown) => stream.destroy(error as Error));
  return reply
    .header(
      'content-type',
      format === 'xlsx'
        ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
        : 'text/csv; charset=utf-8',
    )
    .header('content-disposition', `attachment; filename="${table.name}-${period}.${format}"`)
    .send(stream);
}
