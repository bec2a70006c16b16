/**
 * What the simulator form needs only to check what it sends: zod with ZSimulatorInboundBody.
 * simulator-page.tsx fetches this module right after its first render, so the page shows before
 * this code arrives (docs/web.md, "Web delivery").
 */
import { type SimulatorInboundBody, V, ZSimulatorInboundBody } from '@zapdesk/shared';
import type { z } from 'zod';

const KNOWN_MESSAGES = new Set<string>(Object.values(V));

/** The digits of a valid phone number for the simulator, or null. */
export function validNumber(from: string): string | null {
  const parsed = ZSimulatorInboundBody.shape.from.safeParse(from);
  return parsed.success ? parsed.data : null;
}

/**
 * Checks a customer message against ZSimulatorInboundBody: the parsed body, or the validation key
 * (`validation.<key>`) of the first problem, the number's first.
 */
export function checkInbound(
  values: SimulatorInboundBody,
): { ok: true; body: z.output<typeof ZSimulatorInboundBody> } | { ok: false; key: string } {
  const parsed = ZSimulatorInboundBody.safeParse(values);
  if (parsed.success) return { ok: true, body: parsed.data };
  const issue = parsed.error.issues.find((i) => i.path[0] === 'from') ?? parsed.error.issues[0];
  return { ok: false, key: issue && KNOWN_MESSAGES.has(issue.message) ? issue.message : 'invalid' };
}
