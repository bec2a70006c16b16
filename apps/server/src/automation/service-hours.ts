import { TZDate } from '@date-fns/tz';
import { DASHBOARD_TIME_ZONE } from '@zapdesk/shared';
import { addDays, addMilliseconds, addMinutes, addWeeks, format } from 'date-fns';
import type { ScheduleRow } from './attendance-hours.js';

/** Minutes of 'HH:mm'. */
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/**
 * The open window of one weekday's row, as minutes of the local day: from the start minute to the
 * end of the end minute (08:00–18:00 is open until 18:00:59, as `isWithinSchedule` answers). Null
 * when the day is closed (no row, start equal to or after the end).
 */
function windowOf(row: ScheduleRow | undefined): { from: number; to: number } | null {
  if (!row?.startTime || !row.endTime || row.startTime >= row.endTime) return null;
  return { from: minutesOf(row.startTime), to: minutesOf(row.endTime) + 1 };
}

/**
 * The moment `minutes` of service time have passed since `start` (docs/reports.md "Service levels").
 * Without attendance hours (`hours` null) that is wall-clock time; with them only the minutes inside
 * each weekday's window count (local days of `timeZone`, the zone the out-of-hours message uses), so
 * a ticket opened on Friday evening with a 60-minute target is due Monday at 09:00 under 08:00–18:00
 * hours. A week without any open minute falls back to wall-clock time. Whole weeks are skipped at
 * once, so a year-long target costs no more than a week's walk. All arithmetic is date-fns's.
 */
export function addServiceMinutes(
  start: Date,
  minutes: number,
  hours: readonly ScheduleRow[] | null,
  timeZone: string = DASHBOARD_TIME_ZONE,
): Date {
  if (!hours) return addMinutes(start, minutes);
  const windows = new Map<string, { from: number; to: number }>();
  for (const row of hours) {
    const window = windowOf(row);
    if (window) windows.set(row.weekdayEn, window);
  }
  const weekly = [...windows.values()].reduce((sum, w) => sum + (w.to - w.from), 0);
  if (weekly === 0) return addMinutes(start, minutes);
  let remaining = minutes;
  let cursor = new TZDate(start, timeZone);
  const weeks = Math.floor((remaining - 1) / weekly);
  if (weeks > 0) {
    cursor = addWeeks(cursor, weeks);
    remaining -= weeks * weekly;
  }
  let day = new TZDate(cursor.getFullYear(), cursor.getMonth(), cursor.getDate(), timeZone);
  for (;;) {
    const window = windows.get(format(day, 'EEEE').toLowerCase());
    if (window) {
      const opens = new TZDate(day.getFullYear(), day.getMonth(), day.getDate(), 0, window.from, timeZone);
      const closes = new TZDate(day.getFullYear(), day.getMonth(), day.getDate(), 0, window.to, timeZone);
      if (cursor < closes) {
        const from = cursor > opens ? cursor : opens;
        const open = (closes.getTime() - from.getTime()) / 60_000;
        if (remaining <= open) return new Date(addMilliseconds(from, remaining * 60_000).getTime());
        remaining -= open;
      }
    }
    day = addDays(day, 1);
    if (cursor < day) cursor = day;
  }
}
