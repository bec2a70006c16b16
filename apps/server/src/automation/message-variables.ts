import { TZDate } from '@date-fns/tz';
import { DASHBOARD_TIME_ZONE } from '@zapdesk/shared';
import { format } from 'date-fns';

/** What the variables of an automatic message are filled from. */
export interface VariableContext {
  contactName: string;
  ticketId: number;
  /** When the ticket was created (the protocol number's date). */
  ticketCreatedAt: Date;
  /** The moment the message is written; defaults to now. */
  now?: Date;
  /** IANA time zone of the company; defaults to America/Sao_Paulo. */
  timeZone?: string;
}

/** The placeholders automatic messages accept (core section 9 "Message variables"). */
export const MESSAGE_VARIABLES = ['firstName', 'name', 'ms', 'protocol', 'date', 'hour'] as const;

/** 'Bom dia' from 06:00, 'Boa tarde' from 12:00, 'Boa noite' from 18:00, 'Boa madrugada' before 06:00. */
export function greetingFor(hour: number): string {
  if (hour < 6) return 'Boa madrugada';
  if (hour < 12) return 'Bom dia';
  if (hour < 18) return 'Boa tarde';
  return 'Boa noite';
}

/**
 * The protocol number of a ticket: its creation day (yyyyMMdd, company time) followed by the ticket
 * id padded to six digits — unique per ticket and readable over the phone.
 */
export function protocolOf(ticketId: number, createdAt: Date, timeZone = DASHBOARD_TIME_ZONE): string {
  return `${localDate(createdAt, timeZone)}${String(ticketId).padStart(6, '0')}`;
}

/** One Intl formatter per time zone (yyyy-MM-dd in 'en-CA'): lists format 40 protocols per page. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();
/**
 * Days already formatted, per time zone, by quarter hour since the epoch: UTC offsets are whole
 * quarter hours and change on quarter hours (every zone since the early 20th century), so all the
 * instants of one quarter hour fall on the same local day. Cleared when it grows past DAY_CACHE_MAX.
 */
const dayCache = new Map<string, Map<number, string>>();
const QUARTER_HOUR_MS = 15 * 60 * 1000;
const DAY_CACHE_MAX = 20_000;

/** The calendar day of `at` in `timeZone` as yyyyMMdd. */
function localDate(at: Date, timeZone: string): string {
  const quarter = Math.floor(at.getTime() / QUARTER_HOUR_MS);
  let days = dayCache.get(timeZone);
  const known = days?.get(quarter);
  if (known !== undefined) return known;
  let f = dayFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, f);
  }
  const day = f.format(at).replaceAll('-', '');
  if (!days || days.size >= DAY_CACHE_MAX) {
    days = new Map();
    dayCache.set(timeZone, days);
  }
  if (!Number.isNaN(quarter)) days.set(quarter, day);
  return day;
}

/**
 * Fills the message variables (core section 9) in an automatic message: {{firstName}} (the contact's
 * first name), {{name}} (full name), {{ms}} (greeting by time of day), {{protocol}}, {{date}}
 * (dd/MM/yyyy) and {{hour}} (HH:mm:ss), in the company's time zone. Unknown placeholders stay as
 * they are.
 */
export function fillVariables(text: string, context: VariableContext): string {
  if (!text.includes('{{')) return text;
  const timeZone = context.timeZone ?? DASHBOARD_TIME_ZONE;
  const now = new TZDate(context.now ?? new Date(), timeZone);
  const name = context.contactName.trim();
  const values: Record<(typeof MESSAGE_VARIABLES)[number], string> = {
    firstName: name.split(/\s+/)[0] ?? '',
    name,
    ms: greetingFor(now.getHours()),
    protocol: protocolOf(context.ticketId, context.ticketCreatedAt, timeZone),
    date: format(now, 'dd/MM/yyyy'),
    hour: format(now, 'HH:mm:ss'),
  };
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, key: string) =>
    key in values ? values[key as keyof typeof values] : match,
  );
}
