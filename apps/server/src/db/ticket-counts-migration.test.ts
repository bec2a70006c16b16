/**
 * The migration that adds ticket_counts counts the tickets already there (per company, status, queue
 * and holder, nulls as their own key), and its trigger follows them from then on. Runs the migrations
 * before it on a fresh PGlite, plants tickets, then runs the rest.
 */
import { expect, it } from 'vitest';
import { migratedBefore } from '../test/migrations.js';

const TARGET = 'ticket-counts';

it('counts the tickets already there, then follows them', { timeout: 120_000 }, async () => {
  const { client, one, migrateRest } = await migratedBefore(TARGET);
  const company = await one(`insert into companies (name) values ('A') returning id`);
  const queue = await one(
    `insert into queues (company_id, name, color) values (${company}, 'Q', '#000') returning id`,
  );
  const plant = async (status: string, queueId: number | null, n: number) => {
    for (let i = 0; i < n; i++) {
      const contact = await one(
        `insert into contacts (company_id, name, number) values (${company}, 'C', '55${status}${queueId ?? 0}${i}') returning id`,
      );
      await one(
        `insert into tickets (company_id, contact_id, queue_id, status) values (${company}, ${contact}, ${queueId}, '${status}') returning id`,
      );
    }
  };
  await plant('open', queue, 3);
  await plant('pending', null, 2);
  await plant('closed', queue, 4);

  await migrateRest();
  const counts = async () =>
    (
      await client.query<{ status: string; queue_id: number | null; tickets: number }>(
        `select status, queue_id, tickets from ticket_counts where company_id = ${company} and tickets <> 0 order by status, queue_id nulls first`,
      )
    ).rows;
  expect(await counts()).toEqual([
    { status: 'closed', queue_id: queue, tickets: 4 },
    { status: 'open', queue_id: queue, tickets: 3 },
    { status: 'pending', queue_id: null, tickets: 2 },
  ]);
  await client.query(
    `update tickets set status = 'closed' where company_id = ${company} and status = 'pending'`,
  );
  expect(await counts()).toEqual([
    { status: 'closed', queue_id: null, tickets: 2 },
    { status: 'closed', queue_id: queue, tickets: 4 },
    { status: 'open', queue_id: queue, tickets: 3 },
  ]);
});

it('counts the unread tickets already there, then follows them', { timeout: 120_000 }, async () => {
  const { client, one, migrateRest } = await migratedBefore('ticket-counts-unread');
  const company = await one(`insert into companies (name) values ('A') returning id`);
  const plant = async (status: string, unread: number, n: number) => {
    for (let i = 0; i < n; i++) {
      const contact = await one(
        `insert into contacts (company_id, name, number) values (${company}, 'C', '55${status}${unread}${i}') returning id`,
      );
      await one(
        `insert into tickets (company_id, contact_id, status, unread_messages) values (${company}, ${contact}, '${status}', ${unread}) returning id`,
      );
    }
  };
  await plant('open', 2, 3);
  await plant('open', 0, 2);
  await plant('pending', 1, 1);
  await plant('closed', 0, 4);

  await migrateRest();
  const counts = async () =>
    (
      await client.query<{ status: string; tickets: number; unread: number }>(
        `select status, tickets, unread from ticket_counts where company_id = ${company} and tickets <> 0 order by status`,
      )
    ).rows;
  expect(await counts()).toEqual([
    { status: 'closed', tickets: 4, unread: 0 },
    { status: 'open', tickets: 5, unread: 3 },
    { status: 'pending', tickets: 1, unread: 1 },
  ]);
  // A read, a first unread message, a move carrying its mark.
  await client.query(
    `update tickets set unread_messages = 0 where id = (select min(id) from tickets where company_id = ${company} and status = 'open' and unread_messages > 0)`,
  );
  await client.query(
    `update tickets set unread_messages = unread_messages + 1 where company_id = ${company} and status = 'closed'`,
  );
  await client.query(
    `update tickets set status = 'open' where company_id = ${company} and status = 'pending'`,
  );
  expect(await counts()).toEqual([
    { status: 'closed', tickets: 4, unread: 4 },
    { status: 'open', tickets: 6, unread: 3 },
  ]);
});
