import type { FlowTestRun } from '@zapdesk/shared';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { FlowEngine } from '../../automation/flows/flow-engine.js';
import type { SessionManager } from '../../channels/session-manager.js';
import { SimulatorDriver } from '../../channels/simulator/simulator-driver.js';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { contacts, flowRuns, flows, messages, tickets } from '../../db/schema/index.js';
import { AppError } from '../../lib/app-error.js';
import { numberVariants } from '../../lib/phone-number.js';
import { findTicket } from '../tickets/ticket-repository.js';
import { requireWhatsapp } from '../whatsapp/whatsapp-service.js';

/**
 * POST /flowbuilder/:id/test ("test this flow"; docs/automation.md "Flows"):
 * starts the saved graph of flow `flowId` on the ticket of a simulated phone, as a phrase or welcome
 * trigger would. The phone's contact is found (either form of a Brazilian mobile number) or created;
 * its live ticket on the connection is handed back to the flow (pending, no agent, no chatbot menu),
 * or a new pending ticket is opened; any run of that ticket ends, replaced by the new one, whose steps
 * are `flow-step` jobs like any run. An inactive flow runs too (it is being tested).
 * @returns the ticket, its contact, and the ticket's newest message id before the run.
 * @throws ERR_NOT_FOUND (not the company's flow), ERR_FLOW_INVALID reason startNode (no saved graph
 * with a start node), ERR_NO_WAPP_FOUND (not the company's connection), ERR_WRONG_PROVIDER (not a
 * simulator connection), ERR_WAPP_NOT_INITIALIZED (its session is not running).
 */
export async function startFlowTestRun(
  ctx: AppContext,
  engine: FlowEngine,
  sessions: SessionManager,
  companyId: number,
  flowId: number,
  body: { whatsappId: number; number: string },
): Promise<FlowTestRun> {
  const [flow] = await ctx.db
    .select({ graph: flows.graph })
    .from(flows)
    .where(and(eq(flows.companyId, companyId), eq(flows.id, flowId)));
  if (!flow) throw new AppError('ERR_NOT_FOUND');
  if (!flow.graph?.nodes.some((node) => node.id === '1')) {
    throw new AppError('ERR_FLOW_INVALID', { extra: { reason: 'startNode' } });
  }
  const connection = await requireWhatsapp(ctx, companyId, body.whatsappId);
  if (connection.provider !== 'simulator') throw new AppError('ERR_WRONG_PROVIDER');
  if (!(sessions.get(connection.id) instanceof SimulatorDriver)) {
    throw new AppError('ERR_WAPP_NOT_INITIALIZED');
  }

  const prepared = await ctx.db.transaction((tx) => testTicket(tx, companyId, connection.id, body.number));
  const after = (await findTicket(ctx.db, companyId, prepared.ticketId))!;
  if (prepared.before) ctx.realtime.ticketMoved(prepared.before, after, { action: 'update', ticket: after });
  else ctx.realtime.toTicket(after, 'ticket', { action: 'update', ticket: after });

  // The graph was checked above; start() answers false only if the flow vanished meanwhile.
  if (!(await engine.start(companyId, prepared.ticketId, flowId, { test: true }))) {
    throw new AppError('ERR_NOT_FOUND');
  }
  return {
    ticketId: prepared.ticketId,
    contactId: prepared.contactId,
    sinceMessageId: prepared.sinceMessageId,
  };
}

interface PreparedTicket {
  ticketId: number;
  contactId: number;
  sinceMessageId: number;
  /** The live ticket as it was before the test took it back (undefined for a new ticket). */
  before?: Awaited<ReturnType<typeof findTicket>>;
}

/** The test phone's contact and its pending ticket on the connection, in `tx` (see above). */
async function testTicket(
  tx: Tx,
  companyId: number,
  whatsappId: number,
  number: string,
): Promise<PreparedTicket> {
  const [known] = await tx
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), inArray(contacts.number, numberVariants(number))))
    .orderBy(contacts.number)
    .limit(1);
  let contactId = known?.id;
  if (contactId === undefined) {
    const [created] = await tx
      .insert(contacts)
      .values({ companyId, number, name: number })
      .onConflictDoUpdate({
        target: [contacts.companyId, contacts.number],
        set: { updatedAt: sql`${contacts.updatedAt}` },
      })
      .returning({ id: contacts.id });
    contactId = created!.id;
  }
  const live = and(
    eq(tickets.companyId, companyId),
    eq(tickets.contactId, contactId),
    eq(tickets.whatsappId, whatsappId),
    sql`${tickets.status} <> 'closed'`,
  );
  const [found] = await tx.select({ id: tickets.id }).from(tickets).where(live).for('update');
  let ticketId = found?.id;
  const before = found ? await findTicket(tx, companyId, found.id) : undefined;
  if (ticketId === undefined) {
    const [inserted] = await tx
      .insert(tickets)
      .values({ companyId, contactId, whatsappId, status: 'pending' })
      .onConflictDoNothing()
      .returning({ id: tickets.id });
    // A customer message opened the live ticket meanwhile: take that one.
    ticketId =
      inserted?.id ?? (await tx.select({ id: tickets.id }).from(tickets).where(live).for('update'))[0]?.id;
    if (ticketId === undefined) throw new AppError('ERR_CREATING_TICKET');
  }
  // Any run of the ticket ends now, with the ticket's change: its queued steps are stale from here.
  await tx
    .update(flowRuns)
    .set({ status: 'ended', endedAt: new Date(), step: sql`${flowRuns.step} + 1`, updatedAt: new Date() })
    .where(and(eq(flowRuns.ticketId, ticketId), ne(flowRuns.status, 'ended')));
  // The flow holds the ticket as it would a new conversation: no agent, no queue menu.
  await tx
    .update(tickets)
    .set({
      status: 'pending',
      userId: null,
      chatbot: false,
      queueOptionId: null,
      acceptedAt: null,
      updatedAt: sql`now()`,
    })
    .where(eq(tickets.id, ticketId));
  // The ticket's rows through messages_ticket_created_idx (a test phone's ticket stays small).
  const [newest] = await tx
    .select({ id: sql<number | null>`max(${messages.id})` })
    .from(messages)
    .where(eq(messages.ticketId, ticketId));
  return { ticketId, contactId, sinceMessageId: Number(newest?.id ?? 0), before };
}
