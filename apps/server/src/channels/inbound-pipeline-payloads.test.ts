import type { NormalizedMessage } from '@zapdesk/shared';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { QUEUE_BOT_JOB } from '../automation/jobs.js';
import { contacts, messages, tags, tickets, ticketTags } from '../db/schema/index.js';
import { findMessage } from '../modules/messages/message-repository.js';
import { findTicket } from '../modules/tickets/ticket-repository.js';
import { a, ref, t, useConnectionSuite } from '../test/connection-suite.js';
import { customerNumber, inboundMessage } from '../test/factories.js';
import type { IngestResult } from './inbound-pipeline.js';

// The pipeline builds its event payloads from the statements that store the message (no read after
// the commit): they must equal what findMessage and findTicket answer once the message is stored.

useConnectionSuite();

const inbound = inboundMessage;

async function ingest(message: NormalizedMessage): Promise<IngestResult> {
  const result = await t.app.pipeline.ingest(ref(), message);
  expect(result).toBeDefined();
  expect(result!.message).toEqual(await findMessage(t.app.ctx.db, a.companyId, result!.message.id));
  expect(result!.ticket).toEqual(await findTicket(t.app.ctx.db, a.companyId, result!.ticket.id));
  return result!;
}

async function botJobs(messageId: number): Promise<number> {
  const { rows } = await t.app.ctx.db.execute(
    sql`select count(*)::int as n from pgboss.job where name = ${QUEUE_BOT_JOB} and data->>'messageId' = ${String(messageId)}`,
  );
  return Number((rows[0] as { n: number }).n);
}

