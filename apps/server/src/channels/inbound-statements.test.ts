/**
 * The inbound pipeline's database work per batch: a batch of messages of known
 * conversations costs a bounded number of statements, whatever its size — the per-message hooks
 * (campaign opt-out, campaign confirmation) answer from caches instead of querying per message —
 * and so does a batch of new conversations (contacts, tickets, messages and chatbot jobs each
 * written batch-wide), keeping exactly-once storage and one live ticket per conversation.
 */
import os from 'node:os';
import type { NormalizedMessage } from '@zapdesk/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { QUEUE_BOT_JOB } from '../automation/jobs.js';
import { contacts, messages, tickets } from '../db/schema/index.js';
import { LocalStorage } from '../lib/storage/local-storage.js';
import { customerNumber, inboundMessage, type TenantFixture } from '../test/factories.js';
import { type ConnectionFixture, openConnectionFixture } from '../test/fixtures.js';
import type { TestApp } from '../test/test-app.js';
import { InboundPipeline, type IngestResult } from './inbound-pipeline.js';
import { MediaStore } from './media-store.js';

let t: TestApp;
let a: TenantFixture;
let ref: ConnectionFixture['ref'];
beforeAll(async () => {
  ({ t, a, ref } = await openConnectionFixture());
  // The setup wrote companies and plans: the caches bypass themselves for a moment after that.
  await vi.waitFor(() => expect(t.app.ctx.caches?.usable).toBe(true), { timeout: 5000, interval: 50 });
});
afterAll(async () => {
  await t.close();
});

/** Customers with a live ticket each (their first message stored). */
async function knownContacts(n: number): Promise<string[]> {
  const numbers = Array.from({ length: n }, () => customerNumber());
  for (const from of numbers) {
    expect(await t.app.pipeline.ingest(ref(), inboundMessage(from, 'primeira'))).toBeTruthy();
  }
  return numbers;
}

/** The statements the app sends while the messages (one per customer, all at once) are ingested. */
async function statementsFor(numbers: string[], body: string): Promise<string[]> {
  const seen: string[] = [];
  const stop = t.database.onStatement((text) => seen.push(text));
  try {
    const results = await Promise.all(
      numbers.map((from) => t.app.pipeline.ingest(ref(), inboundMessage(from, body))),
    );
    expect(results.every(Boolean)).toBe(true);
  } finally {
    stop();
  }
  return seen;
}

/** The statements' first characters, one a line (the failure message). */
const listing = (statements: string[]) =>
  statements.map((text) => text.replace(/\s+/g, ' ').slice(0, 90)).join('\n');

describe('inbound statements per batch', () => {
  it('does not grow with the number of messages of known conversations', async () => {
    const customers = await knownContacts(40);
    // Warm-up: the per-company caches fill once.
    await statementsFor(customers.slice(0, 2), 'oi');
    const few = await statementsFor(customers.slice(0, 4), 'tudo bem?');
    const many = await statementsFor(customers, 'qual o horário?');
    // One multi-row statement per lane (the app's pipeline has two) and its retries' margin, nothing
    // per message: the opt-out keyword, the confirmation state and the webhooks come from caches.
    expect(few.length, listing(few)).toBeLessThanOrEqual(4);
    expect(many.length, listing(many)).toBeLessThanOrEqual(4);
  });
});

/** A pipeline of the app's context with one lane and a wide window: concurrent calls share a batch. */
function onePipeline() {
  // Text messages only: the media store is never written.
  return new InboundPipeline(t.app.ctx, new MediaStore(new LocalStorage(os.tmpdir())), t.app.jobs, {
    lanes: 1,
    windowMs: 30,
  });
}

/**
 * Shows `onText` the statements sent inside transactions on PGlite, which the database handle's
 * observers do not see there (on Postgres they see every statement of the pool's connections).
 * Returns the undo function.
 */
function observeTransactions(onText: (text: string) => void): () => void {
  if (t.database.kind !== 'pglite') return () => {};
  const db = t.app.ctx.db;
  const original = db.transaction;
  db.transaction = ((run, config) =>
    original.call(
      db,
      (tx) => {
        const client = (tx as unknown as { session: { client: { query: (...args: unknown[]) => unknown } } })
          .session.client;
        const query = client.query.bind(client);
        client.query = (...args: unknown[]) => {
          onText(String(args[0]));
          return query(...args);
        };
        return run(tx);
      },
      config,
    )) as typeof db.transaction;
  return () => {
    db.transaction = original;
  };
}

