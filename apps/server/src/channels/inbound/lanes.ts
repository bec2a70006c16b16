/**
 * The batch lanes of the inbound pipeline: a message waits in the lane of its chat (a chat always
 * uses the same lane, so its messages keep their order) and each lane runs one batch at a time —
 * the messages that arrived during the previous batch, or within `windowMs` of the first one when
 * the lane was idle.
 */
import { runBatch } from './group-commit.js';
import { chatKey } from './message-shape.js';
import type { InboundParts, Pending } from './types.js';

/** One lane: the messages waiting for its next batch, whether a batch runs, the window's timer. */
export interface Lane {
  pending: Pending[];
  busy: boolean;
  timer?: NodeJS.Timeout;
}

/** `count` idle lanes (at least one). */
export function createLanes(count: number): Lane[] {
  return Array.from({ length: Math.max(1, count) }, () => ({
    pending: [],
    busy: false,
  }));
}

/**
 * Puts a message in the lane of its chat and starts that lane's batch when due: at once when the
 * lane holds `maxBatch` messages, else after the window. `item` is settled by its batch.
 */
export function enqueue(p: InboundParts, lanes: Lane[], item: Pending): void {
  const key = chatKey(item.connection, item.message);
  let hash = 0;
  for (let i = 0; i < key.length; i++) hash = (hash * 31 + key.charCodeAt(i)) | 0;
  const lane = lanes[Math.abs(hash) % lanes.length]!;
  lane.pending.push(item);
  if (lane.pending.length >= p.batching.maxBatch && lane.timer) clearTimeout(lane.timer);
  schedule(p, lane, lane.pending.length >= p.batching.maxBatch);
}

/** Starts the lane's next batch: at once with `now`, else after the window (unless one runs). */
function schedule(p: InboundParts, lane: Lane, now: boolean): void {
  if (lane.busy || lane.pending.length === 0) return;
  if (now) {
    lane.timer = undefined;
    void flush(p, lane);
  } else if (!lane.timer) {
    lane.timer = setTimeout(() => {
      lane.timer = undefined;
      void flush(p, lane);
    }, p.batching.windowMs);
  }
}

/** Runs the lane's next batch (its first `maxBatch` messages), then schedules what arrived meanwhile. */
async function flush(p: InboundParts, lane: Lane): Promise<void> {
  lane.busy = true;
  const batch = lane.pending.splice(0, p.batching.maxBatch);
  p.stats.batches++;
  p.stats.messages += batch.length;
  p.stats.largest = Math.max(p.stats.largest, batch.length);
  batch.forEach((item, seq) => {
    item.seq = seq;
  });
  try {
    await runBatch(p, batch);
  } catch (error) {
    // runBatch settles every message itself; this only guards against a bug leaving one waiting.
    for (const item of batch) item.reject(error);
  } finally {
    lane.busy = false;
    // What arrived meanwhile has waited long enough.
    schedule(p, lane, true);
  }
}
