import { Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { alpha, useTheme } from '@mui/material/styles';
import type { HeatmapReport } from '@zapdesk/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { intlLocale } from './format';
import { ReportTableRegion } from './report-table';

/** Weekdays in the API's order (0 = Sunday) and the hours of a day. */
const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6];
const HOURS = Array.from({ length: 24 }, (_v, hour) => hour);

/** The short name of a weekday (0 = Sunday) in the UI language. */
export function weekdayName(weekday: number, language: string, width: 'short' | 'long' = 'short'): string {
  // 2026-11-22 was a Sunday.
  const day = new Date(Date.UTC(2026, 10, 22 + weekday));
  return new Intl.DateTimeFormat(intlLocale(language), { weekday: width, timeZone: 'UTC' }).format(day);
}

/**
 * Tickets opened per weekday and hour as a table (weekdays in rows, hours in columns): every cell
 * shows its number and a background whose strength follows it, kept light enough (dark mode too)
 * for the number to keep its contrast; each cell is labelled with its weekday and hour.
 */
export function HeatmapTable({ report }: { report: HeatmapReport }) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const counts = useMemo(() => {
    const grid = WEEKDAYS.map(() => HOURS.map(() => 0));
    for (const cell of report.cells) {
      const row = grid[cell.weekday];
      if (row && cell.hour >= 0 && cell.hour < 24) row[cell.hour] = cell.opened;
    }
    return grid;
  }, [report.cells]);
  const max = Math.max(1, ...counts.flat());
  const strongest = theme.palette.mode === 'dark' ? 0.45 : 0.7;
  const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}h`;
  return (
    <ReportTableRegion caption={t('reports.heatmap.caption')}>
      <Table
        size="small"
        padding="none"
        data-testid="report-heatmap"
        aria-label={t('reports.heatmap.caption')}
      >
        <TableHead>
          <TableRow>
            <TableCell component="td" />
            {HOURS.map((hour) => (
              <TableCell key={hour} scope="col" align="center" sx={{ px: 0.5, fontSize: 12 }}>
                {hourLabel(hour)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {WEEKDAYS.map((weekday) => (
            <TableRow key={weekday}>
              <TableCell component="th" scope="row" sx={{ px: 1, whiteSpace: 'nowrap' }}>
                {weekdayName(weekday, i18n.language)}
              </TableCell>
              {HOURS.map((hour) => {
                const value = counts[weekday]?.[hour] ?? 0;
                return (
                  <TableCell
                    key={hour}
                    align="center"
                    title={t('reports.heatmap.cell', {
                      weekday: weekdayName(weekday, i18n.language, 'long'),
                      hour: hourLabel(hour),
                      count: value,
                    })}
                    data-testid={`report-heatmap-${weekday}-${hour}`}
                    sx={{
                      minWidth: 30,
                      height: 30,
                      fontSize: 12,
                      color: 'text.primary',
                      bgcolor:
                        value === 0
                          ? 'transparent'
                          : alpha(theme.palette.primary.main, 0.08 + (strongest - 0.08) * (value / max)),
                    }}
                  >
                    {value}
                  </TableCell>
                );
              })}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </ReportTableRegion>
  );
}