/**
 * Ingests the messages at once through `pipeline` (one batch); answers the results, the statements
 * sent meanwhile, and the `contact` create events emitted.
 */
async function batchOf(pipeline: InboundPipeline, sent: NormalizedMessage[]) {
  const statements: string[] = [];
  const created: string[] = [];
  const stop = t.database.onStatement((text) => statements.push(text));
  const unobserve = observeTransactions((text) => statements.push(text));
  const realtime = t.app.ctx.realtime;
  const original = realtime.toCompany.bind(realtime);
  realtime.toCompany = ((companyId, channel, payload) => {
    const body = payload as { action?: string; contact?: { number: string } };
    if (channel === 'contact' && body.action === 'create' && body.contact) created.push(body.contact.number);
    return original(companyId, channel, payload);
  }) as typeof realtime.toCompany;
  const batches = pipeline.stats.batches;
  try {
    const results = await Promise.all(sent.map((m) => pipeline.ingest(ref(), m)));
    expect(pipeline.stats.batches - batches).toBe(1);
    return { results, statements, created };
  } finally {
    stop();
    unobserve();
    realtime.toCompany = original;
  }
}

async function ticketsOf(number: string) {
  return t.app.ctx.db
    .select({ id: tickets.id, status: tickets.status, unreadMessages: tickets.unreadMessages })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(and(eq(contacts.companyId, a.companyId), eq(contacts.number, number)));
}

async function storedCount(wids: string[]): Promise<number> {
  const [row] = await t.app.ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(messages)
    .where(inArray(messages.wid, wids));
  return row!.n;
}

async function botJobs(ticketId: number): Promise<number> {
  const { rows } = await t.app.ctx.db.execute(
    sql`select count(*)::int as n from pgboss.job where name = ${QUEUE_BOT_JOB} and data->>'ticketId' = ${String(ticketId)}`,
  );
  return Number((rows[0] as { n: number }).n);
}

