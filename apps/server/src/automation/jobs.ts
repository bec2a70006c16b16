/** Job names and payloads of the automation. */
import type { InboundBotJob } from '../context.js';

/** The job the inbound pipeline queues for a customer message on a ticket the bot may answer. */
export const QUEUE_BOT_JOB = 'queue-bot';

/** The payload of QUEUE_BOT_JOB, as the inbound pipeline queues it. */
export type QueueBotJob = InboundBotJob;

/**
 * A bot's remaining bubbles (Typebot), queued as a delayed QUEUE_BOT_JOB of the same ticket so that
 * they keep their order with the customer's next messages: the first is sent, the rest queued again
 * `delayMs` later (typebotDelayMessage).
 */
export interface BotBubblesJob {
  companyId: number;
  ticketId: number;
  bubbles: string[];
  delayMs: number;
}

/** The order key of a queue-bot job: one ticket's jobs run one at a time, oldest first. */
export function queueBotKey(job: QueueBotJob | BotBubblesJob): string {
  return `ticket:${job.ticketId}`;
}

/** The every-minute job of the connection timers (expiresTicket, timeToTransfer). */
export const CONNECTION_TIMERS_JOB = 'connection-timers';
