import type { DatabaseHandle } from '../db/client.js';

/**
 * What sits on a node's NotifyListener: a per-node cache that database triggers invalidate by
 * NOTIFY on its channel, and that this node's own writes make distrust itself at once.
 */
export interface NotifySubscriber {
  /** The NOTIFY channel it listens on. */
  readonly channel: string;
  /** A payload NOTIFY sent on `channel` (after the notifying transaction's commit). */
  notify(payload: string): void;
  /**
   * The LISTEN connection is up (true) or lost or stopped (false). Notifications may have been
   * missed either way: the subscriber forgets everything, and caches nothing while it is false.
   */
  setListening(listening: boolean): void;
  /** A statement this node is about to send through the app's connections (its SQL text). */
  noteStatement(text: string): void;
}

/**
 * The node's one LISTEN connection, shared by every per-node cache: one `database.listen` on all the
 * subscribers' channels, one statement observer, one stop. `add` the subscribers, then `start`.
 */
export class NotifyListener {
  private readonly subscribers: NotifySubscriber[] = [];
  private started = false;
  private stopListening?: () => Promise<void>;
  private stopObserving?: () => void;

  /** Adds a subscriber; before `start` only (throws after, as its channel would not be listened to). */
  add(subscriber: NotifySubscriber): this {
    if (this.started) throw new Error('NotifyListener.add after start');
    this.subscribers.push(subscriber);
    return this;
  }

  /** Starts listening on `database` (resolves once the first LISTEN is done or failed). */
  async start(database: DatabaseHandle): Promise<void> {
    this.started = true;
    const channels = [...new Set(this.subscribers.map((each) => each.channel))];
    this.stopObserving = database.onStatement((text) => {
      for (const each of this.subscribers) each.noteStatement(text);
    });
    this.stopListening = await database.listen(
      channels,
      (payload, channel) => {
        for (const each of this.subscribers) {
          // With one channel every payload is its own.
          if (channels.length === 1 || each.channel === channel) each.notify(payload);
        }
      },
      (listening) => {
        for (const each of this.subscribers) each.setListening(listening);
      },
    );
  }

  /** Stops listening; every subscriber is told it is no longer listening. */
  async stop(): Promise<void> {
    this.stopObserving?.();
    this.stopObserving = undefined;
    const stop = this.stopListening;
    this.stopListening = undefined;
    await stop?.();
    for (const each of this.subscribers) each.setListening(false);
  }
}
