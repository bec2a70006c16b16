import type { Message } from '@zapdesk/shared';
import type { AppContext } from '../context.js';
import { findMessagesWithAudience } from '../db/message-repository.js';

/** How many messages' last emitted ack a node remembers (the oldest are forgotten first). */
const EMITTED_ACKS_KEPT = 10_000;
/** Per app: message id → the highest ack this node has emitted for it. */
const emittedAcks = new WeakMap<AppContext, Map<number, number>>();

/**
 * Whether an update snapshot of a message may go out: delivery acks only move forward in the
 * database (`greatest`), so a snapshot with a lower ack (not a failure) than one already emitted was
 * read before that one's change and is stale. Two emitters (the delivery recording ack 1, the phone's ack 2 arriving) can
 * otherwise finish in the other order. Records the ack of a snapshot that goes out.
 */
function isFresh(ctx: AppContext, message: Message): boolean {
  let acks = emittedAcks.get(ctx);
  if (!acks) {
    acks = new Map();
    emittedAcks.set(ctx, acks);
  }
  const last = acks.get(message.id);
  // A failure (-1) always goes out: the Cloud API can report one after it accepted the message.
  if (last !== undefined && message.ack >= 0 && message.ack < last) return false;
  acks.delete(message.id);
  acks.set(message.id, message.ack);
  if (acks.size > EMITTED_ACKS_KEPT) acks.delete(acks.keys().next().value!);
  return true;
}

/**
 * Emits `appMessage` update for changed messages to the rooms of their tickets (one query for any
 * number of messages: each with its ticket's audience), leaving out a snapshot older than one
 * already emitted (`isFresh`). Returns the messages in the API shape.
 */
export async function emitMessageUpdates(
  ctx: AppContext,
  companyId: number,
  ids: number[],
): Promise<Message[]> {
  if (ids.length === 0) return [];
  const changed = await findMessagesWithAudience(ctx.db, companyId, ids);
  for (const { message, ticket } of changed) {
    if (isFresh(ctx, message)) ctx.realtime.toTicket(ticket, 'appMessage', { action: 'update', message });
  }
  return changed.map(({ message }) => message);
}
