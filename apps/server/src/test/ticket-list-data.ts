/**
 * The random-data tests of the ticket list (its counts and its pages against the straightforward
 * query) share one company shape, one filter shape and one reference WHERE clause: this file.
 */
import type { TestUser } from './factories.js';
import { createCompany, createQueue, createUser } from './factories.js';
import type { TestApp } from './test-app.js';

/** Runs raw SQL on the test app's database; answers the rows. */
export const sqlRowsOf =
  (t: () => TestApp) =>
  async <T>(text: string, values: unknown[] = []) =>
    (await t().database.executor.executeSql(text, values)).rows as T[];

/** An agent of the list's company: its user, its queues, and whether it sees every pending ticket. */
export interface ListAgent {
  user: TestUser;
  queueIds: number[];
  allTicket: boolean;
}

/**
 * The company the list tests fill with tickets, and a second one beside it: four queues, an admin,
 * three agents (one queue; two queues and all tickets; none), three tags, and one simulator
 * connection row (DISCONNECTED, no session) per company in `whatsappOf`.
 */
export interface ListCompany {
  companyId: number;
  otherCompany: number;
  queueIds: number[];
  tagIds: number[];
  admin: TestUser;
  agents: ListAgent[];
  whatsappOf: Map<number, number>;
}

/** Creates a ListCompany on `t`'s database (no tickets yet). */
export async function createListCompany(t: TestApp): Promise<ListCompany> {
  const sqlRows = sqlRowsOf(() => t);
  const companyId = await createCompany(t.app);
  const otherCompany = await createCompany(t.app);
  const queueIds: number[] = [];
  for (let i = 0; i < 4; i++) queueIds.push(await createQueue(t.app, companyId));
  const admin = await createUser(t.app, companyId, { profile: 'admin' });
  const agents: ListAgent[] = [];
  for (const [i, qs] of [[queueIds[0]!], [queueIds[1]!, queueIds[2]!], []].entries()) {
    const user = await createUser(t.app, companyId, { queueIds: qs });
    const allTicket = i === 1;
    if (allTicket) await sqlRows(`update users set all_ticket = 'enabled' where id = $1`, [user.id]);
    agents.push({ user, queueIds: qs, allTicket });
  }
  const tagIds: number[] = [];
  for (let i = 0; i < 3; i++) {
    const [row] = await sqlRows<{ id: number }>(
      `insert into tags (company_id, name, color) values ($1, $2, '#123456') returning id`,
      [companyId, `tag ${i}`],
    );
    tagIds.push(row!.id);
  }
  const whatsappOf = new Map<number, number>();
  for (const company of [companyId, otherCompany])
    whatsappOf.set(company, await insertConnectionRow(t, company));
  return { companyId, otherCompany, queueIds, tagIds, admin, agents, whatsappOf };
}

/** Inserts a simulator connection row of `company` (DISCONNECTED, not started); answers its id. */
export async function insertConnectionRow(t: TestApp, company: number): Promise<number> {
  const [wa] = await sqlRowsOf(() => t)<{ id: number }>(
    `insert into whatsapps (company_id, name, status, provider, is_default)
     values ($1, 'sim', 'DISCONNECTED', 'simulator', true) returning id`,
    [company],
  );
  return wa!.id;
}

/** The list's filters as GET /tickets takes them. */
export interface TicketFilters {
  status?: 'open' | 'pending' | 'closed';
  queueIds?: number[];
  users?: number[];
  tags?: number[];
  withUnreadMessages?: boolean;
}

/** Who looks at the list: an admin with showAll, or an agent with its queues and visibility. */
export type TicketViewer =
  | { admin: true }
  | { admin: false; userId: number; queueIds: number[]; allTicket: boolean };

/** The viewer an agent is. */
export const agentViewer = (agent: ListAgent): TicketViewer => ({
  admin: false,
  userId: agent.user.id,
  queueIds: agent.queueIds,
  allTicket: agent.allTicket,
});

/**
 * The straightforward WHERE clause (over `tickets t`) of the tickets `viewer` sees in `company`
 * with the filters `f`, and its parameter values ($1 is the company).
 */
export function ticketFilterWhere(
  company: number,
  viewer: TicketViewer,
  f: TicketFilters,
): { where: string; values: unknown[] } {
  const where = ['t.company_id = $1'];
  const values: unknown[] = [company];
  const param = (v: unknown) => `$${values.push(v)}`;
  if (!viewer.admin) {
    where.push(
      `(t.user_id = ${param(viewer.userId)} or (t.queue_id is null and t.user_id is null)` +
        (viewer.queueIds.length ? ` or t.queue_id in (${viewer.queueIds.map(param).join(', ')})` : '') +
        (viewer.allTicket ? ` or t.status = 'pending'` : '') +
        ')',
    );
  }
  if (f.status) where.push(`t.status = ${param(f.status)}`);
  if (f.queueIds?.length)
    where.push(`(t.queue_id in (${f.queueIds.map(param).join(', ')}) or t.queue_id is null)`);
  if (f.users?.length) where.push(`t.user_id in (${f.users.map(param).join(', ')})`);
  if (f.tags?.length) {
    where.push(
      `t.id in (select ticket_id from ticket_tags where tag_id in (${f.tags.map(param).join(', ')}))`,
    );
  }
  if (f.withUnreadMessages) where.push('t.unread_messages > 0');
  return { where: where.join(' and '), values };
}

/** The query string of GET /tickets with the filters `f` and the `extra` parameters. */
export function ticketListQuery(f: TicketFilters, extra: Record<string, string>): string {
  const q = new URLSearchParams(extra);
  if (f.status) q.set('status', f.status);
  if (f.queueIds) q.set('queueIds', JSON.stringify(f.queueIds));
  if (f.users) q.set('users', JSON.stringify(f.users));
  if (f.tags) q.set('tags', JSON.stringify(f.tags));
  if (f.withUnreadMessages) q.set('withUnreadMessages', 'true');
  return q.toString();
}
