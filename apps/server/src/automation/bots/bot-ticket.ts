import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { messages, tickets } from '../../db/schema/index.js';
import type { ChatTurn } from './openai-runner.js';

/** A ticket row with its contact's name: what the queue chatbot, the bots and the flow engine read. */
export type TicketWithContactName = typeof tickets.$inferSelect & { contactName: string };

/** The ticket a bot works on, as far as these helpers read it. */
interface TicketKey {
  id: number;
  companyId: number;
}

/**
 * The condition of a bot's write on a ticket: this ticket of its company, still pending and
 * without a user (a human who accepted meanwhile wins).
 */
export function whileBotMayAnswer(ticket: TicketKey): SQL | undefined {
  return and(
    eq(tickets.companyId, ticket.companyId),
    eq(tickets.id, ticket.id),
    eq(tickets.status, 'pending'),
    sql`${tickets.userId} is null`,
  );
}

/** The ticket's last `limit` texts (no reactions, no empty bodies), oldest first, as chat turns. */
export async function chatHistory(db: Tx, ticket: TicketKey, limit: number): Promise<ChatTurn[]> {
  const rows = await db
    .select({ body: messages.body, fromMe: messages.fromMe })
    .from(messages)
    .where(
      and(
        eq(messages.companyId, ticket.companyId),
        eq(messages.ticketId, ticket.id),
        sql`${messages.body} <> ''`,
        sql`${messages.reactionToId} is null`,
      ),
    )
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(limit);
  return rows.reverse().map((row) => ({ role: row.fromMe ? 'assistant' : 'user', content: row.body }));
}
