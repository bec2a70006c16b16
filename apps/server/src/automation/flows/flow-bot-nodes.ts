import type { FlowGraph, TypedFlowNode } from '@zapdesk/shared';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { companies, plans } from '../../db/schema/index.js';
import { outboundPolicy } from '../../lib/outbound-url.js';
import { decryptSecret } from '../../lib/secrets.js';
import { BotServiceError } from '../bots/bot-error.js';
import { chatHistory } from '../bots/bot-ticket.js';
import { askModel } from '../bots/openai-runner.js';
import { matchChoice, type TypebotTurn, typebotContinue, typebotStart } from '../bots/typebot-runner.js';
import { menuOf } from '../queue-bot.js';
import { nextAfter, type Outcome, type RunRow, type TicketRow, textRow } from './flow-steps.js';
import { normalizeText } from './flow-text.js';

/**
 * Flow nodes answered by outside services: OpenAI and Typebot. Each computes the
 * step's outcome outside any transaction; the engine stores it only if the run is still where it
 * was (FlowEngine `commitTurn`).
 */

/**
 * An OpenAI node's turn: the model answers the conversation (the ticket's last `maxMessages`
 * texts) outside any transaction; the caller stores the answer with the run's step, which stays on the
 * node until the model hands over (`#ATENDENTE#`): the flow then continues from the node's
 * output, or ends in the node's queue. A failing or unreadable assistant ends the run with a note.
 */
export async function openAiOutcome(
  ctx: AppContext,
  ticket: TicketRow,
  seen: RunRow,
  graph: FlowGraph,
  node: Extract<TypedFlowNode, { type: 'openai' }>,
): Promise<Outcome> {
  const settings = node.data.typebotIntegration;
  let outcome: Outcome;
  try {
    if (!(await planAllowsAi(ctx, ticket.companyId)))
      throw new BotServiceError('openai', 'plan without useOpenAi');
    let apiKey: string;
    try {
      apiKey = decryptSecret(settings.apiKey, ctx.secrets.sessionKey);
    } catch {
      throw new BotServiceError('openai', 'API key unreadable');
    }
    const answer = await askModel(
      {
        prompt: settings.prompt,
        model: settings.model ?? 'gpt-4o-mini',
        maxTokens: settings.maxTokens,
        temperature: Math.min(settings.temperature, 1),
        apiKey,
        baseURL: ctx.config.OPENAI_BASE_URL,
        timeoutMs: ctx.config.BOT_TIMEOUT_MS,
      },
      await chatHistory(ctx.db, ticket, settings.maxMessages),
    );
    const said = answer.text.trim() ? [textRow(answer.text, ticket, seen)] : [];
    if (answer.handover) {
      const next = nextAfter(graph, node, 'a');
      const queue = next.nodeId === null && settings.queueId !== null ? { queueId: settings.queueId } : {};
      outcome = { ...next, send: said, ...queue };
    } else {
      outcome = { nodeId: node.id, contentIndex: 0, status: 'waitingInput', send: said };
    }
  } catch (error) {
    outcome = handedToHuman(ctx, ticket, error, 'O assistente');
  }
  return outcome;
}

/**
 * A Typebot node's turn: starts the bot's chat (when the run reaches the node; the run's variables
 * are prefilled) or sends it the customer's answer (a choice by number or text), outside any
 * transaction. The bubbles are sent, a choice input as a numbered menu; the run stays on the node
 * while the bot waits and continues from the node's output when the bot's flow ends or the
 * customer says the finish keyword. A failing bot ends the run with a note.
 */
export async function typebotOutcome(
  ctx: AppContext,
  ticket: TicketRow,
  seen: RunRow,
  graph: FlowGraph,
  node: Extract<TypedFlowNode, { type: 'typebot' }>,
  body?: string,
): Promise<Outcome> {
  const settings = node.data.typebotIntegration;
  const target = {
    url: settings.urlN8N,
    slug: settings.typebotSlug,
    timeoutMs: ctx.config.BOT_TIMEOUT_MS,
    policy: outboundPolicy(ctx),
  };
  let outcome: Outcome;
  try {
    if (
      body !== undefined &&
      settings.typebotKeywordFinish &&
      normalizeText(body) === normalizeText(settings.typebotKeywordFinish)
    ) {
      outcome = { ...nextAfter(graph, node, 'a'), send: [] };
    } else {
      let turn: TypebotTurn;
      if (body === undefined) turn = await typebotStart(target, { variables: seen.variables });
      else {
        if (!seen.botState) throw new BotServiceError('typebot', 'no session');
        const text = matchChoice(seen.botState.choices, body) ?? body;
        turn = await typebotContinue(target, seen.botState.sessionId, text);
      }
      const send = turn.bubbles.map((bubble) => textRow(bubble, ticket, seen));
      if (turn.choices.length)
        send.push(
          textRow(menuOf(turn.choices.map((title, i) => ({ number: String(i + 1), title }))), ticket, seen),
        );
      outcome = turn.waiting
        ? {
            nodeId: node.id,
            contentIndex: 0,
            status: 'waitingInput',
            send,
            botState: { sessionId: turn.sessionId, choices: turn.choices },
          }
        : { ...nextAfter(graph, node, 'a'), send };
    }
  } catch (error) {
    outcome = handedToHuman(ctx, ticket, error, 'O Typebot');
  }
  return outcome;
}

/**
 * The outcome of a bot node whose service failed (`error`, rethrown unless a BotServiceError): the
 * run ends, the ticket waits for a human, and a note names `who` ("O Typebot", "O assistente").
 */
function handedToHuman(ctx: AppContext, ticket: TicketRow, error: unknown, who: string): Outcome {
  if (!(error instanceof BotServiceError)) throw error;
  ctx.log.warn({ err: error, ticketId: ticket.id }, 'flow Typebot node failed; ticket handed to a human');
  return {
    nodeId: null,
    contentIndex: 0,
    status: 'ended',
    send: [],
    note: `${who} do fluxo falhou (${error.service}: ${error.reason}). O ticket aguarda um atendente.`,
  };
}

async function planAllowsAi(ctx: AppContext, companyId: number): Promise<boolean> {
  const [row] = await ctx.db
    .select({ useOpenAi: plans.useOpenAi })
    .from(companies)
    .innerJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, companyId));
  return row?.useOpenAi === true;
}
