import {
  connectionHandle,
  type FlowGraph,
  flowContentKind,
  flowSourceHandles,
  type MediaType,
  type TypedFlowNode,
} from '@zapdesk/shared';
import { and, desc, eq, ne, sql } from 'drizzle-orm';
import { previewOf } from '../../channels/inbound-pipeline.js';
import type { OutboundSender } from '../../channels/outbound-sender.js';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import {
  companies,
  contacts,
  flowCampaigns,
  flowRuns,
  flows,
  messages,
  plans,
  queueIntegrations,
  ticketNotes,
  tickets,
} from '../../db/schema/index.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import { decryptSecret } from '../../lib/secrets.js';
import { findTicket } from '../../modules/tickets/ticket-repository.js';
import { BotServiceError } from '../bots/bot-error.js';
import { askModel, type ChatTurn } from '../bots/openai-runner.js';
import type { QueueBotJob } from '../jobs.js';
import { fillVariables } from '../message-variables.js';
import { menuOf } from '../queue-bot.js';
import { fillFlowVariables, normalizeText, saysPhrase } from './flow-text.js';

/** The job executing one step of a flow run (key `flow:{ticketId}`: one ticket's steps in order). */
export const FLOW_STEP_JOB = 'flow-step';

/** What a step job carries: the run and the step number it was queued for. */
export interface FlowStepJob {
  companyId: number;
  ticketId: number;
  runId: number;
  step: number;
}

type RunRow = typeof flowRuns.$inferSelect;
type TicketRow = typeof tickets.$inferSelect & { contactName: string };
interface OutRow {
  body: string;
  mediaType: MediaType;
  mediaUrl: string | null;
  mediaName: string | null;
}
/** Where a run goes after a step: its next position and state, what to send, and side effects. */
interface Outcome {
  nodeId: string | null;
  contentIndex: number;
  status: RunRow['status'];
  waitSec?: number;
  send: OutRow[];
  variables?: Record<string, string>;
  queueId?: number;
  note?: string;
}

const MEDIA: Record<'img' | 'audio' | 'video', MediaType> = { img: 'image', audio: 'audio', video: 'video' };

/**
 * The flow engine (issue 14 item 3; docs/architecture.md "Flows"). A flow run (one row per ticket
 * in flow_runs) is advanced by `flow-step` jobs, one step at a time: each step locks the run, checks
 * the job is for the run's current step, executes one node (or one element of a content node),
 * stores the messages it sends and the run's new position in the same transaction, and queues the
 * next step there too; the messages are delivered after commit (undelivered ones are picked up by
 * the sender's pending delivery after a restart). So a step run twice, or resumed after a crash,
 * sends nothing twice. Interval nodes are delayed jobs; menu and question nodes wait for the
 * customer's answer (`answer`). A ticket taken by an agent ends its run at the next step.
 */
export class FlowEngine {
  constructor(
    private readonly ctx: AppContext,
    private readonly sender: OutboundSender,
    private readonly jobs: JobQueue,
  ) {}

  /** Declares the `flow-step` job. */
  register(): void {
    this.jobs.define<FlowStepJob>(FLOW_STEP_JOB, (job) => this.step(job), {
      key: (job) => `flow:${job.ticketId}`,
    });
  }

