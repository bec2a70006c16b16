import { TICKETS_COUNT_BOUND, ZTicketsPage } from '@zapdesk/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject, t, useAppSuite } from '../../test/app-suite.js';
import { createCompany, createQueue, createUser, type TestUser } from '../../test/factories.js';
import { prng } from '../../test/random.js';
import * as listData from '../../test/ticket-list-data.js';

/**
 * The list's exact counts (decision 0111): ticket_counts, kept by a trigger on tickets, always equals
 * counting the tickets, through random inserts, moves (one ticket or many in one statement), deletes,
 * a queue or a user deleted and a company deleted; and the `count` of GET /tickets with random filters,
 * as an admin with showAll and as agents with visibility, equals the straightforward count, exactly
 * also past TICKETS_COUNT_BOUND.
 */

let companyId: number;
let otherCompany: number;
let queueIds: number[];
let tagIds: number[];
let admin: TestUser;
let agents: listData.ListAgent[];
let whatsappOf: Map<number, number>;
let contactSeq = 0;

const random = prng(20261127);
const oneOf = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
const STATUSES = ['open', 'pending', 'closed'] as const;

const sqlRows = listData.sqlRowsOf(() => t);

/** Inserts a ticket on a new contact: random status, queue and holder of its company. */
async function insertTicket(company: number, status = oneOf(STATUSES)) {
  const mine = company === companyId;
  const queue = mine && random() < 0.8 ? oneOf(queueIds) : null;
  const holders = mine ? [null, admin.id, ...agents.map((a) => a.user.id)] : [null];
  contactSeq += 1;
  await sqlRows(
    `with c as (insert into contacts (company_id, name, number) values ($1, $2, $3) returning id)
     insert into tickets (company_id, contact_id, whatsapp_id, queue_id, user_id, status, unread_messages)
     select $1, c.id, $4, $5, $6, $7, $8 from c`,
    [
      company,
      `Contact ${contactSeq}`,
      `55219${String(contactSeq).padStart(8, '0')}`,
      whatsappOf.get(company),
      queue,
      oneOf(holders),
      status,
      random() < 0.3 ? 2 : 0,
    ],
  );
}

/**
 * ticket_counts' non-zero rows and the tickets counted by the same key, both sorted: all of them (n)
 * and those with unread messages (unread).
 */
async function bothCounts() {
  const key = `company_id, status, coalesce(queue_id, 0) as queue_id, coalesce(user_id, 0) as user_id`;
  const order = 'order by company_id, status, queue_id, user_id';
  const kept = await sqlRows(
    `select ${key}, sum(tickets)::int as n, sum(unread)::int as unread from ticket_counts
     group by 1, 2, 3, 4 having sum(tickets) <> 0 or sum(unread) <> 0 ${order}`,
  );
  const counted = await sqlRows(
    `select ${key}, count(*)::int as n, (count(*) filter (where unread_messages > 0))::int as unread
     from tickets group by 1, 2, 3, 4 ${order}`,
  );
  return { kept, counted };
}

useAppSuite();
beforeAll(async () => {
  ({ companyId, otherCompany, queueIds, tagIds, admin, agents, whatsappOf } =
    await listData.createListCompany(t));
  for (let i = 0; i < 150; i++) await insertTicket(companyId);
  for (let i = 0; i < 30; i++) await insertTicket(otherCompany);
  await sqlRows(
    `insert into ticket_tags (company_id, ticket_id, tag_id)
     select company_id, id, $2::int from tickets where company_id = $1 and id % 3 = 0`,
    [companyId, tagIds[0]],
  );
  // Let the nodes's own writes above stop bypassing the guard's cache.
  await new Promise((resolve) => setTimeout(resolve, 2100));
}, 120_000);

