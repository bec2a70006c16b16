import {
  DEFAULT_COMPANY_SCHEDULES,
  DEFAULT_QUEUE_SCHEDULES,
  DEFAULT_SETTINGS,
  type SettingKey,
} from '@zapdesk/shared';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { OutboundSender } from '../channels/outbound-sender.js';
import type { AppContext } from '../context.js';
import {
  companies,
  contacts,
  messages,
  queueOptions,
  queues,
  settings,
  tickets,
  whatsappQueues,
  whatsapps,
} from '../db/schema/index.js';
import { findTicket } from '../db/ticket-repository.js';
import type { JobQueue } from '../jobs/job-queue.js';
import { isWithinSchedule } from './attendance-hours.js';
import type { BotEngine } from './bots/bot-engine.js';
import { type TicketWithContactName, whileBotMayAnswer } from './bots/bot-ticket.js';
import { type BotBubblesJob, QUEUE_BOT_JOB, type QueueBotJob, queueBotKey } from './jobs.js';
import { fillVariables } from './message-variables.js';
import { answerRating } from './ratings.js';

type TicketRow = TicketWithContactName;
/** A numbered menu line per entry: '*1* - Suporte'. */
export function menuOf(entries: readonly { number: string; title: string }[]): string {
  return entries.map((e) => `*${e.number}* - ${e.title}`).join('\n');
}

/** Joins the non-empty parts of an automatic message with a blank line. */
function joinParts(...parts: (string | null | undefined)[]): string {
  return parts
    .map((p) => p?.trim())
    .filter(Boolean)
    .join('\n\n');
}

/**
 * The queue chatbot (document 2 Queues and Connections), run from the job queue for
 * each customer message on a pending ticket:
 * - outside attendance hours (company hours when `scheduleType` is company, the queue's when queue)
 *   the out-of-hours message is sent and the bot stops;
 * - a new ticket gets the connection's greeting (document 2 Connections): alone when the connection
 *   has no queue, followed by the queue's greeting when it has one, and with the numbered queue
 *   menu when it has several; the customer's number picks the queue;
 * - a queue with options walks the option tree by number, each option sending its message and the
 *   menu of its children; an option without children ends the bot;
 * - an answer that matches nothing repeats the menu, up to `maxUseBotQueues` tries, after which the
 *   ticket waits for a human;
 * - once a human accepts the ticket (open, with a user) the bot no longer answers.
 * Every text goes through the message variables.
 */
export class QueueBot {
  constructor(
    private readonly ctx: AppContext,
    private readonly sender: OutboundSender,
    /** AI prompts and queue integrations: they answer before the menus when attached. */
    private readonly bots?: BotEngine,
    /** Told after each job which ticket it worked on: automatic assignment takes it when it now waits for a human. */
    private readonly afterJob?: (companyId: number, ticketId: number) => Promise<void>,
  ) {}

  /**
   * Registers the job handler. One ticket's messages are answered one at a time, in the order they
   * arrived (the job key); different tickets are answered in parallel.
   */
  register(jobs: JobQueue): void {
    jobs.define<QueueBotJob | BotBubblesJob>(
      QUEUE_BOT_JOB,
      async (job) => {
        if ('bubbles' in job) await this.bots?.deliver(job);
        else await this.handle(job);
        await this.afterJob?.(job.companyId, job.ticketId);
      },
      { key: queueBotKey },
    );
  }

