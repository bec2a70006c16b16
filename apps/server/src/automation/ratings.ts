import { RATING_COMMENT_MAX } from '@zapdesk/shared';
import { and, eq } from 'drizzle-orm';
import type { OutboundSender } from '../channels/outbound-sender.js';
import type { AppContext } from '../context.js';
import { contacts, settings, tickets, userRatings, whatsapps } from '../db/schema/index.js';
import { fillVariables } from './message-variables.js';

/** The rating scale (core section 9): 1 unsatisfied, 2 satisfied, 3 very satisfied. */
export const RATING_OPTIONS = '*1* - Insatisfeito\n*2* - Satisfeito\n*3* - Muito satisfeito';

/** Asked when the connection has no rating message of its own. */
export const DEFAULT_RATING_MESSAGE = 'Por favor, avalie o nosso atendimento:';

/**
 * A customer's answer to the rating question: the digit 1, 2 or 3 alone, or followed by a separator
 * (blank, `-`, `.`, `,`, `:`, `;`, `)`, `!`) and a comment ("1 demorou muito", "1 - demorou").
 * Answers the rate and the comment (trimmed, at most RATING_COMMENT_MAX characters; null when
 * empty), or null when the text is no answer ("12", "1demorou", "obrigado").
 */
export function parseRatingAnswer(body: string): { rate: number; comment: string | null } | null {
  const match = /^([1-3])(?:$|[\s\-.,:;)!]+([\s\S]*)$)/.exec(body.trim());
  if (!match) return null;
  const comment = (match[2] ?? '').trim().slice(0, RATING_COMMENT_MAX).trim();
  return { rate: Number(match[1]), comment: comment || null };
}

/** Whether a customer's text answers the rating question (see parseRatingAnswer). */
export function isRatingAnswer(body: string): boolean {
  return parseRatingAnswer(body) !== null;
}

interface ClosedTicket {
  id: number;
  companyId: number;
  whatsappId: number | null;
  userId: number | null;
  isGroup: boolean;
  createdAt: Date;
}

async function connectionTexts(ctx: AppContext, ticket: ClosedTicket) {
  if (!ticket.whatsappId) return undefined;
  const [row] = await ctx.db
    .select({
      complationMessage: whatsapps.complationMessage,
      ratingMessage: whatsapps.ratingMessage,
      contactName: contacts.name,
    })
    .from(tickets)
    .innerJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId))
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(and(eq(tickets.companyId, ticket.companyId), eq(tickets.id, ticket.id)));
  return row;
}

function fill(text: string, ticket: ClosedTicket, contactName: string): string {
  return fillVariables(text, { contactName, ticketId: ticket.id, ticketCreatedAt: ticket.createdAt });
}

/**
 * What a ticket says when it closes (document 2, connections): with `userRating` enabled and an
 * attendant on the ticket, the rating question (the connection's rating message or a default, with
 * the 1..3 scale) and the ticket waits for the answer; otherwise the connection's completion message,
 * when it has one. Groups get nothing. Delivery failures stay on the message (ack -1), not thrown.
 */
export async function sendClosingMessages(
  ctx: AppContext,
  sender: OutboundSender,
  companyId: number,
  ticketId: number,
): Promise<void> {
  const [ticket] = await ctx.db
    .select({
      id: tickets.id,
      companyId: tickets.companyId,
      whatsappId: tickets.whatsappId,
      userId: tickets.userId,
      isGroup: tickets.isGroup,
      createdAt: tickets.createdAt,
    })
    .from(tickets)
    .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId)));
  if (!ticket || ticket.isGroup) return;
  const texts = await connectionTexts(ctx, ticket);
  if (!texts) return;
  const [rating] = await ctx.db
    .select({ value: settings.value })
    .from(settings)
    .where(and(eq(settings.companyId, companyId), eq(settings.key, 'userRating')));
  if (rating?.value === 'enabled' && ticket.userId) {
    await ctx.db
      .update(tickets)
      .set({ awaitingRating: true })
      .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId)));
    const question = texts.ratingMessage.trim() || DEFAULT_RATING_MESSAGE;
    await sender.sendAutomatic(
      companyId,
      ticketId,
      `${fill(question, ticket, texts.contactName)}\n\n${RATING_OPTIONS}`,
    );
    return;
  }
  if (texts.complationMessage.trim()) {
    await sender.sendAutomatic(companyId, ticketId, fill(texts.complationMessage, ticket, texts.contactName));
  }
}

/**
 * Stores the customer's answer to the rating question in user_ratings (for the ticket's attendant),
 * with the text after the digit as its comment (decision 0125), stops waiting and sends the
 * connection's completion message. Only the first answer counts.
 * @returns whether an answer was stored.
 */
export async function answerRating(
  ctx: AppContext,
  sender: OutboundSender,
  ticket: ClosedTicket,
  body: string,
): Promise<boolean> {
  const answer = parseRatingAnswer(body);
  if (!answer) return false;
  const stored = await ctx.db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(tickets)
      .set({ awaitingRating: false })
      .where(
        and(
          eq(tickets.companyId, ticket.companyId),
          eq(tickets.id, ticket.id),
          eq(tickets.awaitingRating, true),
        ),
      )
      .returning({ id: tickets.id });
    if (!claimed) return false;
    await tx.insert(userRatings).values({
      companyId: ticket.companyId,
      ticketId: ticket.id,
      userId: ticket.userId,
      rate: answer.rate,
      comment: answer.comment,
    });
    return true;
  });
  if (!stored) return false;
  const texts = await connectionTexts(ctx, ticket);
  if (texts?.complationMessage.trim()) {
    await sender.sendAutomatic(
      ticket.companyId,
      ticket.id,
      fill(texts.complationMessage, ticket, texts.contactName),
    );
  }
  return true;
}
