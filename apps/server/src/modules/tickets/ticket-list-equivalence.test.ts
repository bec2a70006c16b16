import { TZDate } from '@date-fns/tz';
import { DASHBOARD_TIME_ZONE, TICKETS_COUNT_BOUND, ZTicketsPage } from '@zapdesk/shared';
import { format } from 'date-fns';
import { beforeAll, describe, expect, it } from 'vitest';
import { protocolOf } from '../../automation/message-variables.js';
import { inject, t, useAppSuite } from '../../test/app-suite.js';
import type { TestUser } from '../../test/factories.js';
import { prng } from '../../test/random.js';
import * as listData from '../../test/ticket-list-data.js';
import { findTickets } from './ticket-repository.js';
import { TICKETS_PAGE_SIZE } from './tickets-service.js';

/**
 * The optimised ticket list (one prepared statement, bounded count, keyset cursor,
 * viewer from the guard's cache) answers exactly what the straightforward query answers, on random
 * data: random statuses, queues, holders, tags, unread counts and update times with many ties, in two
 * companies, for random filters, as an admin with showAll and as agents with visibility. Every page
 * walked by pageNumber and by cursor is compared with the plain SQL below.
 */

let companyId: number;
let queueIds: number[];
let tagIds: number[];
let admin: TestUser;
let agents: listData.ListAgent[];
const TICKETS = 230;

const sqlRows = listData.sqlRowsOf(() => t);

useAppSuite();
beforeAll(async () => {
  const random = prng(20261124);
  const list = await listData.createListCompany(t);
  ({ companyId, queueIds, tagIds, admin, agents } = list);
  const holders = [null, admin.id, ...agents.map((a) => a.user.id)];
  for (const company of [companyId, list.otherCompany]) {
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
          list.whatsappOf.get(company),
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

/** The straightforward query: every matching id of the company, newest update first. */
async function reference(viewer: listData.TicketViewer, f: listData.TicketFilters): Promise<number[]> {
  const { where, values } = listData.ticketFilterWhere(companyId, viewer, f);
  const rows = await sqlRows<{ id: number }>(
    `select t.id from tickets t where ${where} order by t.updated_at desc, t.id desc`,
    values,
  );
  return rows.map((r) => Number(r.id));
}

async function page(user: TestUser, query: string) {
  const res = await inject('GET', `/api/tickets?${query}`, user);
  expect(res.statusCode).toBe(200);
  return ZTicketsPage.parse(res.json());
}

/** Walks every page by pageNumber and by cursor; both must give `expected`, page by page. */
async function checkWalks(
  user: TestUser,
  base: Record<string, string>,
  f: listData.TicketFilters,
  expected: number[],
) {
  const pages = Math.max(1, Math.ceil(expected.length / TICKETS_PAGE_SIZE));
  let cursor: string | undefined;
  for (let n = 1; n <= pages + 1; n++) {
    const want = expected.slice((n - 1) * TICKETS_PAGE_SIZE, n * TICKETS_PAGE_SIZE);
    const byNumber = await page(user, listData.ticketListQuery(f, { ...base, pageNumber: String(n) }));
    expect(byNumber.tickets.map((x) => x.id)).toEqual(want);
    // Every field as the detail's Drizzle query maps it (the list's own SQL text and row mapping).
    const detailed = await findTickets(t.database.db, companyId, want);
    const byId = new Map(detailed.map((x) => [x.id, x]));
    expect(byNumber.tickets).toEqual(want.map((id) => byId.get(id)));
    expect(byNumber.count).toBe(Math.min(expected.length, TICKETS_COUNT_BOUND));
    expect(byNumber.hasMore).toBe(n * TICKETS_PAGE_SIZE < expected.length);
    if (n > pages) break;
    const byCursor = await page(user, listData.ticketListQuery(f, cursor ? { ...base, cursor } : base));
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
    const random = prng(7);
    const pick = <T>(items: T[]) => items.filter(() => random() < 0.4);
    for (let round = 0; round < 24; round++) {
      const f: listData.TicketFilters = {};
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
        await checkWalks(agent.user, {}, f, await reference(listData.agentViewer(agent), f));
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
      const res = await inject('GET', `/api/tickets?showAll=true&cursor=${encodeURIComponent(bad)}`, admin);
      expect(res.statusCode).toBe(400);
    }
  });
});

describe('the ticket code (protocol) of the list', () => {
  it('is the local calendar day as date-fns formats it, around midnights and DST dates too', () => {
    const random = prng(99);
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