describe('ticket_counts follows the tickets', () => {
  it('equals counting the tickets after every random change', async () => {
    // Positive control: the comparison sees a count that is off.
    await sqlRows(
      `update ticket_counts set tickets = tickets + 1 where company_id = $1 and status = 'open'`,
      [companyId],
    );
    const off = await bothCounts();
    expect(off.kept).not.toEqual(off.counted);
    await sqlRows(
      `update ticket_counts set tickets = tickets - 1 where company_id = $1 and status = 'open'`,
      [companyId],
    );
    expect((await bothCounts()).kept).toEqual((await bothCounts()).counted);
    // And one that sees an unread count that is off.
    await sqlRows(`update ticket_counts set unread = unread + 1 where company_id = $1 and status = 'open'`, [
      companyId,
    ]);
    const offUnread = await bothCounts();
    expect(offUnread.kept).not.toEqual(offUnread.counted);
    await sqlRows(`update ticket_counts set unread = unread - 1 where company_id = $1 and status = 'open'`, [
      companyId,
    ]);
    expect((await bothCounts()).kept).toEqual((await bothCounts()).counted);

    const holders = () => [null, admin.id, ...agents.map((a) => a.user.id)];
    const pickTicket = async () => {
      const [row] = await sqlRows<{ id: number }>(
        'select id from tickets where company_id = $1 order by id offset $2 limit 1',
        [companyId, Math.floor(random() * 100)],
      );
      return row?.id;
    };
    for (let round = 0; round < 60; round++) {
      const kind = Math.floor(random() * 7);
      const id = await pickTicket();
      if (kind === 0) {
        await insertTicket(oneOf([companyId, otherCompany]));
      } else if (kind === 1 && id) {
        // Closing or reopening: only a closed ticket may share its contact and connection.
        await sqlRows(`update tickets set status = 'closed', updated_at = now() where id = $1`, [id]);
      } else if (kind === 2 && id) {
        await sqlRows('update tickets set queue_id = $2, user_id = $3 where id = $1', [
          id,
          random() < 0.2 ? null : oneOf(queueIds),
          oneOf(holders()),
        ]);
      } else if (kind === 3 && id) {
        // Updates that move nothing (a message; a read; a message with a move) and one of many rows
        // in one statement.
        await sqlRows(
          `update tickets set last_message = 'hi', unread_messages = unread_messages + 1 where id = $1`,
          [id],
        );
        await sqlRows('update tickets set unread_messages = 0 where id = $1', [await pickTicket()]);
        await sqlRows('update tickets set unread_messages = 0, user_id = $2 where id = $1', [
          await pickTicket(),
          oneOf(holders()),
        ]);
        await sqlRows(
          `update tickets set unread_messages = unread_messages + 1 where company_id = $1 and id % 4 = $2`,
          [companyId, Math.floor(random() * 4)],
        );
        await sqlRows('update tickets set user_id = $2 where company_id = $1 and queue_id = $3', [
          companyId,
          oneOf(holders()),
          oneOf(queueIds),
        ]);
      } else if (kind === 4 && id) {
        await sqlRows('delete from tickets where id = $1', [id]);
      } else if (kind === 5) {
        await sqlRows(
          `update tickets set status = 'pending', user_id = null where company_id = $1 and status = 'open' and id % 5 = $2`,
          [companyId, Math.floor(random() * 5)],
        );
      } else {
        await sqlRows(
          `update tickets set status = $2 where company_id = $1 and status = 'closed' and id % 7 = $3
          and not exists (select 1 from tickets o where o.company_id = tickets.company_id
            and o.contact_id = tickets.contact_id and o.whatsapp_id is not distinct from tickets.whatsapp_id
            and o.status <> 'closed')`,
          [companyId, oneOf(['open', 'pending']), Math.floor(random() * 7)],
        );
      }
      const { kept, counted } = await bothCounts();
      expect(kept).toEqual(counted);
    }
    const [negative] = await sqlRows<{ n: number }>(
      'select count(*)::int as n from ticket_counts where tickets < 0',
    );
    expect(negative!.n).toBe(0);
  }, 120_000);

  it('follows a queue and a user deleted (their tickets lose them) and a company deleted', async () => {
    const doomedQueue = await createQueue(t.app, companyId);
    const doomedUser = await createUser(t.app, companyId);
    for (let i = 0; i < 6; i++) await insertTicket(companyId);
    await sqlRows('update tickets set queue_id = $2 where company_id = $1 and id % 4 = 0', [
      companyId,
      doomedQueue,
    ]);
    await sqlRows('update tickets set user_id = $2 where company_id = $1 and id % 4 = 1', [
      companyId,
      doomedUser.id,
    ]);
    expect((await bothCounts()).kept).toEqual((await bothCounts()).counted);
    await sqlRows('delete from queues where id = $1', [doomedQueue]);
    await sqlRows('delete from users where id = $1', [doomedUser.id]);
    const after = await bothCounts();
    expect(after.kept).toEqual(after.counted);

    const gone = await createCompany(t.app);
    whatsappOf.set(gone, await listData.insertConnectionRow(t, gone));
    for (let i = 0; i < 5; i++) await insertTicket(gone);
    await sqlRows('delete from companies where id = $1', [gone]);
    const [left] = await sqlRows<{ n: number }>(
      'select count(*)::int as n from ticket_counts where company_id = $1',
      [gone],
    );
    expect(left!.n).toBe(0);
    expect((await bothCounts()).kept).toEqual((await bothCounts()).counted);
  });
});

