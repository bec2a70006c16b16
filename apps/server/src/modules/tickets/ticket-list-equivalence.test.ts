import { TZDate } from '@date-fns/tz';
import { DASHBOARD_TIME_ZONE, TICKETS_COUNT_BOUND, ZTicketsPage } from '@zapdesk/shared';
import { format } from 'date-fns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { protocolOf } from '../../automation/message-variables.js';
import { bearer, createCompany, createQueue, createUser, type TestUser } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { findTickets } from './ticket-repository.js';
import { TICKETS_PAGE_SIZE } from './tickets-service.js';

/**
 * The optimised ticket list (one prepared statement, bounded count, keyset cursor,
 * viewer from the guard's cache) answers exactly what the straightforward query answers, on random
 * data: random statuses, queues, holders, tags, unread counts and update times with many ties, in two
 * companies, for random filters, as an admin with showAll and as agents with visibility. Every page
 * walked by pageNumber and by cursor is compared with the plain SQL below.
 */

let t: TestApp;
let companyId: number;
let queueIds: number[];
let tagIds: number[];
let admin: TestUser;
let agents: { user: TestUser; queueIds: number[]; allTicket: boolean }[];
const TICKETS = 230;

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const sqlRows = async <T>(text: string, values: unknown[] = []) =>
  (await t.database.executor.executeSql(text, values)).rows as T[];

beforeAll(async () => {
  t = await createTestApp();
  const random = rng(20261124);
  companyId = await createCompany(t.app);
  const otherCompany = await createCompany(t.app);
  queueIds = [];
  for (let i = 0; i < 4; i++) queueIds.push(await createQueue(t.app, companyId));
  admin = await createUser(t.app, companyId, { profile: 'admin' });
  agents = [];
  for (const [i, qs] of [[queueIds[0]!], [queueIds[1]!, queueIds[2]!], []].entries()) {
    const user = await createUser(t.app, companyId, { queueIds: qs });
    const allTicket = i === 1;
    if (allTicket) await sqlRows(`update users set all_ticket = 'enabled' where id = $1`, [user.id]);
    agents.push({ user, queueIds: qs, allTicket });
  }
  const holders = [null, admin.id, ...agents.map((a) => a.user.id)];
  tagIds = [];
  for (let i = 0; i < 3; i++) {
    const [row] = await sqlRows<{ id: number }>(
      `insert into tags (company_id, name, color) values ($1, $2, '#123456') returning id`,
      [companyId, `tag ${i}`],
    );
    tagIds.push(row!.id);
  }
  for (const company of [companyId, otherCompany]) {
    const [wa] = await sqlRows<{ id: number }>(
      `insert into whatsapps (company_id, name, status, provider, is_default)
       values ($1, 'sim', 'DISCONNECTED', 'simulator', true) returning id`,
      [company],
    );
    const count = company === companyId ? TICKETS : 40;
    for (let i = 0; i < count; i++) {
      const status = ['open', 'pending', 'closed'][Math.floor(random() * 3)]!;
      const queue = company === companyId && random() < 0.8 ? queueIds[Math.floor(random() * 4)]! : null;
      const holder = company === companyId ? holders[Math.floor(random() * holders.length)]! : null;
      // Few distinct instants, so that many tickets share their updated_at (the id breaks ties).
      const minutesAgo = Math.floor(random() * 30);
      const [row] = await sqlRows<{ id: number }>(
        `with c as (insert into contacts (company_id, name, number) values ($1, $2, $3) returning id)
         insert into tickets (company_id, contact_id, whatsapp_id, queue_id, user_id, status, unread_messages,
                              updated_at, created_at)
         select $1, c.id, $4, $5, $6, $7, $8, date_trunc('minute', now()) - $9 * interval '1 minute',
                now() - interval '1 day'
         from c returning id`,
        [
          company,
          `Contact ${i}`,
          `55119${String(company * 100000 + i).padStart(8, '0')}`,
          wa!.id,
          queue,
          holder,
          status,
          random() < 0.3 ? Math.floor(random() * 5) + 1 : 0,
          minutesAgo,
        ],
      );
      if (company === companyId && random() < 0.4) {
        await sqlRows(`insert into ticket_tags (company_id, ticket_id, tag_id) values ($1, $2, $3)`, [
          companyId,
          row!.id,
          tagIds[Math.floor(random() * tagIds.length)]!,
        ]);
      }
    }
  }
  // Let the nodes's own writes above stop bypassing the guard's cache.
  await new Promise((resolve) => setTimeout(resolve, 2100));
}, 120_000);
afterAll(() => t.close());

