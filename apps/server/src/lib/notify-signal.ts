import type { NotifySubscriber } from './notify-listener.js';

/**
 * A NOTIFY channel used as a wake-up call between nodes (no cache behind it): every payload is
 * handed to the functions added with `on`. Sit it on the node's NotifyListener; send with
 * `select pg_notify(channel, payload)`.
 */
export class NotifySignal implements NotifySubscriber {
  private readonly listeners: ((payload: string) => void)[] = [];

  constructor(readonly channel: string) {}

  /** Calls `fn(payload)` for every NOTIFY on the channel (from any node, this one included). */
  on(fn: (payload: string) => void): void {
    this.listeners.push(fn);
  }

  notify(payload: string): void {
    for (const fn of this.listeners) fn(payload);
  }

  setListening(): void {}

  noteStatement(): void {}
}

/** The NOTIFY channel on which a node announces it gave its session leases back (payload: its node id). */
export const LEASE_RELEASE_CHANNEL = 'zapdesk_lease_release';
