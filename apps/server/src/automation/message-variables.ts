import { TZDate } from '@date-fns/tz';
import { DASHBOARD_TIME_ZONE } from '@zapdesk/shared';
import { format } from 'date-fns';
import { protocolOf } from '../db/ticket-repository.js';

export { protocolOf } from '../db/ticket-repository.js';

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