interface Filters {
  status?: 'open' | 'pending' | 'closed';
  queueIds?: number[];
  users?: number[];
  tags?: number[];
  withUnreadMessages?: boolean;
}

/** The straightforward query: every matching id of the company, newest update first. */
async function reference(
  viewer: { admin: true } | { admin: false; userId: number; queueIds: number[]; allTicket: boolean },
  f: Filters,
): Promise<number[]> {
  const where = ['t.company_id = $1'];
  const values: unknown[] = [companyId];
  const param = (v: unknown) => {
    values.push(v);
    return `$${values.length}`;
  };
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
  const rows = await sqlRows<{ id: number }>(
    `select t.id from tickets t where ${where.join(' and ')} order by t.updated_at desc, t.id desc`,
    values,
  );
  return rows.map((r) => Number(r.id));
}

function queryString(f: Filters, extra: Record<string, string>): string {
  const q = new URLSearchParams(extra);
  if (f.status) q.set('status', f.status);
  if (f.queueIds) q.set('queueIds', JSON.stringify(f.queueIds));
  if (f.users) q.set('users', JSON.stringify(f.users));
  if (f.tags) q.set('tags', JSON.stringify(f.tags));
  if (f.withUnreadMessages) q.set('withUnreadMessages', 'true');
  return q.toString();
}

async function page(user: TestUser, query: string) {
  const res = await t.app.inject({ method: 'GET', url: `/api/tickets?${query}`, headers: bearer(user) });
  expect(res.statusCode).toBe(200);
  return ZTicketsPage.parse(res.json());
}

/** Walks every page by pageNumber and by cursor; both must give `expected`, page by page. */
async function checkWalks(user: TestUser, base: Record<string, string>, f: Filters, expected: number[]) {
  const pages = Math.max(1, Math.ceil(expected.length / TICKETS_PAGE_SIZE));
  let cursor: string | undefined;
  for (let n = 1; n <= pages + 1; n++) {
    const want = expected.slice((n - 1) * TICKETS_PAGE_SIZE, n * TICKETS_PAGE_SIZE);
    const byNumber = await page(user, queryString(f, { ...base, pageNumber: String(n) }));
    expect(byNumber.tickets.map((x) => x.id)).toEqual(want);
    // Every field as the detail's Drizzle query maps it (the list's own SQL text and row mapping).
    const detailed = await findTickets(t.database.db, companyId, want);
    const byId = new Map(detailed.map((x) => [x.id, x]));
    expect(byNumber.tickets).toEqual(want.map((id) => byId.get(id)));
    expect(byNumber.count).toBe(Math.min(expected.length, TICKETS_COUNT_BOUND));
    expect(byNumber.hasMore).toBe(n * TICKETS_PAGE_SIZE < expected.length);
    if (n > pages) break;
    const byCursor = await page(user, queryString(f, cursor ? { ...base, cursor } : base));
    expect(byCursor.tickets.map((x) => x.id)).toEqual(want);
    expect(byCursor.count).toBe(expected.length);
    expect(byCursor.hasMore).toBe(byNumber.hasMore);
    cursor = byCursor.nextCursor;
    if (want.length) expect(cursor).toBeDefined();
  }
}

