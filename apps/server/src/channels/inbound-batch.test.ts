/**
 * Group commit of the inbound pipeline: messages arriving together are stored by
 * one batch, each once, with one live ticket per conversation, events after commit, and a poisoned
 * message failing alone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { NormalizedMessage } from '@zapdesk/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, messages, tickets } from '../db/schema/index.js';
import { LocalStorage } from '../lib/storage/local-storage.js';
import { findMessage } from '../modules/messages/message-repository.js';
import { findTicket } from '../modules/tickets/ticket-repository.js';
import { customerNumber, inboundMessage, type TenantFixture } from '../test/factories.js';
import { type ConnectionFixture, openConnectionFixture } from '../test/fixtures.js';
import type { TestApp } from '../test/test-app.js';
import { type BatchOptions, InboundPipeline, type IngestResult } from './inbound-pipeline.js';
import { MediaStore } from './media-store.js';

let t: TestApp;
let a: TenantFixture;
let whatsappId: number;
let ref: ConnectionFixture['ref'];
let mediaDir: string;
beforeAll(async () => {
  ({ t, a, whatsappId, ref } = await openConnectionFixture());
  mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-batch-'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(mediaDir, { recursive: true, force: true });
});

/** A pipeline of the app's context with one lane and a wide window: concurrent calls share a batch. */
function pipeline(options: Partial<BatchOptions> = {}) {
  return new InboundPipeline(t.app.ctx, new MediaStore(new LocalStorage(mediaDir)), t.app.jobs, {
    lanes: 1,
    windowMs: 30,
    ...options,
  });
}

/** A contact with a live ticket (its first message stored through the app's pipeline). */
async function knownContact(): Promise<string> {
  const from = customerNumber();
  expect(await t.app.pipeline.ingest(ref(), inboundMessage(from, 'primeira'))).toBeTruthy();
  return from;
}

async function storedCount(wids: string[]): Promise<Map<string, number>> {
  const rows = await t.app.ctx.db
    .select({ wid: messages.wid, n: sql<number>`count(*)::int` })
    .from(messages)
    .where(and(eq(messages.whatsappId, whatsappId), inArray(messages.wid, wids)))
    .groupBy(messages.wid);
  return new Map(rows.map((r) => [r.wid!, r.n]));
}

async function ticketsOf(from: string) {
  const [contact] = await t.app.ctx.db
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, a.companyId), eq(contacts.number, from)));
  if (!contact) return [];
  return t.app.ctx.db.select().from(tickets).where(eq(tickets.contactId, contact.id));
}

