import type { FlowGraph, TypedFlowNode } from '@zapdesk/shared';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { OutboundSender } from '../../channels/outbound-sender.js';
import { insertOutbound } from '../../channels/outbound-store.js';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import {
  companies,
  contacts,
  flowCampaigns,
  flowRuns,
  flows,
  plans,
  queueIntegrations,
  ticketNotes,
  tickets,
  whatsapps,
} from '../../db/schema/index.js';
import { findTicket } from '../../db/ticket-repository.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import { type EntitlementRefusal, refusalOf } from '../../lib/company-entitlement.js';
import type { QueueBotJob } from '../jobs.js';
import { openAiOutcome, typebotOutcome } from './flow-bot-nodes.js';
import {
  continueFrom,
  executeThrough,
  menuText,
  nextAfter,
  type Outcome,
  type RunRow,
  type TicketRow,
  textRow,
} from './flow-steps.js';
import { normalizeText, saysPhrase } from './flow-text.js';

type TypebotNode = Extract<TypedFlowNode, { type: 'typebot' }>;
/** The nodes whose answer comes from an outside service, asked outside the transaction. */
type OutsideNode = Extract<TypedFlowNode, { type: 'openai' | 'typebot' }>;

/** A run locked by `lock`, with what a step reads along with it. */
interface Locked {
  run: RunRow;
  graph: FlowGraph | null;
  ticket: TicketRow | undefined;
  refusal: EntitlementRefusal | null;
}

/** The job executing one step of a flow run (key `flow:{ticketId}`: one ticket's steps in order). */
export const FLOW_STEP_JOB = 'flow-step';

/**
 * How many `flow-step` jobs one process runs at once. A step mostly waits on a few database round
 * trips, so twice the queue's default keeps the connections busy when many runs' intervals end
 * together (bench/flows: interval delay p99); one ticket's steps still run one at a time (the key).
 */
export const FLOW_STEP_CONCURRENCY = 16;

/** What a step job carries: the run and the step number it was queued for. */
export interface FlowStepJob {
  companyId: number;
  ticketId: number;
  runId: number;
  step: number;
}

/**
 * The flow engine (docs/automation.md "Flows"). A flow run (one row per ticket
 * in flow_runs) is advanced by `flow-step` jobs, one step at a time: each step locks the run, checks
 * the job is for the run's current step, executes one node (or one element of a content node),
 * stores the messages it sends and the run's new position in the same transaction, and queues the
 * next step there too; the messages are delivered after commit (undelivered ones are picked up by
 * the sender's pending delivery after a restart). So a step run twice, or resumed after a crash,
 * sends nothing twice. Interval nodes are delayed jobs; menu and question nodes wait for the
 * customer's answer (`answer`). A ticket taken by an agent ends its run at the next step.
 */
export class FlowEngine {
  #handOver: ((tx: Tx, companyId: number, queueId: number) => Promise<void>) | undefined;

  constructor(
    private readonly ctx: AppContext,
    private readonly sender: OutboundSender,
    private readonly jobs: JobQueue,
  ) {}

  /**
   * Told, inside the run's transaction, when an ending run hands its ticket to the agents of a
   * queue (automatic assignment queues its job there).
   */
  setHandOver(handOver: (tx: Tx, companyId: number, queueId: number) => Promise<void>): void {
    this.#handOver = handOver;
  }

  /** Declares the `flow-step` job. */
  register(): void {
    this.jobs.define<FlowStepJob>(FLOW_STEP_JOB, (job) => this.step(job), {
      key: (job) => `flow:${job.ticketId}`,
      concurrency: FLOW_STEP_CONCURRENCY,
    });
  }