  /** Handles one customer message (see the class comment). Safe to run twice: it re-reads the state. */
  async handle(job: QueueBotJob): Promise<void> {
    const { db } = this.ctx;
    const [row] = await db
      .select({ ticket: tickets, contactName: contacts.name, body: messages.body, fromMe: messages.fromMe })
      .from(tickets)
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .innerJoin(messages, eq(messages.id, job.messageId))
      .where(and(eq(tickets.companyId, job.companyId), eq(tickets.id, job.ticketId)));
    if (!row || row.fromMe || row.ticket.isGroup) return;
    const ticket: TicketRow = { ...row.ticket, contactName: row.contactName };
    const body = row.body.trim();

    if (ticket.status === 'closed') {
      if (ticket.awaitingRating) await answerRating(this.ctx, this.sender, ticket, body);
      return;
    }
    // A human has the ticket: the bot stays quiet.
    if (ticket.status !== 'pending' || ticket.userId !== null || !ticket.whatsappId) return;
    // A prompt or integration of the connection, or of the ticket's queue, answers instead of the menus.
    // The ticket as just read goes along (not read again by the bots and the flow engine).
    if (this.bots && (await this.bots.answer(ticket.id, job, body, { known: ticket }))) return;

    const [connection] = await db
      .select({
        greetingMessage: whatsapps.greetingMessage,
        outOfHoursMessage: whatsapps.outOfHoursMessage,
        maxUseBotQueues: whatsapps.maxUseBotQueues,
        companySchedules: companies.schedules,
      })
      .from(whatsapps)
      .innerJoin(companies, eq(companies.id, whatsapps.companyId))
      .where(and(eq(whatsapps.companyId, job.companyId), eq(whatsapps.id, ticket.whatsappId)));
    if (!connection) return;
    const options = await this.settings(job.companyId);
    const say = (text: string | null | undefined) => this.say(ticket, text);

    if (options.scheduleType === 'company') {
      const hours = connection.companySchedules ?? DEFAULT_COMPANY_SCHEDULES;
      if (!isWithinSchedule(hours)) {
        if (job.ticketCreated) await say(connection.outOfHoursMessage);
        return;
      }
    }

    const connectionQueues = await db
      .select({
        id: queues.id,
        name: queues.name,
        greetingMessage: queues.greetingMessage,
        outOfHoursMessage: queues.outOfHoursMessage,
        schedules: queues.schedules,
      })
      .from(whatsappQueues)
      .innerJoin(queues, eq(queues.id, whatsappQueues.queueId))
      .where(
        and(eq(whatsappQueues.companyId, job.companyId), eq(whatsappQueues.whatsappId, ticket.whatsappId)),
      )
      .orderBy(sql`${queues.orderQueue} asc nulls last`, asc(queues.name), asc(queues.id));
    const maxTries = Math.max(1, connection.maxUseBotQueues);

    // The connection's greeting reaches every new customer of it: alone here with no queue or one
    // (the queue's own greeting follows), with the queue menu below when there are several.
    if (job.ticketCreated && connectionQueues.length < 2) await say(connection.greetingMessage);

    let queue = connectionQueues.find((q) => q.id === ticket.queueId);
    // A new ticket the pipeline already routed to a connection's only queue starts at that queue.
    let justChosen = !!queue && connectionQueues.length === 1 && job.ticketCreated && !ticket.chatbot;
    if (!queue) {
      if (connectionQueues.length === 0) return;
      if (connectionQueues.length === 1) {
        queue = connectionQueues[0]!;
        await this.update(ticket, { queueId: queue.id, queueOptionId: null, amountUsedBotQueues: 0 });
        justChosen = true;
      } else {
        const queueMenu = joinParts(
          connection.greetingMessage,
          menuOf(connectionQueues.map((q, i) => ({ number: String(i + 1), title: q.name }))),
        );
        if (!ticket.chatbot) {
          // The bot gave up on this ticket (maxUseBotQueues wrong answers): a human takes it from here.
          if (ticket.amountUsedBotQueues >= maxTries) return;
          await this.update(ticket, { chatbot: true, amountUsedBotQueues: 0 });
          await say(queueMenu);
          return;
        }
        const picked = /^\d+$/.test(body) ? connectionQueues[Number(body) - 1] : undefined;
        if (!picked) {
          await this.retry(ticket, maxTries, queueMenu);
          return;
        }
        queue = picked;
        await this.update(ticket, { queueId: queue.id, queueOptionId: null, amountUsedBotQueues: 0 });
        justChosen = true;
      }
    }

    if (options.scheduleType === 'queue' && !isWithinSchedule(queue.schedules ?? DEFAULT_QUEUE_SCHEDULES)) {
      if (justChosen || job.ticketCreated) await say(queue.outOfHoursMessage);
      if (ticket.chatbot) await this.update(ticket, { chatbot: false });
      return;
    }

    const tree = await db
      .select({
        id: queueOptions.id,
        parentId: queueOptions.parentId,
        title: queueOptions.title,
        message: queueOptions.message,
        option: queueOptions.option,
      })
      .from(queueOptions)
      .where(and(eq(queueOptions.companyId, job.companyId), eq(queueOptions.queueId, queue.id)));
    const childrenOf = (parentId: number | null) =>
      tree
        .filter((o) => o.parentId === parentId)
        .sort((a, b) => Number(a.option) - Number(b.option) || a.option.localeCompare(b.option));
    const optionMenu = (parentId: number | null) =>
      menuOf(childrenOf(parentId).map((o) => ({ number: o.option, title: o.title })));

    // The chosen queue has a bot: it starts the conversation instead of the queue's options.
    if (
      justChosen &&
      this.bots &&
      (await this.bots.answer(ticket.id, job, body, { menuChoice: !job.ticketCreated }))
    ) {
      return;
    }
    if (justChosen) {
      const top = childrenOf(null);
      const single = connectionQueues.length === 1;
      // One queue: its greeting only when sendGreetingMessageOneQueues is on (or it has options to offer).
      if (single && !(job.ticketCreated && (options.sendGreetingMessageOneQueues || top.length > 0))) {
        if (ticket.chatbot) await this.update(ticket, { chatbot: false });
        return;
      }
      await this.update(ticket, { chatbot: top.length > 0 });
      await say(joinParts(queue.greetingMessage, top.length ? optionMenu(null) : ''));
      return;
    }

    if (!ticket.chatbot) return;
    const current = ticket.queueOptionId ? tree.find((o) => o.id === ticket.queueOptionId) : undefined;
    const parentId = current?.id ?? null;
    const chosen = childrenOf(parentId).find((o) => o.option === body);
    if (!chosen) {
      const repeat = current
        ? joinParts(current.message, optionMenu(current.id))
        : joinParts(queue.greetingMessage, optionMenu(null));
      await this.retry(ticket, maxTries, repeat);
      return;
    }
    const hasChildren = childrenOf(chosen.id).length > 0;
    await this.update(ticket, { queueOptionId: chosen.id, chatbot: hasChildren, amountUsedBotQueues: 0 });
    await say(joinParts(chosen.message, hasChildren ? optionMenu(chosen.id) : ''));
  }