describe('inbound group commit', () => {
  it('stores concurrent arrivals of known contacts in one batch, one statement', async () => {
    const known = await Promise.all(Array.from({ length: 6 }, () => knownContact()));
    const p = pipeline();
    const sent = known.map((from, i) => inboundMessage(from, `junto ${i}`));
    const results = await Promise.all(sent.map((m) => p.ingest(ref(), m)));
    expect(results.every(Boolean)).toBe(true);
    expect(p.stats).toMatchObject({ batches: 1, messages: 6, largest: 6, retriedAlone: 0 });
    const counts = await storedCount(sent.map((m) => m.providerId));
    expect([...counts.values()]).toEqual([1, 1, 1, 1, 1, 1]);
    for (const [i, from] of known.entries()) {
      const [ticket] = await ticketsOf(from);
      expect(ticket).toMatchObject({ unreadMessages: 2, lastMessage: `junto ${i}` });
      expect(results[i]!.ticket.id).toBe(ticket!.id);
      expect(results[i]!.message.body).toBe(`junto ${i}`);
    }
    // Control: calls one window apart are two batches.
    const [from] = known;
    await p.ingest(ref(), inboundMessage(from!, 'depois 1'));
    await p.ingest(ref(), inboundMessage(from!, 'depois 2'));
    expect(p.stats.batches).toBe(3);
  });

  it('appends several messages of one chat in one batch in order, the ticket counting them all', async () => {
    const from = await knownContact();
    const p = pipeline();
    const sent = Array.from({ length: 5 }, (_, i) => inboundMessage(from, `seguida ${i}`));
    const results = await Promise.all(sent.map((m) => p.ingest(ref(), m)));
    expect(p.stats.batches).toBe(1);
    const ids = results.map((r) => r!.message.id);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    const [ticket] = await ticketsOf(from);
    expect(ticket).toMatchObject({ unreadMessages: 6, lastMessage: 'seguida 4' });
  });

  it('stores a provider id once, redelivered inside a batch or across batches', async () => {
    const from = await knownContact();
    const fresh = customerNumber();
    const p = pipeline();
    const one = inboundMessage(from, 'uma vez');
    const two = inboundMessage(fresh, 'novo uma vez');
    const first = await Promise.all([one, one, { ...one }, two, { ...two }].map((m) => p.ingest(ref(), m)));
    expect(p.stats.batches).toBe(1);
    expect(first.filter(Boolean)).toHaveLength(2);
    const again = await Promise.all([one, two, { ...one }].map((m) => p.ingest(ref(), m)));
    expect(p.stats.batches).toBe(2);
    expect(again.filter(Boolean)).toHaveLength(0);
    const counts = await storedCount([one.providerId, two.providerId]);
    expect(counts.get(one.providerId)).toBe(1);
    expect(counts.get(two.providerId)).toBe(1);
    expect((await ticketsOf(from))[0]?.unreadMessages).toBe(2);
    expect((await ticketsOf(fresh))[0]?.unreadMessages).toBe(1);
  });

  it('opens exactly one ticket for two messages of a new contact in one batch', async () => {
    const p = pipeline();
    const from = customerNumber();
    const other = customerNumber();
    const results = await Promise.all([
      p.ingest(ref(), inboundMessage(from, 'olá')),
      p.ingest(ref(), inboundMessage(other, 'oi')),
      p.ingest(ref(), inboundMessage(from, 'tudo bem?')),
    ]);
    expect(p.stats).toMatchObject({ batches: 1, retriedAlone: 0 });
    const rows = await ticketsOf(from);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'pending', unreadMessages: 2, lastMessage: 'tudo bem?' });
    expect(results[0]!.ticket.id).toBe(rows[0]!.id);
    expect(results[2]!.ticket.id).toBe(rows[0]!.id);
    expect([results[0]!.ticketCreated, results[2]!.ticketCreated]).toEqual([true, false]);
    expect(await ticketsOf(other)).toHaveLength(1);
  });

  it('emits each message only after its batch committed', async () => {
    const known = await Promise.all([knownContact(), knownContact()]);
    const p = pipeline();
    const sent = [
      inboundMessage(known[0]!, 'vista 1'),
      inboundMessage(customerNumber(), 'vista 2 (contato novo)'),
      inboundMessage(known[1]!, 'vista 3'),
    ];
    // At each emit, look from another connection (Postgres) whether the message is there.
    const seen: Promise<{ wid: string; visible: number }>[] = [];
    const realtime = t.app.ctx.realtime;
    const original = realtime.toTicket.bind(realtime);
    realtime.toTicket = ((ticket, channel, payload) => {
      const body = payload as { action?: string; message?: { body: string } };
      const message = sent.find((m) => m.body === body.message?.body);
      if (channel === 'appMessage' && body.action === 'create' && message) {
        seen.push(
          t.app.ctx.db
            .select({ n: sql<number>`count(*)::int` })
            .from(messages)
            .where(and(eq(messages.whatsappId, whatsappId), eq(messages.wid, message.providerId)))
            .then(([row]) => ({ wid: message.providerId, visible: row!.n })),
        );
      }
      return original(ticket, channel, payload);
    }) as typeof realtime.toTicket;
    try {
      const results = await Promise.all(sent.map((m) => p.ingest(ref(), m)));
      expect(results.every(Boolean)).toBe(true);
    } finally {
      realtime.toTicket = original;
    }
    expect(p.stats.batches).toBe(1);
    const views = await Promise.all(seen);
    expect(views.map((v) => v.wid).sort()).toEqual(sent.map((m) => m.providerId).sort());
    expect(views.every((v) => v.visible === 1)).toBe(true);
  });

  it('does not lose the batch-mates of a poisoned message', async () => {
    const known = await Promise.all([knownContact(), knownContact()]);
    const p = pipeline();
    // A date Postgres cannot hold: the whole multi-row statement fails on it.
    const poison = (from: string): NormalizedMessage => ({
      ...inboundMessage(from, 'veneno'),
      timestamp: -8.64e15,
    });
    // In the multi-row statement: it fails, and each message goes alone.
    const sent = [inboundMessage(known[0]!, 'são 1'), poison(known[1]!), inboundMessage(known[1]!, 'são 2')];
    const results = await Promise.allSettled(sent.map((m) => p.ingest(ref(), m)));
    expect(p.stats).toMatchObject({ batches: 1, retriedAlone: 1 });
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const counts = await storedCount(sent.map((m) => m.providerId));
    expect([...counts.keys()].sort()).toEqual([sent[0]!.providerId, sent[2]!.providerId].sort());
    expect((await ticketsOf(known[1]!))[0]).toMatchObject({ unreadMessages: 2, lastMessage: 'são 2' });

    // In the transaction of new conversations (the statement stores the known contact's message).
    const fresh = customerNumber();
    const later = [
      inboundMessage(known[0]!, 'são 3'),
      inboundMessage(fresh, 'são 4 (contato novo)'),
      poison(fresh),
      inboundMessage(fresh, 'são 5 (contato novo)'),
    ];
    const settled = await Promise.allSettled(later.map((m) => p.ingest(ref(), m)));
    expect(p.stats).toMatchObject({ batches: 2, retriedAlone: 2 });
    expect(settled.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const stored = await storedCount(later.map((m) => m.providerId));
    expect(stored.size).toBe(3);
    expect(stored.has(later[2]!.providerId)).toBe(false);
    const freshTickets = await ticketsOf(fresh);
    expect(freshTickets).toHaveLength(1);
    expect(freshTickets[0]).toMatchObject({ unreadMessages: 2, lastMessage: 'são 5 (contato novo)' });
  });

  it('answers what the plain queries read back, on random traffic', async () => {
    // A seeded generator: the same traffic on every run.
    let seed = 20261124;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
      return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
    };
    const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)]!;
    const chats = Array.from({ length: 10 }, (_, i) => ({ from: customerNumber(), name: `Pessoa ${i}` }));
    for (const chat of chats.slice(0, 5)) {
      await t.app.pipeline.ingest(ref(), inboundMessage(chat.from, 'antes', { senderName: chat.name }));
    }
    const p = pipeline({ lanes: 2, windowMs: 15 });
    const sentOf = new Map<string, NormalizedMessage[]>();
    const everSent: NormalizedMessage[] = [];
    const seen = new Set<string>();
    for (let round = 0; round < 6; round++) {
      const traffic: NormalizedMessage[] = [];
      for (let i = 0; i < 12 + Math.floor(random() * 12); i++) {
        const r = random();
        if (r < 0.1 && everSent.length + traffic.length > 0) {
          traffic.push({ ...pick([...everSent, ...traffic]) }); // a redelivery
          continue;
        }
        const chat = pick(chats);
        const earlier = [...(sentOf.get(chat.from) ?? []), ...traffic.filter((m) => m.chatId === chat.from)];
        traffic.push(
          inboundMessage(chat.from, `r${round} m${i} ${random().toString(36).slice(2, 8)}`, {
            senderName: chat.name,
            fromMe: r > 0.85,
            quotedProviderId: r > 0.6 && earlier.length ? pick(earlier).providerId : undefined,
          }),
        );
      }
      const results = await Promise.all(traffic.map((m) => p.ingest(ref(), m)));
      const lastOfTicket = new Map<number, IngestResult>();
      for (const [index, message] of traffic.entries()) {
        const result = results[index];
        // Stored once: the first time a provider id arrives, never again.
        expect(result === undefined).toBe(seen.has(message.providerId));
        if (!result) continue;
        seen.add(message.providerId);
        everSent.push(message);
        sentOf.set(message.chatId, [...(sentOf.get(message.chatId) ?? []), message]);
        expect(result.message).toEqual(await findMessage(t.app.ctx.db, a.companyId, result.message.id));
        lastOfTicket.set(result.ticket.id, result);
      }
      // The ticket of a chat's last message of the round is the stored one (earlier ones of the
      // same batch carry the same ticket, after the whole batch).
      for (const [ticketId, result] of lastOfTicket) {
        expect(result.ticket).toEqual(await findTicket(t.app.ctx.db, a.companyId, ticketId));
      }
    }
    expect(p.stats.batches).toBeLessThan(6 * 4);
    expect(p.stats.largest).toBeGreaterThan(4);
    for (const chat of chats) {
      const rows = await ticketsOf(chat.from);
      const stored = sentOf.get(chat.from) ?? [];
      if (!rows.length) {
        expect(stored).toEqual([]);
        continue;
      }
      expect(rows).toHaveLength(1);
      const inTicket = await t.app.ctx.db
        .select()
        .from(messages)
        .where(eq(messages.ticketId, rows[0]!.id))
        .orderBy(messages.id);
      // Every message once, in the order each chat sent it; the counters of the plain query.
      expect(inTicket.slice(-stored.length).map((m) => m.wid)).toEqual(stored.map((m) => m.providerId));
      expect(rows[0]!.unreadMessages).toBe(inTicket.filter((m) => !m.fromMe).length);
      expect(rows[0]!.lastMessage).toBe(inTicket.at(-1)!.body);
      for (const m of inTicket) {
        const sent = stored.find((s) => s.providerId === m.wid);
        if (!sent?.quotedProviderId) continue;
        const [quoted] = await t.app.ctx.db
          .select()
          .from(messages)
          .where(eq(messages.wid, sent.quotedProviderId));
        expect(m.quotedMsgId).toBe(quoted!.id);
      }
    }
  });
});
