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

type MessageVariable = (typeof MESSAGE_VARIABLES)[number];

/**
 * The value of one message variable for `context`, or undefined for a name that is not one. Each
 * value is computed when asked and kept, so a text naming only {{firstName}} formats no date (a
 * campaign fills thousands of texts a second).
 */
function variableValues(context: VariableContext): (key: string) => string | undefined {
  const timeZone = context.timeZone ?? DASHBOARD_TIME_ZONE;
  let now: TZDate | undefined;
  const at = () => {
    now ??= new TZDate(context.now ?? new Date(), timeZone);
    return now;
  };
  const name = context.contactName.trim();
  const compute: Record<MessageVariable, () => string> = {
    firstName: () => name.split(/\s+/)[0] ?? '',
    name: () => name,
    ms: () => greetingFor(at().getHours()),
    protocol: () => protocolOf(context.ticketId, context.ticketCreatedAt, timeZone),
    date: () => format(at(), 'dd/MM/yyyy'),
    hour: () => format(at(), 'HH:mm:ss'),
  };
  const known = new Map<string, string>();
  return (key) => {
    if (!Object.hasOwn(compute, key)) return undefined;
    let value = known.get(key);
    if (value === undefined) {
      value = compute[key as MessageVariable]();
      known.set(key, value);
    }
    return value;
  };
}

/**
 * Fills the message variables (core section 9) in an automatic message: {{firstName}} (the contact's
 * first name), {{name}} (full name), {{ms}} (greeting by time of day), {{protocol}}, {{date}}
 * (dd/MM/yyyy) and {{hour}} (HH:mm:ss), in the company's time zone. Unknown placeholders stay as
 * they are.
 */
export function fillVariables(text: string, context: VariableContext): string {
  if (!text.includes('{{')) return text;
  const variable = variableValues(context);
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, key: string) => variable(key) ?? match);
}

/** A placeholder written `{{key}}` or `{key}`; a key is letters, digits, `_` and `-` (as campaign variables). */
const EITHER_PLACEHOLDER = /\{\{\s*([\p{L}\p{N}_-]+)\s*\}\}|\{\s*([\p{L}\p{N}_-]+)\s*\}/gu;

/**
 * Fills a campaign message (document 2 section 7): the message variables of {@link fillVariables}
 * and the company's campaign variables (`variables`, key and value), each written `{{key}}` or
 * `{key}` (the campaign settings page teaches `{key}`). A message variable wins over a campaign
 * variable of the same name; unknown placeholders stay as they are. One pass: a value is never
 * filled in again.
 */
export function fillCampaignText(
  text: string,
  context: VariableContext,
  variables: readonly { key: string; value: string }[],
): string {
  if (!text.includes('{')) return text;
  const variable = variableValues(context);
  const campaign = new Map<string, string>(variables.map((v) => [v.key, v.value]));
  return text.replace(EITHER_PLACEHOLDER, (match, double: string | undefined, single: string | undefined) => {
    const key = (double ?? single) as string;
    return variable(key) ?? campaign.get(key) ?? match;
  });
}