  /**
   * Starts flow `flowId` on a ticket from its start node, replacing any earlier run of the ticket
   * (its queued steps become stale: the run's step number moves on). `test` (the editor's test run,
   * POST /flowbuilder/:id/test) starts an inactive flow too.
   * @returns false when the flow is not the company's, is inactive (unless `test`) or has no saved
   * graph with a start node.
   */
  async start(
    companyId: number,
    ticketId: number,
    flowId: number,
    options: { test?: boolean } = {},
  ): Promise<boolean> {
    const [flow] = await this.ctx.db
      .select({ graph: flows.graph, active: flows.active })
      .from(flows)
      .where(and(eq(flows.companyId, companyId), eq(flows.id, flowId)));
    if (!flow || (!flow.active && !options.test)) return false;
    if (!flow.graph?.nodes.some((node) => node.id === '1')) return false;
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
  async answer(
    companyId: number,
    ticketId: number,
    job: QueueBotJob,
    body: string,
    /** The ticket with its contact's name as the caller just read it (read here when absent). */
    known?: TicketRow,
  ): Promise<boolean> {
    const ticket =
      known && known.companyId === companyId && known.id === ticketId
        ? known
        : await this.ticket(companyId, ticketId);
    if (!ticket) return false;
    const [run] = await this.ctx.db
      .select()
      .from(flowRuns)
      .where(and(eq(flowRuns.ticketId, ticket.id), ne(flowRuns.status, 'ended')));
    if (run && job.ticketCreated) await this.end(run.id);
    else if (run) {
      if (run.status !== 'waitingInput') return true;
      await this.takeInput(ticket, run, body);
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
    if (hit) return this.start(ticket.companyId, ticket.id, hit.flowId);
    return job.ticketCreated ? this.startWelcome(ticket.companyId, ticket.id, ticket.whatsappId) : false;
  }

  /**
   * Starts the connection's welcome flow (`whatsapps.flowIdWelcome`) for a new
   * ticket no phrase matched, when that flow is the company's and active and the plan has
   * useCampaigns. @returns whether a flow started.
   */
  private async startWelcome(companyId: number, ticketId: number, whatsappId: number): Promise<boolean> {
    const [welcome] = await this.ctx.db
      .select({ flowId: flows.id })
      .from(whatsapps)
      .innerJoin(flows, and(eq(flows.id, whatsapps.flowIdWelcome), eq(flows.companyId, companyId)))
      .innerJoin(companies, eq(companies.id, companyId))
      .innerJoin(plans, eq(plans.id, companies.planId))
      .where(
        and(
          eq(whatsapps.companyId, companyId),
          eq(whatsapps.id, whatsappId),
          eq(flows.active, true),
          eq(plans.useCampaigns, true),
        ),
      );
    return welcome ? this.start(companyId, ticketId, welcome.flowId) : false;
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

  /**
   * A menu or question node receives the customer's answer (menu: option number or text). A company
   * that may no longer run flows (refusalOf, read with the locked run) ends the run instead and the
   * ticket goes to the agents; an OpenAI or Typebot node answers outside the transaction (commitTurn).
   */
  private async takeInput(ticket: TicketRow, seen: RunRow, body: string): Promise<void> {
    let outside: { graph: FlowGraph; node: OutsideNode } | undefined;
    const ids = await this.ctx.db.transaction(async (tx) => {
      const locked = await this.lock(tx, seen.id);
      if (!locked) return [];
      const { run, graph } = locked;
      if (run.step !== seen.step || run.status !== 'waitingInput') return [];
      if (locked.refusal) {
        return this.apply(tx, ticket, run, { nodeId: null, contentIndex: 0, status: 'ended', send: [] });
      }
      const node = graph?.nodes.find((n) => n.id === run.nodeId) as TypedFlowNode | undefined;
      if (node?.type === 'openai' || node?.type === 'typebot') {
        outside = { graph: graph!, node };
        return [];
      }
      let outcome: Outcome;
      if (node?.type === 'menu') {
        const answer = normalizeText(body);
        const option = node.data.arrayOption.find(
          (o) => String(o.number) === answer || normalizeText(o.value) === answer,
        );
        outcome = option
          ? { ...nextAfter(graph!, node, `a${option.number}`), send: [] }
          : {
              nodeId: node.id,
              contentIndex: 0,
              status: 'waitingInput',
              send: [textRow(menuText(node), ticket, run)],
            };
      } else if (node?.type === 'question') {
        const variables = { ...run.variables, [node.data.typebotIntegration.answerKey]: body.trim() };
        outcome = { ...nextAfter(graph!, node, 'a'), send: [], variables };
      } else {
        outcome = { nodeId: null, contentIndex: 0, status: 'ended', send: [] };
      }
      // The node after the answer runs now (no step job of its own) when it needs no wait.
      return this.apply(tx, ticket, run, graph ? continueFrom(graph, outcome, run, ticket) : outcome);
    });
    if (outside) {
      const { graph, node } = outside;
      const outcome =
        node.type === 'openai'
          ? await openAiOutcome(this.ctx, ticket, seen, graph, node)
          : await typebotOutcome(this.ctx, ticket, seen, graph, node, body);
      await this.commitTurn(ticket, seen, outcome);
      return;
    }
    await this.sender.deliverStored(ticket.companyId, ticket.id, ids);
  }

  /**
   * Stores an outcome computed outside the transaction (an outside service's answer) if the run is
   * still where it was (`seen`'s step and status), then delivers its messages.
   */
  private async commitTurn(ticket: TicketRow, seen: RunRow, outcome: Outcome): Promise<void> {
    const before = await findTicket(this.ctx.db, ticket.companyId, ticket.id);
    const ids = await this.ctx.db.transaction(async (tx) => {
      const run = (await this.lock(tx, seen.id))?.run;
      // The run moved on meanwhile (an agent took the ticket, a new run started): the answer is dropped.
      if (!run || run.step !== seen.step || run.status !== seen.status) return [];
      return this.apply(tx, ticket, run, outcome);
    });
    await this.sender.deliverStored(ticket.companyId, ticket.id, ids);
    if (outcome.queueId !== undefined && before) {
      const after = await findTicket(this.ctx.db, before.companyId, before.id);
      if (after) this.ctx.realtime.ticketMoved(before, after, { action: 'update', ticket: after });
    }
  }

  /**
   * Runs one step of a run (the `flow-step` job). Safe to run twice: it checks the step number.
   * One transaction reads the run (locked) with its flow's graph, executes the node and stores the
   * outcome; a Typebot node leaves the transaction first (its chat is an outside call; nothing was
   * sent before it commits, so a crash there only starts a new chat).
   */
  async step(job: FlowStepJob): Promise<void> {
    // Set inside the transaction's callback (declared wide so the checks after it are not narrowed away).
    let ticket = undefined as TicketRow | undefined;
    let before = undefined as Awaited<ReturnType<typeof findTicket>>;
    let typebot = undefined as { run: RunRow; graph: FlowGraph; node: TypebotNode } | undefined;
    const ids = await this.ctx.db.transaction(async (tx) => {
      const locked = await this.lock(tx, job.runId);
      if (!locked) return [];
      const { run, graph } = locked;
      if (run.companyId !== job.companyId || run.step !== job.step) return [];
      if (run.status === 'ended' || run.status === 'waitingInput') return [];
      ticket = locked.ticket;
      // An agent took the ticket (or it closed), or the company may no longer run flows (a plan
      // without useCampaigns, an inactive company or one past its dueDate): it stops here.
      if (locked.refusal || ticket?.status !== 'pending' || ticket.userId !== null) {
        return this.apply(tx, ticket, run, { nodeId: null, contentIndex: 0, status: 'ended', send: [] });
      }
      const node = graph?.nodes.find((n) => n.id === run.nodeId) as TypedFlowNode | undefined;
      if (node?.type === 'typebot') {
        typebot = { run, graph: graph!, node };
        return [];
      }
      const outcome: Outcome = node
        ? executeThrough(graph!, node, run, ticket)
        : { nodeId: null, contentIndex: 0, status: 'ended', send: [] };
      // The ticket as it was, for the realtime move (only a ticket node moves it).
      if (outcome.queueId !== undefined) before = await findTicket(tx, ticket.companyId, ticket.id);
      return this.apply(tx, ticket, run, outcome);
    });
    if (typebot && ticket) {
      const { run, graph, node } = typebot;
      await this.commitTurn(ticket, run, await typebotOutcome(this.ctx, ticket, run, graph, node));
      return;
    }
    if (ticket) await this.sender.deliverStored(ticket.companyId, ticket.id, ids);
    if (before) {
      const after = await findTicket(this.ctx.db, before.companyId, before.id);
      if (after) this.ctx.realtime.ticketMoved(before, after, { action: 'update', ticket: after });
    }
  }

  /**
   * Stores the outcome in `tx`: the run's new position and state (step + the nodes it covers), the messages to send
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
        botState: outcome.botState ?? null,
        step: run.step + (outcome.nodes ?? 1),
        endedAt: ended ? now : null,
        updatedAt: now,
      })
      .where(eq(flowRuns.id, run.id))
      .returning();
    if (!ticket) return [];
    let ids: number[] = [];
    if (outcome.send.length) {
      ids = await insertOutbound(tx, ticket.companyId, ticket, null, outcome.send, null);
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
      const queueId = outcome.queueId !== undefined ? outcome.queueId : ticket.queueId;
      if (queueId && this.#handOver) await this.#handOver(tx, ticket.companyId, queueId);
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

  /**
   * The run, locked for the transaction, with its flow's saved graph, its ticket (with the contact's
   * name; undefined when gone) and whether its company may run flows now (refusalOf with
   * useCampaigns): one statement.
   */
  private async lock(tx: Tx, runId: number): Promise<Locked | undefined> {
    const [row] = await tx
      .select({
        run: flowRuns,
        graph: flows.graph,
        ticket: tickets,
        contactName: contacts.name,
        company: { status: companies.status, dueDate: companies.dueDate },
        plan: { useCampaigns: plans.useCampaigns },
      })
      .from(flowRuns)
      .leftJoin(flows, and(eq(flows.id, flowRuns.flowId), eq(flows.companyId, flowRuns.companyId)))
      .leftJoin(tickets, and(eq(tickets.id, flowRuns.ticketId), eq(tickets.companyId, flowRuns.companyId)))
      .leftJoin(contacts, eq(contacts.id, tickets.contactId))
      .leftJoin(companies, eq(companies.id, flowRuns.companyId))
      .leftJoin(plans, eq(plans.id, companies.planId))
      .where(eq(flowRuns.id, runId))
      .for('update', { of: flowRuns });
    if (!row) return undefined;
    return {
      run: row.run,
      graph: row.graph ?? null,
      ticket:
        row.ticket && row.contactName !== null ? { ...row.ticket, contactName: row.contactName } : undefined,
      refusal: refusalOf(row.company ? { ...row.company, plan: row.plan } : undefined, 'useCampaigns'),
    };
  }

  private async ticket(companyId: number, id: number): Promise<TicketRow | undefined> {
    const [row] = await this.ctx.db
      .select({ ticket: tickets, contactName: contacts.name })
      .from(tickets)
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .where(and(eq(tickets.companyId, companyId), eq(tickets.id, id)));
    return row ? { ...row.ticket, contactName: row.contactName } : undefined;
  }
}
