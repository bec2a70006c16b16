import { and, asc, eq, sql } from 'drizzle-orm';
import type { OutboundSender } from '../../channels/outbound-sender.js';
import type { AppContext } from '../../context.js';
import {
  botSessions,
  companies,
  contacts,
  messages,
  plans,
  prompts,
  queueIntegrations,
  queues,
  ticketNotes,
  tickets,
  whatsapps,
} from '../../db/schema/index.js';
import { findTicket } from '../../db/ticket-repository.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import { outboundPolicy } from '../../lib/outbound-url.js';
import { decryptSecret } from '../../lib/secrets.js';
import { type BotBubblesJob, QUEUE_BOT_JOB, type QueueBotJob } from '../jobs.js';
import { BotServiceError } from './bot-error.js';
import { chatHistory, type TicketWithContactName, whileBotMayAnswer } from './bot-ticket.js';
import { detectIntent } from './dialogflow-runner.js';
import { askModel } from './openai-runner.js';
import {
  matchChoice,
  TypebotSessionGone,
  type TypebotTurn,
  typebotContinue,
  typebotStart,
} from './typebot-runner.js';
import { postToWebhook } from './webhook-runner.js';

/** What the customer reads when a bot hands the conversation to a human. */
export const HANDOVER_TEXT = 'Certo! Vou transferir você para um de nossos atendentes. Aguarde um momento.';
/** What the customer reads when the bot's service fails: a human takes over, never silence. */
export const FALLBACK_TEXT =
  'Nosso assistente virtual está indisponível no momento. Um atendente vai continuar o seu atendimento.';

type TicketRow = typeof tickets.$inferSelect;
type IntegrationRow = typeof queueIntegrations.$inferSelect;

/** Who answers a ticket. */
type Bot = { kind: 'prompt'; id: number } | { kind: 'integration'; id: number };

/**
 * Starts a flow of the flow builder for a ticket (the flowbuilder integration type). Until the flow
 * builder wires one with `BotEngine.setFlowStarter`, the request is recorded on the ticket's bot
 * session and the ticket goes to a human. @returns whether a flow took the ticket.
 */
export type FlowStarter = (input: {
  companyId: number;
  ticketId: number;
  integrationId: number;
  messageId: number;
}) => Promise<boolean>;

/**
 * The flow builder's turn on a customer message: asked first, before any prompt or
 * integration. @returns whether a flow run handled the message.
 */
export type FlowResponder = (input: {
  companyId: number;
  ticketId: number;
  job: QueueBotJob;
  body: string;
  /** The ticket as the caller read it at the start of the job, when it did. */
  ticket?: TicketWithContactName;
}) => Promise<boolean>;

/**
 * The answering engine of AI prompts and queue integrations (document 2 "Prompts" and
 * "Queue integrations"; docs/automation.md "Bots"). The queue chatbot's job calls `answer` for
 * each customer message on a pending ticket without a user, in order per ticket, outside the
 * inbound transaction. A bot *takes* a ticket (useIntegration true with promptId or integrationId)
 * from its connection, or from its queue once it is in one, and answers until it *hands it back*:
 * the customer asks for a human, a keyword ends it, its flow ends, or its service fails (a note
 * and a message say so). Handing back leaves the ticket pending for the queue's agents with the
 * bot off (useIntegration false; promptId/integrationId keep who answered). An agent who accepts
 * the ticket stops the bot (the job only runs on pending tickets without a user).
 */
export class BotEngine {
  #flowStarter: FlowStarter | undefined;
  #flowResponder: FlowResponder | undefined;

  constructor(
    private readonly ctx: AppContext,
    private readonly sender: OutboundSender,
    private readonly jobs?: JobQueue,
  ) {}

  /** The flow builder's hook for the flowbuilder integration type (see FlowStarter). */
  setFlowStarter(starter: FlowStarter): void {
    this.#flowStarter = starter;
  }

  /** The flow engine's turn, asked before any bot (see FlowResponder). */
  setFlowResponder(responder: FlowResponder): void {
    this.#flowResponder = responder;
  }

