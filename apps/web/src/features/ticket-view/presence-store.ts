/**
 * The customer's presence per ticket (docs/inbox.md "Presence"): what the `presence` socket events
 * said last, shown in the ticket header and faded PRESENCE_FADE_MS after the last update.
 */
import type { ChannelPayloads, PresenceState } from '@zapdesk/shared';
import { useEffect, useState } from 'react';

/** How long a presence is shown without a new update, ms. */
export const PRESENCE_FADE_MS = 10_000;

const current = new Map<number, { presence: PresenceState; timer: ReturnType<typeof setTimeout> }>();
const listeners = new Set<() => void>();
const tell = () => {
  for (const listener of listeners) listener();
};

/** Applies one `company-{id}-presence` event: shown until `paused` or PRESENCE_FADE_MS of silence. */
export function applyPresenceEvent(payload: ChannelPayloads['presence']): void {
  const before = current.get(payload.ticketId);
  if (before) clearTimeout(before.timer);
  if (payload.presence === 'paused') current.delete(payload.ticketId);
  else {
    const timer = setTimeout(() => {
      current.delete(payload.ticketId);
      tell();
    }, PRESENCE_FADE_MS);
    current.set(payload.ticketId, { presence: payload.presence, timer });
  }
  tell();
}

/** The customer's presence on `ticketId` now ('composing', 'recording'), or null. */
export function usePresence(ticketId: number): PresenceState | null {
  const [, setTick] = useState(0);
  useEffect(() => {
    const listener = () => setTick((n) => n + 1);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }, []);
  return current.get(ticketId)?.presence ?? null;
}