  /**
   * Starts flow `flowId` on a ticket from its start node, replacing any earlier run of the ticket.
   * @returns false when the flow is not the company's, is inactive or has no saved graph.
   */
  async start(companyId: number, ticketId: number, flowId: number): Promise<boolean> {
    const [flow] = await this.ctx.db
      .select({ graph: flows.graph, active: flows.active })
      .from(flows)
      .where(and(eq(flows.companyId, companyId), eq(flows.id, flowId)));
    if (!flow?.active || !flow.graph?.nodes.some((node) => node.id === '1')) return false;
    await this.ctx.db.transaction(async (tx) => {
      const fresh = { flowId, nodeId: '1', contentIndex: 0, status: 'running' as const, variables: {} };
      const [run] = await tx
        .insert(flowRuns)
        .values({ companyId, ticketId, ...fresh })
        .onConflictDoUpdate({
          target: flowRuns.ticketId,
          set: {
            ...fresh,
            waitingUntil: null,
            endedAt: null,
            step: sql`${flowRuns.step} + 1`,
            updatedAt: new Date(),
          },
        })
        .returning();
      // The run holds the ticket like a bot: the customer's next messages come to the flow.
      await tx
        .update(tickets)
        .set({ useIntegration: true, chatbot: false })
        .where(
          and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId), eq(tickets.status, 'pending')),
        );
      await this.queue(tx, run!, 0);
    });
    return true;
  }

  /**
   * The flow's turn on a customer message of a pending ticket without a user (called by the bot
   * engine before any other bot). A run waiting for input takes the answer; a run in progress keeps
   * the ticket (the message waits for its turn); a message that creates a ticket ends an older run;
   * without a run, an active flow campaign of the ticket's connection whose phrase the message says
   * starts its flow. @returns whether the flow handled the message.
   */
  async answer(companyId: number, ticketId: number, job: QueueBotJob, body: string): Promise<boolean> {
    const ticket = await this.ticket(companyId, ticketId);
    if (!ticket) return false;
    const [run] = await this.ctx.db
      .select()
      .from(flowRuns)
      .where(and(eq(flowRuns.ticketId, ticket.id), ne(flowRuns.status, 'ended')));
    if (run && job.ticketCreated) await this.end(run.id);
    else if (run) {
      if (run.status === 'waitingInput') await this.takeInput(ticket, run, body);
      return true;
    }
    if (ticket.useIntegration || !ticket.whatsappId) return false;
    const campaigns = await this.ctx.db
      .select({ flowId: flowCampaigns.flowId, phrase: flowCampaigns.phrase })
      .from(flowCampaigns)
      .innerJoin(flows, eq(flows.id, flowCampaigns.flowId))
      .innerJoin(companies, eq(companies.id, flowCampaigns.companyId))
      .innerJoin(plans, eq(plans.id, companies.planId))
      .where(
        and(
          eq(flowCampaigns.whatsappId, ticket.whatsappId),
          eq(flowCampaigns.companyId, ticket.companyId),
          eq(flowCampaigns.status, true),
          eq(flows.active, true),
          // Flow campaigns are a campaign feature of the plan (useCampaigns).
          eq(plans.useCampaigns, true),
        ),
      );
    const hit = campaigns.find((campaign) => saysPhrase(body, campaign.phrase));
    return hit ? this.start(ticket.companyId, ticket.id, hit.flowId) : false;
  }

  /**
   * Starts the flow of a flowbuilder queue integration (document 2 "Queue integration"): the
   * company's active flow named like the integration (its projectName, equal to its name; case and
   * accents ignored). @returns whether a flow started.
   */
  async startForIntegration(companyId: number, ticketId: number, integrationId: number): Promise<boolean> {
    const [integration] = await this.ctx.db
      .select({ projectName: queueIntegrations.projectName, name: queueIntegrations.name })
      .from(queueIntegrations)
      .where(and(eq(queueIntegrations.companyId, companyId), eq(queueIntegrations.id, integrationId)));
    if (!integration) return false;
    const wanted = normalizeText(integration.projectName || integration.name);
    const candidates = await this.ctx.db
      .select({ id: flows.id, name: flows.name })
      .from(flows)
      .where(and(eq(flows.companyId, companyId), eq(flows.active, true)))
      .orderBy(flows.id)
      .limit(500);
    const flow = candidates.find((candidate) => normalizeText(candidate.name) === wanted);
    return flow ? this.start(companyId, ticketId, flow.id) : false;
  }

  /** Ends a run (no further step runs). */
  private async end(runId: number): Promise<void> {
    await this.ctx.db
      .update(flowRuns)
      .set({ status: 'ended', endedAt: new Date(), step: sql`${flowRuns.step} + 1`, updatedAt: new Date() })
      .where(eq(flowRuns.id, runId));
  }

  /** A menu or question node receives the customer's answer (menu: option number or text). */
  private async takeInput(ticket: TicketRow, seen: RunRow, body: string): Promise<void> {
    const seenGraph = await this.graph(this.ctx.db, seen);
    const seenNode = seenGraph?.nodes.find((n) => n.id === seen.nodeId) as TypedFlowNode | undefined;
    if (seenNode?.type === 'openai') {
      await this.aiTurn(ticket, seen, seenGraph!, seenNode);
      return;
    }
    const ids = await this.ctx.db.transaction(async (tx) => {
      const run = await this.lock(tx, seen.id);
      if (!run || run.step !== seen.step || run.status !== 'waitingInput') return [];
      const graph = await this.graph(tx, run);
      const node = graph?.nodes.find((n) => n.id === run.nodeId) as TypedFlowNode | undefined;
      let outcome: Outcome;
      if (node?.type === 'menu') {
        const answer = normalizeText(body);
        const option = node.data.arrayOption.find(
          (o) => String(o.number) === answer || normalizeText(o.value) === answer,
        );
        outcome = option
          ? { ...this.after(graph!, node, `a${option.number}`), send: [] }
          : {
              nodeId: node.id,
              contentIndex: 0,
              status: 'waitingInput',
              send: [this.text(this.menuText(node), ticket, run)],
            };
      } else if (node?.type === 'question') {
        const variables = { ...run.variables, [node.data.typebotIntegration.answerKey]: body.trim() };
        outcome = { ...this.after(graph!, node, 'a'), send: [], variables };
      } else {
        outcome = { nodeId: null, contentIndex: 0, status: 'ended', send: [] };
      }
      return this.apply(tx, ticket, run, outcome);
    });
    await this.sender.deliverStored(ticket.companyId, ticket.id, ids);
  }

  /**
   * An OpenAI node's turn: the model answers the conversation (the ticket's last `maxMessages`
   * texts) outside any transaction; the answer is stored with the run's step, which stays on the
   * node until the model hands over (`#ATENDENTE#`): the flow then continues from the node's
   * output, or ends in the node's queue. A failing or unreadable assistant ends the run with a note.
   */
  private async aiTurn(
    ticket: TicketRow,
    seen: RunRow,
    graph: FlowGraph,
    node: Extract<TypedFlowNode, { type: 'openai' }>,
  ): Promise<void> {
    const settings = node.data.typebotIntegration;
    let outcome: Outcome;
    try {
      if (!(await this.planAllowsAi(ticket.companyId)))
        throw new BotServiceError('openai', 'plan without useOpenAi');
      let apiKey: string;
      try {
        apiKey = decryptSecret(settings.apiKey, this.ctx.secrets.sessionKey);
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
          baseURL: this.ctx.config.OPENAI_BASE_URL,
          timeoutMs: this.ctx.config.BOT_TIMEOUT_MS,
        },
        await this.history(ticket, settings.maxMessages),
      );
      const said = answer.text.trim() ? [this.text(answer.text, ticket, seen)] : [];
      if (answer.handover) {
        const next = this.after(graph, node, 'a');
        const queue = next.nodeId === null && settings.queueId !== null ? { queueId: settings.queueId } : {};
        outcome = { ...next, send: said, ...queue };
      } else {
        outcome = { nodeId: node.id, contentIndex: 0, status: 'waitingInput', send: said };
      }
    } catch (error) {
      if (!(error instanceof BotServiceError)) throw error;
      outcome = {
        nodeId: null,
        contentIndex: 0,
        status: 'ended',
        send: [],
        note: `O assistente do fluxo falhou (${error.service}: ${error.reason}). O ticket aguarda um atendente.`,
      };
    }
    const before = await findTicket(this.ctx.db, ticket.companyId, ticket.id);
    const ids = await this.ctx.db.transaction(async (tx) => {
      const run = await this.lock(tx, seen.id);
      // The run moved on meanwhile (an agent took the ticket, a new run started): the answer is dropped.
      if (!run || run.step !== seen.step || run.status !== 'waitingInput') return [];
      return this.apply(tx, ticket, run, outcome);
    });
    await this.sender.deliverStored(ticket.companyId, ticket.id, ids);
    if (outcome.queueId !== undefined && before) {
      const after = await findTicket(this.ctx.db, before.companyId, before.id);
      if (after) this.ctx.realtime.ticketMoved(before, after, { action: 'update', ticket: after });
    }
  }

  private async planAllowsAi(companyId: number): Promise<boolean> {
    const [row] = await this.ctx.db
      .select({ useOpenAi: plans.useOpenAi })
      .from(companies)
      .innerJoin(plans, eq(plans.id, companies.planId))
      .where(eq(companies.id, companyId));
    return row?.useOpenAi === true;
  }

  /** The ticket's last `limit` texts, oldest first, as chat turns. */
  private async history(ticket: TicketRow, limit: number): Promise<ChatTurn[]> {
    const rows = await this.ctx.db
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

  /** Runs one step of a run (the `flow-step` job). Safe to run twice: it checks the step number. */
  async step(job: FlowStepJob): Promise<void> {
    const ticket = await this.ticket(job.companyId, job.ticketId);
    const before = ticket ? await findTicket(this.ctx.db, ticket.companyId, ticket.id) : undefined;
    let moved = false;
    const ids = await this.ctx.db.transaction(async (tx) => {
      const run = await this.lock(tx, job.runId);
      if (!run || run.companyId !== job.companyId || run.step !== job.step) return [];
      if (run.status === 'ended' || run.status === 'waitingInput') return [];
      // An agent took the ticket (or it closed): the flow stops here.
      if (ticket?.status !== 'pending' || ticket.userId !== null) {
        return this.apply(tx, ticket, run, { nodeId: null, contentIndex: 0, status: 'ended', send: [] });
      }
      const graph = await this.graph(tx, run);
      const node = graph?.nodes.find((n) => n.id === run.nodeId) as TypedFlowNode | undefined;
      const outcome: Outcome = node
        ? this.execute(graph!, node, run, ticket)
        : { nodeId: null, contentIndex: 0, status: 'ended', send: [] };
      moved = outcome.queueId !== undefined;
      return this.apply(tx, ticket, run, outcome);
    });
    if (ticket) await this.sender.deliverStored(ticket.companyId, ticket.id, ids);
    if (moved && before) {
      const after = await findTicket(this.ctx.db, before.companyId, before.id);
      if (after) this.ctx.realtime.ticketMoved(before, after, { action: 'update', ticket: after });
    }
  }

  /** What executing `node` at the run's position does (one node, or one element of a content node). */
  private execute(graph: FlowGraph, node: TypedFlowNode, run: RunRow, ticket: TicketRow): Outcome {
    const next = (handle: string) => this.after(graph, node, handle);
    switch (node.type) {
      case 'start':
        return { ...next('a'), send: [] };
      case 'message':
        return { ...next('a'), send: [this.text(node.data.label, ticket, run)] };
      case 'img':
      case 'audio':
      case 'video':
        return { ...next('a'), send: [this.media(node.type, node.data.url)] };
      case 'interval':
        return { ...next('a'), status: 'waitingUntil', waitSec: node.data.sec, send: [] };
      case 'randomizer':
        return { ...next(Math.random() * 100 < node.data.percent ? 'a' : 'b'), send: [] };
      case 'condition': {
        const value = run.variables[node.data.key] ?? '';
        return { ...next(compare(value, node.data.condition, node.data.value) ? 'a' : 'b'), send: [] };
      }
      case 'menu':
        return {
          nodeId: node.id,
          contentIndex: 0,
          status: 'waitingInput',
          send: [this.text(this.menuText(node), ticket, run)],
        };
      case 'question':
        return {
          nodeId: node.id,
          contentIndex: 0,
          status: 'waitingInput',
          send: [this.text(node.data.typebotIntegration.message, ticket, run)],
        };
      case 'singleBlock': {
        const byNumber = new Map(node.data.elements.map((element) => [element.number, element]));
        const order = node.data.seq.length
          ? node.data.seq
          : node.data.elements.map((element) => element.number);
        const element = byNumber.get(order[run.contentIndex] ?? '');
        if (!element) return { ...next('a'), send: [] };
        const stay = { nodeId: node.id, contentIndex: run.contentIndex + 1, status: 'running' as const };
        const kind = flowContentKind(element);
        if (kind === 'interval')
          return { ...stay, status: 'waitingUntil', waitSec: Number(element.value), send: [] };
        if (kind === 'message') return { ...stay, send: [this.text(element.value, ticket, run)] };
        return { ...stay, send: [this.media(kind, element.value, element.original)] };
      }
      case 'ticket':
        return { nodeId: null, contentIndex: 0, status: 'ended', send: [], queueId: node.data.data.id };
      case 'openai':
        // The assistant answers the customer's next messages (see `aiTurn`).
        return { nodeId: node.id, contentIndex: 0, status: 'waitingInput', send: [] };
      default:
        // Typebot nodes are not run by the engine yet: a human takes over.
        return {
          nodeId: null,
          contentIndex: 0,
          status: 'ended',
          send: [],
          note: `O fluxo chegou a um bloco que ainda não é executado automaticamente (${node.type}). O ticket aguarda um atendente.`,
        };
    }
  }

  /** The node after `node`'s `handle` (the run ends when nothing follows). */
  private after(
    graph: FlowGraph,
    node: TypedFlowNode,
    handle: string,
  ): Pick<Outcome, 'nodeId' | 'contentIndex' | 'status'> {
    const handles = flowSourceHandles(node as never);
    const edge = graph.connections.find(
      (c) => c.source === node.id && connectionHandle(c, handles) === handle,
    );
    return edge
      ? { nodeId: edge.target, contentIndex: 0, status: 'running' }
      : { nodeId: null, contentIndex: 0, status: 'ended' };
  }

  /**
   * Stores the outcome in `tx`: the run's new position and state (step + 1), the messages to send
   * (ack 0), a queue move with the bot off, a note; queues the next step (after `waitSec` when
   * waiting). An outcome with no next node ends the run. @returns the message ids.
   */
  private async apply(
    tx: Tx,
    ticket: TicketRow | undefined,
    run: RunRow,
    outcome: Outcome,
  ): Promise<number[]> {
    // Nothing follows (also after a last interval: there is nothing to wait for).
    const ended = outcome.status === 'ended' || outcome.nodeId === null;
    const now = new Date();
    const waitingUntil = outcome.waitSec && !ended ? new Date(now.getTime() + outcome.waitSec * 1000) : null;
    const [updated] = await tx
      .update(flowRuns)
      .set({
        nodeId: outcome.nodeId ?? run.nodeId,
        contentIndex: outcome.contentIndex,
        status: ended ? 'ended' : outcome.status,
        waitingUntil,
        variables: outcome.variables ?? run.variables,
        step: run.step + 1,
        endedAt: ended ? now : null,
        updatedAt: now,
      })
      .where(eq(flowRuns.id, run.id))
      .returning();
    if (!ticket) return [];
    let ids: number[] = [];
    if (outcome.send.length) {
      const rows = await tx
        .insert(messages)
        .values(
          outcome.send.map((row) => ({
            ...row,
            companyId: ticket.companyId,
            ticketId: ticket.id,
            contactId: ticket.contactId,
            whatsappId: ticket.whatsappId,
            fromMe: true,
            read: true,
            ack: 0,
          })),
        )
        .returning({ id: messages.id });
      ids = rows.map((row) => row.id);
      const last = outcome.send.at(-1)!;
      await tx
        .update(tickets)
        .set({
          lastMessage: previewOf({
            body: last.body,
            mediaType: last.mediaType,
            fileName: last.mediaName ?? undefined,
          }),
          updatedAt: sql`now()`,
        })
        .where(eq(tickets.id, ticket.id));
    }
    // A run that ends hands the ticket to the agents (a flowbuilder integration lets it go).
    if (ended) {
      await tx
        .update(tickets)
        .set({
          ...(outcome.queueId !== undefined ? { queueId: outcome.queueId } : {}),
          useIntegration: false,
          chatbot: false,
        })
        .where(and(eq(tickets.id, ticket.id), eq(tickets.status, 'pending'), sql`${tickets.userId} is null`));
    }
    if (outcome.note) {
      await tx.insert(ticketNotes).values({
        companyId: ticket.companyId,
        ticketId: ticket.id,
        contactId: ticket.contactId,
        note: outcome.note,
      });
    }
    if (updated!.status === 'running' || updated!.status === 'waitingUntil') {
      await this.queue(tx, updated!, outcome.waitSec ?? 0);
    }
    return ids;
  }

  private async queue(tx: Tx, run: RunRow, afterSeconds: number): Promise<void> {
    await this.jobs.send<FlowStepJob>(
      FLOW_STEP_JOB,
      { companyId: run.companyId, ticketId: run.ticketId, runId: run.id, step: run.step },
      { tx, startAfterSeconds: afterSeconds },
    );
  }

  private async lock(tx: Tx, runId: number): Promise<RunRow | undefined> {
    const [run] = await tx.select().from(flowRuns).where(eq(flowRuns.id, runId)).for('update');
    return run;
  }

  private async graph(tx: Tx, run: RunRow): Promise<FlowGraph | null> {
    const [flow] = await tx
      .select({ graph: flows.graph })
      .from(flows)
      .where(and(eq(flows.companyId, run.companyId), eq(flows.id, run.flowId)));
    return flow?.graph ?? null;
  }

  private async ticket(companyId: number, id: number): Promise<TicketRow | undefined> {
    const [row] = await this.ctx.db
      .select({ ticket: tickets, contactName: contacts.name })
      .from(tickets)
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .where(and(eq(tickets.companyId, companyId), eq(tickets.id, id)));
    return row ? { ...row.ticket, contactName: row.contactName } : undefined;
  }

  private menuText(node: Extract<TypedFlowNode, { type: 'menu' }>): string {
    const options = menuOf(node.data.arrayOption.map((o) => ({ number: String(o.number), title: o.value })));
    return `${node.data.message}\n\n${options}`;
  }

  /** A text with the run's `{{variables}}` and the message variables ({{firstName}}, {{ms}}, …) filled in. */
  private text(body: string, ticket: TicketRow, run: RunRow): OutRow {
    const filled = fillVariables(fillFlowVariables(body, run.variables), {
      contactName: ticket.contactName,
      ticketId: ticket.id,
      ticketCreatedAt: ticket.createdAt,
    });
    return { body: filled, mediaType: 'chat', mediaUrl: null, mediaName: null };
  }

  private media(kind: 'img' | 'audio' | 'video', name: string, original?: string): OutRow {
    return { body: '', mediaType: MEDIA[kind], mediaUrl: name, mediaName: original ?? name };
  }
}

/** A condition node's comparison (texts without case or accents; numbers as numbers). */
function compare(value: string, operator: string, expected: string): boolean {
  const [a, b] = [normalizeText(value), normalizeText(expected)];
  switch (operator) {
    case 'equals':
      return a === b;
    case 'notEquals':
      return a !== b;
    case 'contains':
      return a.includes(b);
    case 'greaterThan':
      return Number(value) > Number(expected);
    case 'lessThan':
      return Number(value) < Number(expected);
    default:
      return false;
  }
}