  /**
   * Lets the ticket's bot answer the customer's message `body`. A bot already holding the ticket
   * answers; otherwise a never-bot-answered ticket is taken by its connection's integration or
   * prompt, else by its queue's, else by a prompt made for its queue (the prompt's `queueId`).
   * `menuChoice` says the message only chose the queue (the bot starts
   * without it). @returns whether a bot handled the message (the queue chatbot then stays quiet).
   */
  async answer(
    ticketId: number,
    job: QueueBotJob,
    body: string,
    /** `known`: the ticket as the caller just read it in this job (not read again; not changed here). */
    options: { menuChoice?: boolean; known?: TicketWithContactName } = {},
  ): Promise<boolean> {
    const { known } = options;
    const fresh = known && known.id === ticketId && known.companyId === job.companyId;
    // A copy: answering may change the ticket it holds (handing back), the caller's stays as read.
    const ticket = fresh ? { ...known } : await this.ticket(job.companyId, ticketId);
    if (!ticket) return false;
    if (ticket.status !== 'pending' || ticket.userId !== null || !ticket.whatsappId) return false;
    if (
      this.#flowResponder &&
      (await this.#flowResponder({
        companyId: job.companyId,
        ticketId,
        job,
        body,
        ticket: fresh ? known : undefined,
      }))
    ) {
      return true;
    }
    const bot = await this.whoAnswers(ticket, job);
    if (!bot) return false;
    // The company's plan must still have the feature (useOpenAi, useIntegrations).
    if (!(await this.planAllows(ticket.companyId, bot))) return false;
    const holds =
      ticket.useIntegration &&
      (bot.kind === 'prompt' ? ticket.promptId === bot.id : ticket.integrationId === bot.id);
    if (!holds && !(await this.take(ticket, bot))) return false;
    try {
      if (bot.kind === 'prompt') await this.runPrompt(ticket, bot.id);
      else await this.runIntegration(ticket, bot.id, job, options.menuChoice ? '' : body);
    } catch (error) {
      if (!(error instanceof BotServiceError)) throw error;
      this.ctx.log.warn({ err: error, ticketId: ticket.id }, 'bot service failed; ticket handed to a human');
      await this.handBack(ticket, {
        text: FALLBACK_TEXT,
        note: `O assistente automático falhou (${error.service}: ${error.reason}). O ticket aguarda um atendente.`,
      });
    }
    return true;
  }

  /** Sends the next delayed Typebot bubble and queues the rest (a QUEUE_BOT_JOB, ordered per ticket). */
  async deliver(job: BotBubblesJob): Promise<void> {
    const ticket = await this.ticket(job.companyId, job.ticketId);
    // The bot lost the ticket meanwhile (an agent accepted, it was handed back): the rest is dropped.
    if (!ticket || !this.botHolds(ticket)) return;
    const [first, ...rest] = job.bubbles;
    if (first) await this.sender.sendAutomatic(ticket.companyId, ticket.id, first);
    await this.queueBubbles(ticket, rest, job.delayMs);
  }

  private async planAllows(companyId: number, bot: Bot): Promise<boolean> {
    const [row] = await this.ctx.db
      .select({ useOpenAi: plans.useOpenAi, useIntegrations: plans.useIntegrations })
      .from(companies)
      .innerJoin(plans, eq(plans.id, companies.planId))
      .where(eq(companies.id, companyId));
    return bot.kind === 'prompt' ? row?.useOpenAi === true : row?.useIntegrations === true;
  }

  private botHolds(ticket: TicketRow): boolean {
    return ticket.status === 'pending' && ticket.userId === null && ticket.useIntegration;
  }

  private async ticket(companyId: number, id: number): Promise<TicketRow | undefined> {
    const [row] = await this.ctx.db
      .select()
      .from(tickets)
      .where(and(eq(tickets.companyId, companyId), eq(tickets.id, id)));
    return row;
  }

  private async whoAnswers(ticket: TicketRow, job: QueueBotJob): Promise<Bot | null> {
    if (ticket.useIntegration) {
      if (ticket.integrationId) return { kind: 'integration', id: ticket.integrationId };
      if (ticket.promptId) return { kind: 'prompt', id: ticket.promptId };
    }
    // A bot that handed the ticket back does not take it again until a new ticket starts.
    const fresh = (ticket.promptId === null && ticket.integrationId === null) || job.ticketCreated;
    if (!fresh) return null;
    const [connection] = await this.ctx.db
      .select({ promptId: whatsapps.promptId, integrationId: whatsapps.integrationId })
      .from(whatsapps)
      .where(and(eq(whatsapps.companyId, ticket.companyId), eq(whatsapps.id, ticket.whatsappId!)));
    if (connection?.integrationId) return { kind: 'integration', id: connection.integrationId };
    if (connection?.promptId) return { kind: 'prompt', id: connection.promptId };
    if (ticket.queueId === null) return null;
    const [queue] = await this.ctx.db
      .select({ promptId: queues.promptId, integrationId: queues.integrationId })
      .from(queues)
      .where(and(eq(queues.companyId, ticket.companyId), eq(queues.id, ticket.queueId)));
    if (queue?.integrationId) return { kind: 'integration', id: queue.integrationId };
    if (queue?.promptId) return { kind: 'prompt', id: queue.promptId };
    if (!queue) return null;
    // Nobody names a bot: a prompt made for this queue (its 'setor') answers there, the oldest first.
    const [own] = await this.ctx.db
      .select({ id: prompts.id })
      .from(prompts)
      .where(and(eq(prompts.companyId, ticket.companyId), eq(prompts.queueId, ticket.queueId)))
      .orderBy(asc(prompts.id))
      .limit(1);
    return own ? { kind: 'prompt', id: own.id } : null;
  }

  /** Marks the ticket as answered by `bot`, only while it is pending without a user. */
  private async take(ticket: TicketRow, bot: Bot): Promise<boolean> {
    const set = {
      useIntegration: true,
      chatbot: false,
      promptId: bot.kind === 'prompt' ? bot.id : null,
      integrationId: bot.kind === 'integration' ? bot.id : null,
    };
    const [changed] = await this.ctx.db
      .update(tickets)
      .set(set)
      .where(whileBotMayAnswer(ticket))
      .returning({ id: tickets.id });
    if (!changed) return false;
    await this.ctx.db.delete(botSessions).where(eq(botSessions.ticketId, ticket.id));
    Object.assign(ticket, set);
    return true;
  }

  /**
   * Hands the ticket to the agents: pending, bot off (useIntegration false), optionally moved to
   * `queueId`, its bot session removed; `text` is said to the customer and `note` left for agents.
   */
  async handBack(
    ticket: TicketRow,
    options: { text?: string; note?: string; queueId?: number | null } = {},
  ): Promise<void> {
    const before = await findTicket(this.ctx.db, ticket.companyId, ticket.id);
    const set: Partial<TicketRow> = { useIntegration: false, chatbot: false };
    if (options.queueId) set.queueId = options.queueId;
    await this.ctx.db.update(tickets).set(set).where(whileBotMayAnswer(ticket));
    Object.assign(ticket, set);
    await this.ctx.db.delete(botSessions).where(eq(botSessions.ticketId, ticket.id));
    if (options.note) {
      await this.ctx.db.insert(ticketNotes).values({
        companyId: ticket.companyId,
        ticketId: ticket.id,
        contactId: ticket.contactId,
        note: options.note,
      });
    }
    if (options.text) await this.sender.sendAutomatic(ticket.companyId, ticket.id, options.text);
    const after = await findTicket(this.ctx.db, ticket.companyId, ticket.id);
    if (before && after) this.ctx.realtime.ticketMoved(before, after, { action: 'update', ticket: after });
  }

  private async say(ticket: TicketRow, texts: string[]): Promise<void> {
    for (const text of texts) {
      if (text.trim()) await this.sender.sendAutomatic(ticket.companyId, ticket.id, text);
    }
  }

  private async runPrompt(ticket: TicketRow, promptId: number): Promise<void> {
    const [prompt] = await this.ctx.db
      .select()
      .from(prompts)
      .where(and(eq(prompts.companyId, ticket.companyId), eq(prompts.id, promptId)));
    if (!prompt) {
      await this.handBack(ticket);
      return;
    }
    let apiKey = '';
    try {
      apiKey = decryptSecret(prompt.apiKey, this.ctx.secrets.sessionKey);
    } catch {
      throw new BotServiceError('openai', 'API key unreadable');
    }
    const answer = await askModel(
      {
        prompt: prompt.prompt,
        model: prompt.model,
        maxTokens: prompt.maxTokens,
        temperature: prompt.temperature,
        apiKey,
        baseURL: this.ctx.config.OPENAI_BASE_URL,
        timeoutMs: this.ctx.config.BOT_TIMEOUT_MS,
      },
      await chatHistory(this.ctx.db, ticket, prompt.maxMessages),
    );
    if (answer.handover) {
      if (answer.text) await this.say(ticket, [answer.text]);
      await this.handBack(ticket, { text: HANDOVER_TEXT, queueId: prompt.queueId });
      return;
    }
    await this.say(ticket, [answer.text]);
  }

  private async runIntegration(ticket: TicketRow, integrationId: number, job: QueueBotJob, body: string) {
    const [integration] = await this.ctx.db
      .select()
      .from(queueIntegrations)
      .where(and(eq(queueIntegrations.companyId, ticket.companyId), eq(queueIntegrations.id, integrationId)));
    if (!integration) {
      await this.handBack(ticket);
      return;
    }
    const timeoutMs = this.ctx.config.BOT_TIMEOUT_MS;
    switch (integration.type) {
      case 'typebot':
        await this.runTypebot(ticket, integration, body);
        return;
      case 'n8n':
      case 'webhook': {
        const payload = await this.webhookPayload(ticket, integration, job.messageId);
        const answer = await postToWebhook(
          {
            url: integration.urlN8N,
            secret: integration.secret,
            timeoutMs,
            service: integration.type,
            policy: outboundPolicy(this.ctx),
          },
          payload,
        );
        await this.say(ticket, answer.replies);
        if (answer.handover) await this.handBack(ticket, { text: HANDOVER_TEXT });
        return;
      }
      case 'dialogflow': {
        if (!body) return;
        let jsonContent = '';
        try {
          jsonContent = decryptSecret(integration.jsonContent, this.ctx.secrets.sessionKey);
        } catch {
          throw new BotServiceError('dialogflow', 'service-account JSON unreadable');
        }
        const answer = await detectIntent(
          {
            jsonContent,
            projectName: integration.projectName,
            language: integration.language,
            baseUrl: this.ctx.config.DIALOGFLOW_BASE_URL,
            timeoutMs,
            policy: outboundPolicy(this.ctx),
          },
          ticket.uuid,
          body,
        );
        await this.say(ticket, answer.texts);
        if (answer.endInteraction) await this.handBack(ticket);
        return;
      }
      case 'flowbuilder': {
        const started = await this.#flowStarter?.({
          companyId: ticket.companyId,
          ticketId: ticket.id,
          integrationId: integration.id,
          messageId: job.messageId,
        });
        if (started) return;
        await this.handBack(ticket, {
          note: `A integração "${integration.name}" iniciaria um fluxo do construtor de fluxos (ainda não disponível). O ticket aguarda um atendente.`,
        });
        return;
      }
    }
  }

  /** The JSON an n8n or webhook integration receives for a customer message. */
  private async webhookPayload(ticket: TicketRow, integration: IntegrationRow, messageId: number) {
    const [row] = await this.ctx.db
      .select({ message: messages, contactName: contacts.name, contactNumber: contacts.number })
      .from(messages)
      .innerJoin(contacts, eq(contacts.id, messages.contactId))
      .where(and(eq(messages.companyId, ticket.companyId), eq(messages.id, messageId)));
    return {
      event: 'message.received',
      integration: { id: integration.id, name: integration.name, type: integration.type },
      message: row
        ? {
            id: row.message.id,
            body: row.message.body,
            mediaType: row.message.mediaType,
            fromMe: row.message.fromMe,
            createdAt: row.message.createdAt.toISOString(),
          }
        : null,
      contact: row ? { id: ticket.contactId, name: row.contactName, number: row.contactNumber } : null,
      ticket: {
        id: ticket.id,
        uuid: ticket.uuid,
        status: ticket.status,
        queueId: ticket.queueId,
        whatsappId: ticket.whatsappId,
      },
    };
  }

  private async runTypebot(ticket: TicketRow, integration: IntegrationRow, body: string): Promise<void> {
    const target = {
      url: integration.urlN8N,
      slug: integration.typebotSlug,
      timeoutMs: this.ctx.config.BOT_TIMEOUT_MS,
      policy: outboundPolicy(this.ctx),
    };
    const text = body.trim();
    const lower = text.toLowerCase();
    if (
      text &&
      integration.typebotKeywordFinish &&
      lower === integration.typebotKeywordFinish.toLowerCase()
    ) {
      await this.handBack(ticket, { text: HANDOVER_TEXT });
      return;
    }
    const [session] = await this.ctx.db.select().from(botSessions).where(eq(botSessions.ticketId, ticket.id));
    const restart =
      !!text &&
      !!integration.typebotKeywordRestart &&
      lower === integration.typebotKeywordRestart.toLowerCase();
    const expired =
      !!session &&
      integration.typebotExpires > 0 &&
      Date.now() - session.lastActivityAt.getTime() > integration.typebotExpires * 60_000;
    const variables = await this.typebotVariables(ticket);

    let turn: TypebotTurn;
    const intro: string[] = [];
    if (!session?.sessionId || restart || expired) {
      // A clean start: the old session is forgotten, never continued (no loop on an expired one).
      if (restart && integration.typebotRestartMessage.trim()) intro.push(integration.typebotRestartMessage);
      turn = await typebotStart(target, { variables });
    } else {
      const choices = Array.isArray(session.state.choices) ? (session.state.choices as string[]) : [];
      let answerText = text;
      if (choices.length) {
        const chosen = matchChoice(choices, text);
        if (!chosen) {
          const unknown = integration.typebotUnknownMessage.trim();
          await this.say(ticket, [unknown || menuText(choices)]);
          await this.touch(ticket, integration, session.sessionId, choices);
          return;
        }
        answerText = chosen;
      }
      try {
        turn = await typebotContinue(target, session.sessionId, answerText || ' ');
      } catch (error) {
        if (!(error instanceof TypebotSessionGone)) throw error;
        turn = await typebotStart(target, { variables });
      }
    }
    const bubbles = [...intro, ...turn.bubbles];
    if (turn.choices.length) bubbles.push(menuText(turn.choices));
    if (!turn.waiting) {
      // The flow ended: its last bubbles go out, then the ticket waits for a human.
      await this.say(ticket, bubbles);
      await this.handBack(ticket);
      return;
    }
    await this.touch(ticket, integration, turn.sessionId, turn.choices);
    const [first, ...rest] = bubbles;
    if (first) await this.sender.sendAutomatic(ticket.companyId, ticket.id, first);
    await this.queueBubbles(ticket, rest, integration.typebotDelayMessage);
  }

  private async typebotVariables(ticket: TicketRow): Promise<Record<string, string>> {
    const [contact] = await this.ctx.db
      .select({ name: contacts.name, number: contacts.number })
      .from(contacts)
      .where(eq(contacts.id, ticket.contactId));
    return { number: contact?.number ?? '', pushName: contact?.name ?? '', ticketId: String(ticket.id) };
  }

  /** Records the open Typebot session and the choices it offered, as of now. */
  private async touch(ticket: TicketRow, integration: IntegrationRow, sessionId: string, choices: string[]) {
    const state = { choices };
    await this.ctx.db
      .insert(botSessions)
      .values({
        ticketId: ticket.id,
        companyId: ticket.companyId,
        integrationId: integration.id,
        sessionId,
        state,
      })
      .onConflictDoUpdate({
        target: botSessions.ticketId,
        set: {
          integrationId: integration.id,
          sessionId,
          state,
          lastActivityAt: sql`now()`,
          updatedAt: sql`now()`,
        },
      });
  }

  /** Queues the remaining bubbles: the next one `delayMs` from now, then the rest after it. */
  private async queueBubbles(ticket: TicketRow, bubbles: string[], delayMs: number): Promise<void> {
    if (!bubbles.length) return;
    if (!this.jobs) {
      await this.say(ticket, bubbles);
      return;
    }
    const job: BotBubblesJob = { companyId: ticket.companyId, ticketId: ticket.id, bubbles, delayMs };
    await this.jobs.send(QUEUE_BOT_JOB, job, { startAfterSeconds: delayMs / 1000 });
  }
}

/** The choices of a Typebot choice input as a numbered menu. */
function menuText(choices: string[]): string {
  return choices.map((c, i) => `*${i + 1}* - ${c}`).join('\n');
}