/** The straightforward count of the tickets a viewer sees with the filters. */
async function referenceCount(
  company: number,
  viewer: listData.TicketViewer,
  f: listData.TicketFilters,
): Promise<number> {
  const { where, values } = listData.ticketFilterWhere(company, viewer, f);
  const [row] = await sqlRows<{ n: number }>(
    `select count(*)::int as n from tickets t where ${where}`,
    values,
  );
  return row!.n;
}

async function listCount(user: TestUser, f: listData.TicketFilters, extra: Record<string, string>) {
  const q = listData.ticketListQuery(f, extra);
  const res = await inject('GET', `/api/tickets?${q}`, user);
  expect(res.statusCode).toBe(200);
  return ZTicketsPage.parse(res.json()).count;
}

describe('the list count', () => {
  it('equals the straightforward count for random filters, as admin with showAll and as agents', async () => {
    const pick = <T>(items: T[]) => items.filter(() => random() < 0.4);
    let nonZero = 0;
    for (let round = 0; round < 40; round++) {
      const f: listData.TicketFilters = {};
      if (random() < 0.7) f.status = oneOf(STATUSES);
      if (random() < 0.4) f.queueIds = pick([...queueIds, 0]);
      if (random() < 0.3) f.users = pick([admin.id, ...agents.map((a) => a.user.id), 0]);
      if (random() < 0.15) f.tags = pick(tagIds);
      if (random() < 0.3) f.withUnreadMessages = true;
      if (f.queueIds?.length === 0) delete f.queueIds;
      if (f.users?.length === 0) delete f.users;
      if (f.tags?.length === 0) delete f.tags;
      const who = Math.floor(random() * (agents.length + 1));
      const pageNumber = String(oneOf([1, 1, 2, 9]));
      let expected: number;
      let actual: number;
      if (who === agents.length) {
        expected = await referenceCount(companyId, { admin: true }, f);
        actual = await listCount(admin, f, { showAll: 'true', pageNumber });
      } else {
        const a = agents[who]!;
        expected = await referenceCount(companyId, listData.agentViewer(a), f);
        actual = await listCount(a.user, f, { pageNumber });
      }
      expect(actual, JSON.stringify({ f, who, pageNumber })).toBe(expected);
      if (expected > 0) nonZero += 1;
    }
    expect(nonZero).toBeGreaterThan(20);
  }, 120_000);

  it('is exact past TICKETS_COUNT_BOUND for the tabs, bounded with a tags filter', async () => {
    const many = TICKETS_COUNT_BOUND + 57;
    const [contact] = await sqlRows<{ id: number }>(
      `insert into contacts (company_id, name, number) values ($1, 'Many', '5511900000001') returning id`,
      [companyId],
    );
    await sqlRows(
      `insert into tickets (company_id, contact_id, whatsapp_id, queue_id, status)
       select $1, $2, $3, $4, 'closed' from generate_series(1, $5::int)`,
      [companyId, contact!.id, whatsappOf.get(companyId), queueIds[0], many],
    );
    await sqlRows(
      `insert into ticket_tags (company_id, ticket_id, tag_id)
       select company_id, id, $3::int from tickets where company_id = $1 and contact_id = $2`,
      [companyId, contact!.id, tagIds[1]],
    );
    const closed = await referenceCount(companyId, { admin: true }, { status: 'closed' });
    expect(closed).toBeGreaterThan(TICKETS_COUNT_BOUND);
    expect(await listCount(admin, { status: 'closed' }, { showAll: 'true' })).toBe(closed);
    const a = agents[0]!;
    const seen = await referenceCount(companyId, listData.agentViewer(a), {
      status: 'closed',
      queueIds: [queueIds[0]!],
    });
    expect(seen).toBeGreaterThan(TICKETS_COUNT_BOUND);
    expect(await listCount(a.user, { status: 'closed', queueIds: [queueIds[0]!] }, {})).toBe(seen);
    // The unread filter sums the cells' unread tickets: exact past the bound too.
    await sqlRows('update tickets set unread_messages = 1 where company_id = $1 and contact_id = $2', [
      companyId,
      contact!.id,
    ]);
    const unread = await referenceCount(
      companyId,
      { admin: true },
      { status: 'closed', withUnreadMessages: true },
    );
    expect(unread).toBeGreaterThan(TICKETS_COUNT_BOUND);
    expect(await listCount(admin, { status: 'closed', withUnreadMessages: true }, { showAll: 'true' })).toBe(
      unread,
    );
    expect(await listCount(admin, { tags: [tagIds[1]!] }, { showAll: 'true' })).toBe(TICKETS_COUNT_BOUND);
  }, 120_000);
});
