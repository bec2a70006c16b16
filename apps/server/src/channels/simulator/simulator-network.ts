import crypto from 'node:crypto';
import fs from 'node:fs';

/** One message the business sent to a simulated phone. */
export interface OutboxItem {
  id: string;
  to: string;
  kind: string;
  body: string;
  ack: number;
  quotedId: string | null;
  timestamp: number;
}

interface Line {
  /** Ack listener of the connection's driver. */
  onAck: (providerId: string, ack: number) => void;
  outbox: Map<string, OutboxItem[]>;
  /** Per phone number: the business's last presence it saw, and whether the business subscribed to its own. */
  presence: Map<string, { shown: string | null; subscribed: boolean }>;
}

/** What a simulated phone sees of the business's presence (GET /simulator/:whatsappId/presence). */
export interface PhonePresence {
  /** The business's last presence sent to the phone (`composing`, `recording`, `paused`), or null. */
  shown: string | null;
  /** Whether the business asked for the phone's presence. */
  subscribed: boolean;
}

/**
 * The in-process phone network behind the simulator driver: per connection, an outbox per phone
 * number. Delivered messages get ack 2 then 3 after `deliveryDelayMs`; `read(number)` marks them
 * read (ack 4). One network per server process.
 */
export class SimulatorNetwork {
  private readonly lines = new Map<number, Line>();

  /**
   * `deliveryDelayMs`: the delay of each of acks 2 and 3, ms. `journal`: a file each message a phone
   * takes is appended to (one JSON line `{ connectionId, to, id, body }`), written before `deliver`
   * returns, so it survives the process (several processes may share it).
   */
  constructor(
    private readonly deliveryDelayMs = 50,
    private readonly journal?: string,
  ) {}

  /** Registers a connection's line (called by its driver on start). */
  attach(connectionId: number, onAck: Line['onAck']): void {
    const existing = this.lines.get(connectionId);
    this.lines.set(connectionId, {
      onAck,
      outbox: existing?.outbox ?? new Map(),
      presence: existing?.presence ?? new Map(),
    });
  }

  detach(connectionId: number): void {
    const line = this.lines.get(connectionId);
    if (line) line.onAck = () => {};
  }

  /**
   * Delivers a message from the business to `to`; returns the stored outbox item (ack 1). With `id`,
   * the message carries it, and an id `to` already holds from this line returns that item again.
   */
  deliver(
    connectionId: number,
    to: string,
    kind: string,
    body: string,
    quotedId: string | null,
    id?: string,
  ): OutboxItem {
    const line = this.lines.get(connectionId);
    if (!line) throw new Error('simulator line not attached');
    // As a phone does, a message whose id it already holds from this sender is not taken twice.
    const held = id ? line.outbox.get(to)?.find((existing) => existing.id === id) : undefined;
    if (held) return held;
    const item: OutboxItem = {
      id: id ?? `SIM${crypto.randomBytes(10).toString('hex').toUpperCase()}`,
      to,
      kind,
      body,
      ack: 1,
      quotedId,
      timestamp: Date.now(),
    };
    if (this.journal)
      fs.appendFileSync(this.journal, `${JSON.stringify({ connectionId, to, id: item.id, body })}\n`);
    const list = line.outbox.get(to) ?? [];
    list.push(item);
    line.outbox.set(to, list.slice(-500));
    const step = (ack: number) => {
      if (item.ack >= ack) return;
      item.ack = ack;
      line.onAck(item.id, ack);
    };
    setTimeout(() => {
      step(2);
      setTimeout(() => step(3), this.deliveryDelayMs);
    }, this.deliveryDelayMs);
    return item;
  }

  /** What the business sent to `number` on a connection, oldest first. */
  outbox(connectionId: number, number: string): OutboxItem[] {
    return [...(this.lines.get(connectionId)?.outbox.get(number) ?? [])];
  }

  /** The phone `number` reads everything it received: ack 4. Returns how many changed. */
  read(connectionId: number, number: string): number {
    const line = this.lines.get(connectionId);
    let changed = 0;
    for (const item of line?.outbox.get(number) ?? []) {
      if (item.ack < 4) {
        item.ack = 4;
        changed++;
        line!.onAck(item.id, 4);
      }
    }
    return changed;
  }

  /** Records what the phone `number` is shown of the business (a presence, or its subscription). */
  notePresence(connectionId: number, number: string, change: Partial<PhonePresence>): void {
    const line = this.lines.get(connectionId);
    if (!line) throw new Error('simulator line not attached');
    const now = line.presence.get(number) ?? { shown: null, subscribed: false };
    line.presence.set(number, { ...now, ...change });
  }

  /** What the phone `number` sees of the business's presence. */
  presence(connectionId: number, number: string): PhonePresence {
    return { ...(this.lines.get(connectionId)?.presence.get(number) ?? { shown: null, subscribed: false }) };
  }

  /** Removes a message for everyone. */
  remove(connectionId: number, number: string, providerId: string): boolean {
    const list = this.lines.get(connectionId)?.outbox.get(number);
    const index = list?.findIndex((i) => i.id === providerId) ?? -1;
    if (!list || index < 0) return false;
    list.splice(index, 1);
    return true;
  }
}
