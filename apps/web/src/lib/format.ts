/**
 * Date formatting (core section 1: day/month/year, pt-BR formats) with date-fns. The patterns are
 * all digits, so they go through `lightFormat` (no locale, no localized tokens: `format` would bring
 * date-fns's default locale and every formatter to every page).
 */
import { differenceInCalendarDays, isValid, lightFormat, parseISO } from 'date-fns';

const toDate = (value: string | Date): Date => (typeof value === 'string' ? parseISO(value) : value);

/** `dd/MM/yyyy`, or '' for a missing or invalid date. */
export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return '';
  const date = toDate(value);
  return isValid(date) ? lightFormat(date, 'dd/MM/yyyy') : '';
}

/** `dd/MM/yyyy HH:mm`, or '' for a missing or invalid date. */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return '';
  const date = toDate(value);
  return isValid(date) ? lightFormat(date, 'dd/MM/yyyy HH:mm') : '';
}

/** Whole calendar days from today to `value` (negative when past). */
export function daysUntil(value: string | Date, now: Date = new Date()): number {
  return differenceInCalendarDays(toDate(value), now);
}

/** `dd/MM/yy HH:mm` (the invoices' due dates, document 3 section 8), or '' for a missing or invalid date. */
export function formatShortDateTime(value: string | Date | null | undefined): string {
  if (!value) return '';
  const date = toDate(value);
  return isValid(date) ? lightFormat(date, 'dd/MM/yy HH:mm') : '';
}

/** `HH:mm` (a message's time in a conversation), or '' for a missing or invalid date. */
export function formatTime(value: string | Date | null | undefined): string {
  if (!value) return '';
  const date = toDate(value);
  return isValid(date) ? lightFormat(date, 'HH:mm') : '';
}
