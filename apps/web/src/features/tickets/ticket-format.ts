/** Display rules of the ticket list item (core section 2 "Ticket list item"). */
import { isSameDay, isValid, lightFormat, parseISO } from 'date-fns';

/** Contact names are cut to this many characters on narrow screens (under 600 px). */
export const NARROW_NAME_LENGTH = 10;

/** The default queue tag colour (no queue). */
export const NO_QUEUE_COLOR = '#7C7C7C';

/** `HH:mm` when `updatedAt` is today, else `dd/MM/yyyy`; '' for a missing or invalid date. */
export function formatTicketTime(
  updatedAt: string | Date | null | undefined,
  now: Date = new Date(),
): string {
  if (!updatedAt) return '';
  const date = typeof updatedAt === 'string' ? parseISO(updatedAt) : updatedAt;
  if (!isValid(date)) return '';
  return isSameDay(date, now) ? lightFormat(date, 'HH:mm') : lightFormat(date, 'dd/MM/yyyy');
}

/** The contact name as the list shows it: cut to 10 characters on narrow screens. */
export function displayName(name: string, narrow: boolean): string {
  return narrow ? name.slice(0, NARROW_NAME_LENGTH) : name;
}