describe('inbound pipeline payloads', () => {
  it('equal the stored message and ticket along a conversation', async () => {
    const from = customerNumber();
    const first = await ingest(inbound(from, 'primeira', { senderName: 'Bia' }));
    expect(first.ticketCreated).toBe(true);
    expect(await botJobs(first.message.id)).toBe(1);

    // Assigned, queued and tagged: the payload carries user, queue, connection and tags.
    const [tag] = await t.app.ctx.db
      .insert(tags)
      .values({ companyId: a.companyId, name: `vip ${customerNumber()}`, color: '#ff0000' })
      .returning();
    await t.app.ctx.db
      .insert(ticketTags)
      .values({ companyId: a.companyId, ticketId: first.ticket.id, tagId: tag!.id });
    await t.app.ctx.db
      .update(tickets)
      .set({ status: 'open', userId: a.agent.id, queueId: a.queueId })
      .where(eq(tickets.id, first.ticket.id));

    const original = inbound(from, 'pergunta', { senderName: 'Bia Lima' });
    const second = await ingest(original);
    expect(second.ticketCreated).toBe(false);
    expect(second.ticket).toMatchObject({
      id: first.ticket.id,
      status: 'open',
      user: { id: a.agent.id },
      queue: { id: a.queueId },
      unreadMessages: 2,
      lastMessage: 'pergunta',
      contact: { name: 'Bia Lima' },
      tags: [{ id: tag!.id, name: tag!.name, color: '#ff0000' }],
    });
    expect(await botJobs(second.message.id)).toBe(0);

    const reply = await ingest(inbound(from, 'complemento', { quotedProviderId: original.providerId }));
    expect(reply.message.quotedMsg).toMatchObject({ body: 'pergunta', contact: { name: 'Cliente' } });

    // Sent from the phone: no unread count, no contact rename.
    const own = await ingest(inbound(from, 'resposta do celular', { fromMe: true, senderName: 'Loja' }));
    expect(own.message).toMatchObject({ fromMe: true, ack: 1, read: true, contact: null });
    expect(own.ticket).toMatchObject({ unreadMessages: 3, contact: { name: 'Cliente' } });

    const [contact] = await t.app.ctx.db.select().from(contacts).where(eq(contacts.id, own.ticket.contactId));
    expect(contact?.name).toBe('Cliente');
  });

  it('queue a bot job for every message while the bot menu is open, and none for a duplicate', async () => {
    const from = customerNumber();
    const first = await ingest(inbound(from, 'oi'));
    await t.app.ctx.db.update(tickets).set({ chatbot: true }).where(eq(tickets.id, first.ticket.id));
    const answer = inbound(from, '1');
    const second = await ingest(answer);
    expect(second.ticketCreated).toBe(false);
    expect(await botJobs(second.message.id)).toBe(1);
    expect(await t.app.pipeline.ingest(ref(), answer)).toBeUndefined();
    await t.app.ctx.db.update(tickets).set({ chatbot: false }).where(eq(tickets.id, first.ticket.id));
    const third = await ingest(inbound(from, 'obrigado'));
    expect(await botJobs(third.message.id)).toBe(0);
    expect(await t.app.pipeline.ingest(ref(), { ...answer })).toBeUndefined();
    const [ticket] = await t.app.ctx.db.select().from(tickets).where(eq(tickets.id, first.ticket.id));
    expect(ticket?.unreadMessages).toBe(3);
  });

  it('find the contact under the other form of a Brazilian mobile number', async () => {
    const first = await ingest(inbound('5521987650001', 'com nove'));
    const second = await ingest(inbound('552187650001', 'sem nove'));
    expect(second.ticket.id).toBe(first.ticket.id);
    expect(second.ticket.contact.number).toBe('5521987650001');
  });

  it('keep a group message with its participant', async () => {
    await t.app.ctx.db.execute(
      sql`update settings set value = 'disabled' where company_id = ${a.companyId} and key = 'CheckMsgIsGroup'`,
    );
    const group = '120363000000000777';
    await ingest(inbound(group, 'primeira no grupo', { isGroup: true, senderNumber: '5511911112222' }));
    const second = await ingest(
      inbound(group, 'segunda no grupo', { isGroup: true, senderNumber: '5511933334444', senderName: 'Zé' }),
    );
    expect(second.ticket).toMatchObject({ isGroup: true, contact: { name: group, isGroup: true } });
  });

  it('store a reaction without touching the ticket preview', async () => {
    const from = customerNumber();
    const original = inbound(from, 'foto linda');
    const first = await ingest(original);
    const reaction = await ingest(
      inbound(from, '👍', { mediaType: 'reaction', reactionToProviderId: original.providerId }),
    );
    expect(reaction.message.reactionToId).toBe(first.message.id);
    expect(reaction.ticket).toMatchObject({ lastMessage: 'foto linda', unreadMessages: 1 });
  });

  it('append 50 concurrent messages of a known contact to its one live ticket, each once', async () => {
    const from = customerNumber();
    const first = await ingest(inbound(from, 'começo'));
    const batch = Array.from({ length: 50 }, (_, i) => inbound(from, `rajada ${i}`));
    const results = await Promise.all(
      [...batch, ...batch.slice(0, 10)].map((m) => t.app.pipeline.ingest(ref(), { ...m })),
    );
    expect(results.filter(Boolean)).toHaveLength(50);
    const rows = await t.app.ctx.db
      .select()
      .from(tickets)
      .where(eq(tickets.contactId, first.ticket.contactId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: first.ticket.id, unreadMessages: 51 });
    const stored = await t.app.ctx.db.select().from(messages).where(eq(messages.ticketId, first.ticket.id));
    expect(stored).toHaveLength(51);
  });

  it('reopen a closed ticket once when messages arrive together', async () => {
    const from = customerNumber();
    const first = await ingest(inbound(from, 'antes'));
    await t.app.ctx.db.update(tickets).set({ status: 'closed' }).where(eq(tickets.id, first.ticket.id));
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => t.app.pipeline.ingest(ref(), inbound(from, `depois ${i}`))),
    );
    expect(results.filter((r) => r?.ticketCreated)).toHaveLength(1);
    expect(new Set(results.map((r) => r?.ticket.id))).toEqual(new Set([first.ticket.id]));
    const [ticket] = await t.app.ctx.db.select().from(tickets).where(eq(tickets.id, first.ticket.id));
    expect(ticket).toMatchObject({ status: 'pending', unreadMessages: 20 });
  });

  it('keep a message stored on a live ticket when the emit fails after the commit', async () => {
    const from = customerNumber();
    await ingest(inbound(from, 'primeira'));
    const message = inbound(from, 'antes da queda');
    const original = t.app.ctx.realtime.toTicket.bind(t.app.ctx.realtime);
    t.app.ctx.realtime.toTicket = () => {
      throw new Error('crash after commit');
    };
    try {
      await expect(t.app.pipeline.ingest(ref(), message)).rejects.toThrow('crash after commit');
    } finally {
      t.app.ctx.realtime.toTicket = original;
    }
    const stored = await t.app.ctx.db.select().from(messages).where(eq(messages.wid, message.providerId));
    expect(stored).toHaveLength(1);
    expect(await t.app.pipeline.ingest(ref(), message)).toBeUndefined();
  });
});