describe('new conversations per batch', () => {
  it('cost the same few statements for 4 or 40 new contacts', async () => {
    const p = onePipeline();
    // Warm-up: the per-company caches fill once.
    await batchOf(p, [inboundMessage(customerNumber(), 'oi')]);
    const few = await batchOf(
      p,
      Array.from({ length: 4 }, (_, i) => inboundMessage(customerNumber(), `novo ${i}`)),
    );
    const manyNumbers = Array.from({ length: 40 }, () => customerNumber());
    const many = await batchOf(
      p,
      manyNumbers.map((from, i) => inboundMessage(from, `novo ${i}`, { senderName: `Pessoa ${i}` })),
    );
    // The steady-state statement (which finds no live ticket), then one transaction: contacts,
    // tickets, messages, chatbot jobs; nothing per message.
    expect(few.statements.length, listing(few.statements)).toBeLessThanOrEqual(8);
    expect(many.statements.length, listing(many.statements)).toBeLessThanOrEqual(8);
    expect(p.stats.retriedAlone).toBe(0);
    expect(many.results.every((r) => r?.ticketCreated)).toBe(true);
    expect(new Set(many.results.map((r) => r!.ticket.id)).size).toBe(40);
    expect([...many.created].sort()).toEqual([...manyNumbers].sort());
    for (const [i, result] of many.results.entries()) {
      expect(result!.ticket.contact.name).toBe(`Pessoa ${i}`);
      expect(await botJobs(result!.ticket.id)).toBe(1);
    }
  });

  it('puts the messages of one new contact in one batch on one new ticket', async () => {
    const p = onePipeline();
    const numbers = Array.from({ length: 5 }, () => customerNumber());
    const sent = numbers.flatMap((from) => [
      inboundMessage(from, 'primeira', { senderName: 'Ana' }),
      inboundMessage(from, 'segunda', { senderName: 'Ana Maria' }),
    ]);
    const { results, statements, created } = await batchOf(p, sent);
    expect(statements.length, listing(statements)).toBeLessThanOrEqual(8);
    expect(p.stats.retriedAlone).toBe(0);
    expect(created.sort()).toEqual([...numbers].sort());
    for (const [i, from] of numbers.entries()) {
      const [first, second] = [results[2 * i]!, results[2 * i + 1]!];
      const rows = await ticketsOf(from);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: 'pending', unreadMessages: 2 });
      expect([first.ticket.id, second.ticket.id]).toEqual([rows[0]!.id, rows[0]!.id]);
      expect([first.ticketCreated, second.ticketCreated]).toEqual([true, false]);
      expect(second.message.id).toBeGreaterThan(first.message.id);
      expect(second.ticket.contact.name).toBe('Ana Maria');
      // The chatbot hears the conversation's first message (its menu is not open yet).
      expect(await botJobs(rows[0]!.id)).toBe(1);
    }
  });

  it('stores a replayed message nothing twice and leaves its closed ticket closed', async () => {
    const p = onePipeline();
    const from = customerNumber();
    const first = inboundMessage(from, 'uma vez');
    const stored = await p.ingest(ref(), first);
    await t.app.ctx.db.update(tickets).set({ status: 'closed' }).where(eq(tickets.id, stored!.ticket.id));
    const fresh = customerNumber();
    const sent = [{ ...first }, inboundMessage(fresh, 'novo'), { ...first }];
    const { results } = await batchOf(p, sent);
    expect(results.map(Boolean)).toEqual([false, true, false]);
    expect(await storedCount([first.providerId, sent[1]!.providerId])).toBe(2);
    expect(await ticketsOf(from)).toMatchObject([{ id: stored!.ticket.id, status: 'closed' }]);
    expect(await ticketsOf(fresh)).toMatchObject([{ status: 'pending', unreadMessages: 1 }]);
  });

  it('stores a mixed batch: known conversations, new contacts and a reopened ticket', async () => {
    const p = onePipeline();
    const known = await knownContacts(3);
    const closedFrom = customerNumber();
    const closed = await p.ingest(ref(), inboundMessage(closedFrom, 'antes'));
    await t.app.ctx.db.update(tickets).set({ status: 'closed' }).where(eq(tickets.id, closed!.ticket.id));
    const fresh = Array.from({ length: 3 }, () => customerNumber());
    const sent = [
      inboundMessage(known[0]!, 'conhecido 0'),
      inboundMessage(fresh[0]!, 'novo 0'),
      inboundMessage(closedFrom, 'de volta'),
      inboundMessage(known[1]!, 'conhecido 1'),
      inboundMessage(fresh[1]!, 'novo 1'),
      inboundMessage(fresh[0]!, 'novo 0 de novo'),
      inboundMessage(known[2]!, 'conhecido 2'),
      inboundMessage(fresh[2]!, 'novo 2'),
    ];
    const { results, statements, created } = await batchOf(p, sent);
    expect(statements.length, listing(statements)).toBeLessThanOrEqual(8);
    expect(p.stats.retriedAlone).toBe(0);
    expect(await storedCount(sent.map((m) => m.providerId))).toBe(sent.length);
    expect(created.sort()).toEqual([...fresh].sort());
    const byBody = new Map<string, IngestResult>(results.map((r, i) => [sent[i]!.body, r!]));
    for (const [i, from] of known.entries()) {
      const [ticket] = await ticketsOf(from);
      expect(byBody.get(`conhecido ${i}`)).toMatchObject({
        ticketCreated: false,
        ticket: { id: ticket!.id },
      });
      expect(ticket!.unreadMessages).toBe(2);
    }
    // The closed ticket is reopened (same ticket), as the first message of a new conversation.
    expect(byBody.get('de volta')).toMatchObject({
      ticketCreated: true,
      ticket: { id: closed!.ticket.id, status: 'pending' },
    });
    expect(await ticketsOf(closedFrom)).toMatchObject([{ status: 'pending', unreadMessages: 1 }]);
    expect(await ticketsOf(fresh[0]!)).toMatchObject([{ status: 'pending', unreadMessages: 2 }]);
    expect(byBody.get('novo 0 de novo')!.ticket.id).toBe(byBody.get('novo 0')!.ticket.id);
  });
});
