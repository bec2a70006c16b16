import { DASHBOARD_TIME_ZONE } from '@zapdesk/shared';
import { type SQL, sql } from 'drizzle-orm';

/** The company-local time zone of whole-day filters (pt-BR default), as an SQL literal. */
export const LOCAL_TZ = sql.raw(`'${DASHBOARD_TIME_ZONE}'`);

/** Today's date (yyyy-MM-dd) in DASHBOARD_TIME_ZONE. */
export function localToday(now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: DASHBOARD_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/** Start of the local day `date` (yyyy-MM-dd) as an SQL timestamptz. */
export const dayStart = (date: string): SQL => sql`(${date}::date::timestamp at time zone ${LOCAL_TZ})`;

/** Start of the local day after `date` (yyyy-MM-dd) as an SQL timestamptz. */
export const dayEnd = (date: string): SQL => sql`((${date}::date + 1)::timestamp at time zone ${LOCAL_TZ})`;
