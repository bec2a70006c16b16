import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { messages, tickets } from '../db/schema/index.js';
import { a, t, useConnectionSuite, whatsappId } from '../test/connection-suite.js';
import { bearer, createUser, customerNumber, injectAs, injectMessage } from '../test/factories.js';
import { multipartBody, PNG } from '../test/multipart.js';
import { outboundProviderId } from './outbound-delivery.js';
import type { OutboundSender } from './outbound-sender.js';

useConnectionSuite();
const inject = injectAs(() => t.app);

/** Company A's admin sends `body` on ticket `ticketId` (answered 201); answers the stored message's id. */
async function postText(ticketId: number, body: string): Promise<number> {
  const res = await inject('POST', `/api/messages/${ticketId}`, a.admin, { body });
  expect(res.statusCode).toBe(201);
  return res.json()[0].id as number;
}

describe('POST /api/messages/:ticketId', () => {
  it('stores with ack 0, sends, signs when asked, quotes, and reaches the simulated phone', async () => {
    const from = customerNumber();
    const inbound = await injectMessage(t.app, a.admin, whatsappId, { from, body: 'Preciso de ajuda' });
    const res = await inject('POST', `/api/messages/${inbound.ticketId}`, a.agent, {
      body: 'Claro!',
      signMessage: true,
      quotedMsg: { id: inbound.id },
    });
    expect(res.statusCode).toBe(201);
    const [sent] = res.json();
    expect(sent).toMatchObject({
      fromMe: true,
      ack: 1,
      userId: a.agent.id,
      quotedMsg: { body: 'Preciso de ajuda' },
    });
    expect(sent.body).toMatch(/^\*User .+:\*\nClaro!$/);
    const outbox = t.app.simulator.outbox(whatsappId, from);
    expect(outbox.map((o) => [o.id, o.body])).toEqual([[sent.wid, sent.body]]);
    expect(outbox[0]?.quotedId).toMatch(/^SIMIN/);
  });

  it('refuses an empty body, a quoted message of another contact and an unknown ticket', async () => {
    const { ticketId } = await injectMessage(t.app, a.admin, whatsappId, {
      from: customerNumber(),
      body: 'x',
    });
    const other = await injectMessage(t.app, a.admin, whatsappId, { from: customerNumber(), body: 'y' });
    const blank = await inject('POST', `/api/messages/${ticketId}`, a.admin, { body: '   ' });
    expect(blank.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'body' });
    const wrongQuote = await inject('POST', `/api/messages/${ticketId}`, a.admin, {
      body: 'ok',
      quotedMsg: other.id,
    });
    expect(wrongQuote.json().error).toBe('ERR_NO_MESSAGE_FOUND');
    const missing = await inject('POST', '/api/messages/999999', a.admin, { body: 'ok' });
    expect(missing.json().error).toBe('ERR_NO_TICKET_FOUND');
  });

  it('marks a message to a stopped connection ERR_WAPP_NOT_INITIALIZED and a retry sends it exactly once', async () => {
    const from = customerNumber();
    const { ticketId } = await injectMessage(t.app, a.admin, whatsappId, { from, body: 'oi' });
    await t.app.sessions.stop(a.companyId, whatsappId);
    const failed = await inject('POST', `/api/messages/${ticketId}`, a.admin, { body: 'vai?' });
    expect(failed.statusCode).toBe(400);
    expect(failed.json().error).toBe('ERR_WAPP_NOT_INITIALIZED');
    const [messageId] = failed.json().messageIds;
    const [row] = await t.app.ctx.db.select().from(messages).where(eq(messages.id, messageId));
    expect(row).toMatchObject({ ack: -1, error: 'ERR_WAPP_NOT_INITIALIZED', wid: null, body: 'vai?' });
    // Sent again while still stopped: the same answer.
    const stillStopped = await inject('POST', `/api/messages/${messageId}/retry`, a.admin);
    expect(stillStopped.json()).toMatchObject({ error: 'ERR_WAPP_NOT_INITIALIZED', messageIds: [messageId] });
    await t.app.sessions.start(a.companyId, whatsappId);
    const retries = await Promise.all(
      [1, 2, 3].map(() => inject('POST', `/api/messages/${messageId}/retry`, a.admin)),
    );
    expect(retries.every((r) => r.statusCode === 200)).toBe(true);
    const outbox = t.app.simulator.outbox(whatsappId, from).filter((o) => o.body === 'vai?');
    expect(outbox).toHaveLength(1);
    const again = await inject('POST', `/api/messages/${messageId}/retry`, a.admin);
    expect(again.json().wid).toBe(outbox[0]!.id);
    expect(t.app.simulator.outbox(whatsappId, from).filter((o) => o.body === 'vai?')).toHaveLength(1);
  });

  it('keeps a message at ack 0 while the session is not running yet and sends it once it connects', async () => {
    const from = customerNumber();
    const { ticketId } = await injectMessage(t.app, a.admin, whatsappId, { from, body: 'oi' });
    // The process running the session died: no driver, stored status still CONNECTED (and on
    // Postgres the lease, this node's own, has not lapsed).
    await t.app.sessions.stop(a.companyId, whatsappId, { silent: true, keepLease: true });
    const waiting = await inject('POST', `/api/messages/${ticketId}`, a.admin, { body: 'espera a sessão' });
    expect(waiting.statusCode).toBe(201);
    const [message] = waiting.json();
    expect(message).toMatchObject({ ack: 0, wid: null, error: null });
    expect(t.app.simulator.outbox(whatsappId, from).map((o) => o.body)).not.toContain('espera a sessão');

    // The session starts again (restart, or the lease's new owner): the message goes out, once.
    await t.app.sessions.start(a.companyId, whatsappId, { force: false });
    const outbox = t.app.simulator.outbox(whatsappId, from).filter((o) => o.body === 'espera a sessão');
    expect(outbox).toHaveLength(1);
    const [row] = await t.app.ctx.db.select().from(messages).where(eq(messages.id, message.id));
    expect(row).toMatchObject({ wid: outbox[0]!.id, error: null });
    expect(row!.ack).toBeGreaterThanOrEqual(1);
    await t.app.sessions.tick();
    expect(t.app.simulator.outbox(whatsappId, from).filter((o) => o.body === 'espera a sessão')).toHaveLength(
      1,
    );
  });

  it("sends a message claimed by a dead process or a lapsed claim once; a live node's claim stays", async () => {
    const from = customerNumber();
    const { ticketId } = await injectMessage(t.app, a.admin, whatsappId, { from, body: 'oi' });
    await t.app.sessions.stop(a.companyId, whatsappId, { silent: true, keepLease: true });
    const post = (body: string) => postText(ticketId, body);
    const claim = (id: number, by: string, agoSeconds: number) =>
      t.app.ctx.db
        .update(messages)
        .set({ sendingBy: by, sendingAt: sql`now() - make_interval(secs => ${agoSeconds})` })
        .where(eq(messages.id, id));
    // A process of this node id claimed it and died before the driver answered (this is its restart).
    const dead = await post('reivindicada por um processo morto');
    await claim(dead, `${t.config.nodeId}/previous-process`, 1);
    // Another node claimed it long ago and never came back.
    const lapsed = await post('reivindicada há muito tempo');
    await claim(lapsed, 'gone-node/1', 3600);
    const fresh = await post('sem reivindicação');
    // Another live node is handing it to the session right now: not ours to send.
    const live = await post('reivindicada por um nó vivo');
    await claim(live, 'other-node/1', 1);

    await t.app.sessions.start(a.companyId, whatsappId, { force: false });
    // A second connect (a restart of the session in this process) sends nothing again.
    await t.app.sessions.start(a.companyId, whatsappId, { force: false });
    const sent = (body: string) => t.app.simulator.outbox(whatsappId, from).filter((o) => o.body === body);
    expect(sent('sem reivindicação')).toHaveLength(1);
    expect(sent('reivindicada por um processo morto')).toHaveLength(1);
    expect(sent('reivindicada há muito tempo')).toHaveLength(1);
    expect(sent('reivindicada por um nó vivo')).toHaveLength(0);
    const rows = await t.app.ctx.db
      .select({ id: messages.id, wid: messages.wid })
      .from(messages)
      .where(inArray(messages.id, [dead, lapsed, live, fresh]));
    const wids = Object.fromEntries(rows.map((r) => [r.id, r.wid]));
    expect(wids[dead]).toBe(sent('reivindicada por um processo morto')[0]!.id);
    expect(wids[lapsed]).toBe(sent('reivindicada há muito tempo')[0]!.id);
    expect(wids[live]).toBeNull();
  });

  it("holds a ticket's later messages behind an earlier one a dead process claimed, then sends them in order", async () => {
    const from = customerNumber();
    const { ticketId } = await injectMessage(t.app, a.admin, whatsappId, { from, body: 'oi' });
    const other = customerNumber();
    const otherTicket = (await injectMessage(t.app, a.admin, whatsappId, { from: other, body: 'oi' }))
      .ticketId;
    const post = postText;
    const phone = (n: string) => t.app.simulator.outbox(whatsappId, n).map((o) => o.body);
    await post(ticketId, 'passo 1');
    // Step 2 is stored while the session is away, and another node's process claims it and dies.
    await t.app.sessions.stop(a.companyId, whatsappId, { silent: true, keepLease: true });
    const two = await post(ticketId, 'passo 2');
    await t.app.ctx.db
      .update(messages)
      .set({ sendingBy: 'gone-node/1', sendingAt: sql`now()` })
      .where(eq(messages.id, two));
    await t.app.sessions.start(a.companyId, whatsappId, { force: false });
    // Step 3, stored after it, waits behind it; another ticket's message does not (control).
    const three = await post(ticketId, 'passo 3');
    await post(otherTicket, 'outro cliente');
    expect(phone(other)).toEqual(['outro cliente']);
    expect(phone(from)).toEqual(['passo 1']);
    const [held] = await t.app.ctx.db.select().from(messages).where(eq(messages.id, three));
    expect(held).toMatchObject({ ack: 0, wid: null, sendingBy: null });
    // A connect or a lease tick while the dead claim holds sends nothing of the ticket either.
    await t.app.sessions.start(a.companyId, whatsappId, { force: false });
    await t.app.sessions.tick();
    expect(phone(from)).toEqual(['passo 1']);

    // The dead claim lapses: the job queued for that moment sends step 2, then step 3, once each.
    await t.app.ctx.db
      .update(messages)
      .set({ sendingAt: sql`now() - interval '1 hour'` })
      .where(eq(messages.id, two));
    const { rows: due } = await t.app.ctx.db.execute(
      sql`update pgboss.job set start_after = now() - interval '1 second'
          where name = 'outbound-order' and state = 'created' and start_after > now() returning id`,
    );
    expect(due.length).toBeGreaterThan(0);
    await t.app.jobs.drain();
    expect(phone(from)).toEqual(['passo 1', 'passo 2', 'passo 3']);
    const rows = await t.app.ctx.db
      .select({ id: messages.id, wid: messages.wid })
      .from(messages)
      .where(inArray(messages.id, [two, three]));
    expect(rows.every((r) => r.wid !== null)).toBe(true);
    await t.app.jobs.drain();
    await t.app.sessions.start(a.companyId, whatsappId, { force: false });
    expect(phone(from)).toEqual(['passo 1', 'passo 2', 'passo 3']);
  });

  it('a message that failed for good holds nothing back; sent again, it goes before the ones behind it', async () => {
    const from = customerNumber();
    const { ticketId } = await injectMessage(t.app, a.admin, whatsappId, { from, body: 'oi' });
    const post = (body: string) => postText(ticketId, body);
    const phone = () => t.app.simulator.outbox(whatsappId, from).map((o) => o.body);
    await t.app.sessions.stop(a.companyId, whatsappId, { silent: true, keepLease: true });
    const failed = await post('falhou');
    // Its retries ran out while the session was away.
    await t.app.ctx.db
      .update(messages)
      .set({ ack: -1, error: 'ERR_SENDING_WAPP_MSG' })
      .where(eq(messages.id, failed));
    await t.app.sessions.start(a.companyId, whatsappId, { force: false });
    await post('depois da falha');
    expect(phone()).toEqual(['depois da falha']);
    const retried = await inject('POST', `/api/messages/${failed}/retry`, a.admin);
    expect(retried.statusCode).toBe(200);
    expect(phone()).toEqual(['depois da falha', 'falhou']);
  });

  it('stores a batch for several tickets in one transaction and delivers it in one pass, each once', async () => {
    const sender = (t.app.campaigns as unknown as { sender: OutboundSender }).sender;
    const one = customerNumber();
    const two = customerNumber();
    const first = await injectMessage(t.app, a.admin, whatsappId, { from: one, body: 'oi' });
    const second = await injectMessage(t.app, a.admin, whatsappId, { from: two, body: 'oi' });
    const ticketOf = async (id: number) =>
      (await t.app.ctx.db.select().from(tickets).where(eq(tickets.id, id)))[0]!;
    const [ticketA, ticketB] = [await ticketOf(first.ticketId), await ticketOf(second.ticketId)];
    const text = (body: string) => ({ body, mediaType: 'chat' as const, mediaUrl: null, mediaName: null });
    const ids = await t.app.ctx.db.transaction((tx) =>
      sender.storeManyWithin(tx, a.companyId, [
        { ticket: ticketA, rows: [text('lote 1a'), text('lote 1b')] },
        { ticket: ticketB, rows: [text('lote 2')] },
        { ticket: ticketA, rows: [text('lote 3')] },
      ]),
    );
    expect(ids.map((group) => group.length)).toEqual([2, 1, 1]);
    const stored = await t.app.ctx.db
      .select({ id: messages.id, body: messages.body, ticketId: messages.ticketId, ack: messages.ack })
      .from(messages)
      .where(inArray(messages.id, ids.flat()));
    const byId = new Map(stored.map((m) => [m.id, m]));
    expect(ids.map((group) => group.map((id) => byId.get(id)!.body))).toEqual([
      ['lote 1a', 'lote 1b'],
      ['lote 2'],
      ['lote 3'],
    ]);
    expect(byId.get(ids[1]![0]!)!.ticketId).toBe(ticketB.id);
    expect(stored.every((m) => m.ack === 0)).toBe(true);
    expect((await ticketOf(ticketA.id)).lastMessage).toBe('lote 3');
    // Another live node is handing one of them to the session: it is left to that node.
    await t.app.ctx.db
      .update(messages)
      .set({ sendingBy: 'other-node/1', sendingAt: sql`now()` })
      .where(eq(messages.id, ids[1]![0]!));
    const sent = await sender.deliverStoredMany(a.companyId, ids.flat());
    expect(sent.map((m) => m.id)).toEqual(ids.flat());
    expect(sent.map((m) => m.ack > 0)).toEqual([true, true, false, true]);
    const outbox = (n: string) => t.app.simulator.outbox(whatsappId, n).map((o) => o.body);
    expect(outbox(one)).toEqual(['lote 1a', 'lote 1b', 'lote 3']);
    expect(outbox(two)).toEqual([]);
    // A second pass (a repeated run) sends nothing again.
    await sender.deliverStoredMany(a.companyId, ids.flat());
    expect(outbox(one)).toHaveLength(3);
  });

  it('a message the phone got but whose id was not stored (a crash in between) reaches it once', async () => {
    const sender = (t.app.campaigns as unknown as { sender: OutboundSender }).sender;
    const from = customerNumber();
    const { ticketId } = await injectMessage(t.app, a.admin, whatsappId, { from, body: 'oi' });
    const ticket = (await t.app.ctx.db.select().from(tickets).where(eq(tickets.id, ticketId)))[0]!;
    const text = (body: string) => ({ body, mediaType: 'chat' as const, mediaUrl: null, mediaName: null });
    const groups = await t.app.ctx.db.transaction((tx) =>
      sender.storeManyWithin(tx, a.companyId, [
        { ticket, rows: [text('antes da queda')] },
        { ticket, rows: [text('lote antes da queda a'), text('lote antes da queda b')] },
      ]),
    );
    const [single] = groups[0]!;
    const [batchA, batchB] = groups[1]!;
    await sender.deliverStored(a.companyId, ticket, [single!]);
    await sender.deliverStoredMany(a.companyId, [batchA!, batchB!]);
    const ids = [single!, batchA!, batchB!];
    const rows = await t.app.ctx.db
      .select({ id: messages.id, wid: messages.wid, createdAt: messages.createdAt })
      .from(messages)
      .where(inArray(messages.id, ids));
    const firstWids = new Map(rows.map((r) => [r.id, r.wid]));
    // Each carried the id derived from its row, not one the driver made up.
    for (const row of rows) expect(row.wid).toBe(outboundProviderId(row));
    // The process died after the driver took them, before their ids were stored: after the restart
    // they are unsent messages again, claimed by the dead process of this node id.
    await t.app.ctx.db
      .update(messages)
      .set({ wid: null, ack: 0, sendingBy: `${t.config.nodeId}/previous-process`, sendingAt: sql`now()` })
      .where(inArray(messages.id, ids));
    await sender.deliverStored(a.companyId, ticket, [single!]);
    await sender.deliverStoredMany(a.companyId, [batchA!, batchB!]);
    const bodies = t.app.simulator.outbox(whatsappId, from).map((o) => o.body);
    expect(bodies).toEqual(['antes da queda', 'lote antes da queda a', 'lote antes da queda b']);
    const again = await t.app.ctx.db
      .select({ id: messages.id, wid: messages.wid, ack: messages.ack })
      .from(messages)
      .where(inArray(messages.id, ids));
    for (const row of again) {
      expect(row.wid).toBe(firstWids.get(row.id));
      expect(row.ack).toBeGreaterThan(0);
    }
  });

  it('sends uploaded files checked by content and refuses other types', async () => {
    const from = customerNumber();
    const { ticketId } = await injectMessage(t.app, a.admin, whatsappId, { from, body: 'manda a foto' });
    const upload = multipartBody([
      { name: 'body', value: 'pixel.png' },
      { name: 'medias', value: PNG, filename: 'pixel.png', type: 'image/png' },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/messages/${ticketId}`,
      headers: { ...bearer(a.admin), ...upload.headers },
      payload: upload.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()[0]).toMatchObject({ mediaType: 'image', body: '', mediaName: 'pixel.png' });
    expect(t.app.simulator.outbox(whatsappId, from).at(-1)?.kind).toBe('image');

    const disguised = multipartBody([
      {
        name: 'medias',
        value: Buffer.from('#!/bin/sh\nrm -rf /\n'),
        filename: 'photo.png',
        type: 'image/png',
      },
    ]);
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/messages/${ticketId}`,
      headers: { ...bearer(a.admin), ...disguised.headers },
      payload: disguised.payload,
    });
    expect(refused.statusCode).toBe(415);
    expect(refused.json()).toMatchObject({ error: 'ERR_UNSUPPORTED_MEDIA_TYPE', field: 'medias' });
  });
});

describe('DELETE /api/messages/:id', () => {
  it('deletes own messages for everyone, refuses the contact messages and colleagues', async () => {
    const from = customerNumber();
    const inbound = await injectMessage(t.app, a.admin, whatsappId, { from, body: 'cliente' });
    const sent = (
      await inject('POST', `/api/messages/${inbound.ticketId}`, a.agent, { body: 'apagar' })
    ).json()[0];
    const colleague = await createUser(t.app, a.companyId);
    expect((await inject('DELETE', `/api/messages/${sent.id}`, colleague)).statusCode).toBe(403);
    expect((await inject('DELETE', `/api/messages/${inbound.id}`, a.admin)).statusCode).toBe(403);
    const res = await inject('DELETE', `/api/messages/${sent.id}`, a.agent);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ isDeleted: true, body: '' });
    expect(t.app.simulator.outbox(whatsappId, from).some((o) => o.id === sent.wid)).toBe(false);
  });
});
