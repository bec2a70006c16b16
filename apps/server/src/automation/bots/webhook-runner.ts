import crypto from 'node:crypto';
import type { OutboundPolicy } from '../../lib/outbound-url.js';
import { BotServiceError, postJson } from './bot-error.js';

/** Header carrying `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export const SIGNATURE_HEADER = 'x-zapdesk-signature';

/** The signature header value for `body` sent at `timestamp` (unix seconds) with `secret`. */
export function signBody(secret: string, body: string, timestamp: number): string {
  const mac = crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/** What an n8n or webhook endpoint answered: replies to send and whether to hand over to a human. */
export interface WebhookAnswer {
  replies: string[];
  handover: boolean;
}

/** Reads the answer: `{ replies: [text | {body}] }`, `{ reply }`, `{ text }`, an array of those, `{ handover: true }`. */
export function parseWebhookAnswer(answer: unknown): WebhookAnswer {
  const items = Array.isArray(answer) ? answer : [answer];
  const replies: string[] = [];
  let handover = false;
  const take = (value: unknown) => {
    if (typeof value === 'string' && value.trim()) replies.push(value);
    else if (value && typeof value === 'object') {
      const v = value as Record<string, unknown>;
      for (const key of ['body', 'text', 'message']) if (typeof v[key] === 'string') take(v[key]);
    }
  };
  for (const item of items) {
    if (!item || typeof item !== 'object') continue;
    const o = item as Record<string, unknown>;
    if (Array.isArray(o.replies)) o.replies.forEach(take);
    for (const key of ['reply', 'text', 'message', 'body']) take(o[key]);
    if (o.handover === true) handover = true;
  }
  return { replies: replies.slice(0, 20), handover };
}

/**
 * POSTs the event (message, contact, ticket) as JSON to an n8n or webhook URL, signed with
 * HMAC-SHA256 (SIGNATURE_HEADER) under the integration's secret, and reads the replies it answers.
 * The URL is company input: `target.policy` is the outbound-URL policy (`timeoutMs` in ms).
 * @throws BotServiceError on a refused URL (as 'unreachable'), network errors, timeouts, non-2xx answers and non-JSON bodies.
 */
export async function postToWebhook(
  target: {
    url: string;
    secret: string;
    timeoutMs: number;
    service: 'n8n' | 'webhook';
    policy: OutboundPolicy;
  },
  payload: unknown,
): Promise<WebhookAnswer> {
  const raw = JSON.stringify(payload);
  const signature = signBody(target.secret, raw, Math.floor(Date.now() / 1000));
  const answer = await postJson(target.service, target.url, undefined, {
    timeoutMs: target.timeoutMs,
    policy: target.policy,
    raw,
    headers: { [SIGNATURE_HEADER]: signature },
  });
  if (answer === null) throw new BotServiceError(target.service, 'malformed answer');
  return parseWebhookAnswer(answer);
}