  /** Counts a wrong answer: repeats `menu`, or after `maxTries` stops the bot so a human takes over. */
  private async retry(ticket: TicketRow, maxTries: number, menu: string): Promise<void> {
    const tries = ticket.amountUsedBotQueues + 1;
    if (tries >= maxTries) {
      await this.update(ticket, { chatbot: false, amountUsedBotQueues: tries });
      return;
    }
    await this.update(ticket, { amountUsedBotQueues: tries });
    await this.say(ticket, menu);
  }

  /**
   * Writes the bot's state on the ticket, only while it is still pending without a user (a human
   * who accepted meanwhile wins), and tells the sockets when the queue changed.
   */
  private async update(
    ticket: TicketRow,
    set: Partial<Pick<TicketRow, 'queueId' | 'queueOptionId' | 'chatbot' | 'amountUsedBotQueues'>>,
  ): Promise<void> {
    const [changed] = await this.ctx.db
      .update(tickets)
      .set(set)
      .where(whileBotMayAnswer(ticket))
      .returning({ id: tickets.id });
    if (!changed) return;
    const before = { ...ticket };
    Object.assign(ticket, set);
    if (set.queueId !== undefined && set.queueId !== before.queueId) {
      const after = await findTicket(this.ctx.db, ticket.companyId, ticket.id);
      if (after) this.ctx.realtime.ticketMoved(before, after, { action: 'update', ticket: after });
    }
  }

  /** Sends an automatic text with its variables filled; empty texts are not sent. */
  private async say(ticket: TicketRow, text: string | null | undefined): Promise<void> {
    if (!text?.trim()) return;
    const body = fillVariables(text, {
      contactName: ticket.contactName,
      ticketId: ticket.id,
      ticketCreatedAt: ticket.createdAt,
    });
    await this.sender.sendAutomatic(ticket.companyId, ticket.id, body);
  }

  private async settings(companyId: number) {
    const rows = await this.ctx.db
      .select({ key: settings.key, value: settings.value })
      .from(settings)
      .where(
        and(
          eq(settings.companyId, companyId),
          inArray(settings.key, ['scheduleType', 'sendGreetingMessageOneQueues']),
        ),
      );
    const value = (key: SettingKey) => rows.find((r) => r.key === key)?.value ?? DEFAULT_SETTINGS[key];
    return {
      scheduleType: value('scheduleType'),
      sendGreetingMessageOneQueues: value('sendGreetingMessageOneQueues') === 'enabled',
    };
  }
}