describe('the ticket list answers as the straightforward query', () => {
  it('the data set has ties and every kind of ticket (positive control of the comparison)', async () => {
    const all = await reference({ admin: true }, {});
    expect(all).toHaveLength(TICKETS);
    const [ties] = await sqlRows<{ n: number }>(
      'select count(*)::int as n from (select updated_at from tickets where company_id = $1 group by 1 having count(*) > 1) d',
      [companyId],
    );
    expect(ties!.n).toBeGreaterThan(5);
    // The comparison catches a wrong order: the list reversed differs.
    const first = await page(admin, 'showAll=true');
    expect(first.tickets.map((x) => x.id)).not.toEqual([...all].reverse().slice(0, TICKETS_PAGE_SIZE));
    expect(first.tickets.map((x) => x.id)).toEqual(all.slice(0, TICKETS_PAGE_SIZE));
  });

  it('random filters, as admin with showAll and as agents, by pageNumber and by cursor', async () => {
    const random = rng(7);
    const pick = <T>(items: T[]) => items.filter(() => random() < 0.4);
    for (let round = 0; round < 24; round++) {
      const f: Filters = {};
      if (random() < 0.6) f.status = (['open', 'pending', 'closed'] as const)[Math.floor(random() * 3)];
      if (random() < 0.3) f.queueIds = pick(queueIds);
      if (random() < 0.2) f.users = pick([admin.id, ...agents.map((a) => a.user.id)]);
      if (random() < 0.2) f.tags = pick(tagIds);
      if (random() < 0.2) f.withUnreadMessages = true;
      if (f.queueIds?.length === 0) delete f.queueIds;
      if (f.users?.length === 0) delete f.users;
      if (f.tags?.length === 0) delete f.tags;
      const who = Math.floor(random() * (agents.length + 1));
      if (who === agents.length) {
        await checkWalks(admin, { showAll: 'true' }, f, await reference({ admin: true }, f));
      } else {
        const agent = agents[who]!;
        const expected = await reference(
          { admin: false, userId: agent.user.id, queueIds: agent.queueIds, allTicket: agent.allTicket },
          f,
        );
        await checkWalks(agent.user, {}, f, expected);
      }
    }
  }, 120_000);
});

describe('cursor bounds', () => {
  it('answers the extreme cursors the schema lets through, and refuses malformed ones with 400', async () => {
    const top = await page(admin, 'showAll=true&cursor=99999999999999999.9999999999');
    expect(top.tickets.map((x) => x.id)).toEqual(
      (await reference({ admin: true }, {})).slice(0, TICKETS_PAGE_SIZE),
    );
    const bottom = await page(admin, 'showAll=true&cursor=0.0');
    expect(bottom.tickets).toEqual([]);
    expect(bottom.hasMore).toBe(false);
    for (const bad of ['1', 'a.b', '1.2.3', `${'9'.repeat(18)}.1`, '-1.5']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/tickets?showAll=true&cursor=${encodeURIComponent(bad)}`,
        headers: bearer(admin),
      });
      expect(res.statusCode).toBe(400);
    }
  });
});

describe('the ticket code (protocol) of the list', () => {
  it('is the local calendar day as date-fns formats it, around midnights and DST dates too', () => {
    const random = rng(99);
    for (let i = 0; i < 3000; i++) {
      // 2016..2036, with a third of the instants within a minute of a São Paulo midnight and a third
      // within a minute of a quarter hour.
      let at = new Date(Date.UTC(2016, 0, 1) + random() * 20 * 365 * 86_400_000);
      if (i % 3 === 0)
        at = new Date(
          Math.round(at.getTime() / 86_400_000) * 86_400_000 + 3 * 3_600_000 + (random() - 0.5) * 120_000,
        );
      else if (i % 3 === 1)
        at = new Date(Math.round(at.getTime() / 900_000) * 900_000 + (random() - 0.5) * 120_000);
      const id = 1 + Math.floor(random() * 2_000_000);
      const zones = [DASHBOARD_TIME_ZONE, 'UTC', 'Asia/Tokyo', 'Asia/Kathmandu', 'Australia/Lord_Howe'];
      // Twice, and the instants around it: the second pass and the neighbours hit the day cache.
      for (const when of [at, at, new Date(at.getTime() - 1), new Date(at.getTime() + 1)]) {
        for (const zone of zones) {
          const plain = `${format(new TZDate(when, zone), 'yyyyMMdd')}${String(id).padStart(6, '0')}`;
          expect(protocolOf(id, when, zone)).toBe(plain);
        }
      }
    }
  });
});
