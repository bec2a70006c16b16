import { TZDate } from '@date-fns/tz';
import { DASHBOARD_TIME_ZONE } from '@zapdesk/shared';
import { format } from 'date-fns';

/** One weekday's attendance hours (HH:mm, company time); equal start and end mean closed all day. */
export interface ScheduleRow {
  weekdayEn: string;
  startTime: string;
  endTime: string;
}

/**
 * Whether `at` falls inside the attendance hours (document 2: company or queue schedules). A weekday
 * without a row, or with start equal to end, is closed; both the start and the end minute are inside
 * (08:00–18:00 answers until 18:00:59, 00:00–23:59 is the whole day).
 */
export function isWithinSchedule(
  schedules: readonly ScheduleRow[],
  at: Date = new Date(),
  timeZone: string = DASHBOARD_TIME_ZONE,
): boolean {
  const local = new TZDate(at, timeZone);
  const weekday = format(local, 'EEEE').toLowerCase();
  const row = schedules.find((s) => s.weekdayEn === weekday);
  if (!row?.startTime || !row.endTime || row.startTime === row.endTime) return false;
  const time = format(local, 'HH:mm');
  return time >= row.startTime && time <= row.endTime;
}
