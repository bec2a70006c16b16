import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { contacts, messages, tickets, whatsapps } from '../../db/schema/index.js';
import { a, t, useConnectionSuite, whatsappId } from '../../test/connection-suite.js';
import {
  createCompanyAdmin,
  createConnectedTenant,
  createSimulatorConnection,
  customerNumber,
  injectAs,
  injectMessage,
} from '../../test/factories.js';
import { multipartBody, PNG } from '../../test/multipart.js';
import { EXTERNAL_API_RATE_PER_MINUTE } from './external-api.js';

const TOKEN = 'tok_a_0123456789abcdef';

const send = (token: string | undefined, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: '/api/messages/send',
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    payload,
  });

const outbox = async (number: string) => {
  const res = await inject('GET', `/api/simulator/${whatsappId}/outbox?number=${number}`, a.admin);
  return res.json() as { body?: string; kind?: string; mediaType?: string }[];
};

useConnectionSuite();
const inject = injectAs(() => t.app);
beforeAll(async () => {
  await t.app.ctx.db.update(whatsapps).set({ token: TOKEN }).where(eq(whatsapps.id, whatsappId));
});

describe('POST /api/messages/send', () => {
  it('sends a text to a new number: contact and pending ticket created, the stored message id answered', async () => {
    const number = customerNumber();
    const res = await send(TOKEN, { number: `+${number}`, body: 'Seu pedido saiu para entrega' });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json();
    const [stored] = await t.app.ctx.db.select().from(messages).where(eq(messages.id, answer.id));
    expect(stored).toMatchObject({
      companyId: a.companyId,
      body: 'Seu pedido saiu para entrega',
      fromMe: true,
      userId: null,
      whatsappId,
      ticketId: answer.ticketId,
    });
    expect(stored!.ack).toBeGreaterThan(0);
    const [ticket] = await t.app.ctx.db.select().from(tickets).where(eq(tickets.id, answer.ticketId));
    expect(ticket).toMatchObject({ companyId: a.companyId, whatsappId, status: 'pending', userId: null });
    const [contact] = await t.app.ctx.db.select().from(contacts).where(eq(contacts.id, answer.contactId));
    expect(contact!.companyId).toBe(a.companyId);
    expect((await outbox(contact!.number)).map((m) => m.body)).toContain('Seu pedido saiu para entrega');
  });

  it("reuses the contact's live ticket", async () => {
    const from = customerNumber();
    const inbound = await injectMessage(t.app, a.admin, whatsappId, { from, body: 'Oi' });
    const res = await send(TOKEN, { number: from, body: 'Resposta do ERP' });
    expect(res.statusCode).toBe(200);
    expect(res.json().ticketId).toBe(inbound.ticketId);
    const again = await send(TOKEN, { number: from, body: 'De novo' });
    expect(again.json().ticketId).toBe(inbound.ticketId);
    expect(again.json().id).toBeGreaterThan(res.json().id);
  });

  it("writes only on the contact's live ticket of its own connection, never another company's", async () => {
    const from = customerNumber();
    // The same customer talks to company B and to another connection of company A.
    const b = await createConnectedTenant(t.app);
    const bTicket = await injectMessage(t.app, b.admin, b.whatsappId, { from, body: 'Oi B' });
    const aOther = await createSimulatorConnection(t.app, a.admin);
    const aOtherTicket = await injectMessage(t.app, a.admin, aOther, { from, body: 'Oi outra' });
    const res = await send(TOKEN, { number: from, body: 'Pela API de A' });
    expect(res.statusCode, res.body).toBe(200);
    const [ticket] = await t.app.ctx.db.select().from(tickets).where(eq(tickets.id, res.json().ticketId));
    expect(ticket).toMatchObject({ companyId: a.companyId, whatsappId, status: 'pending' });
    expect([bTicket.ticketId, aOtherTicket.ticketId]).not.toContain(ticket!.id);
    const written = await t.app.ctx.db
      .select({ ticketId: messages.ticketId })
      .from(messages)
      .where(and(eq(messages.body, 'Pela API de A'), eq(messages.fromMe, true)));
    expect(written).toEqual([{ ticketId: ticket!.id }]);
    expect(t.app.simulator.outbox(b.whatsappId, from)).toEqual([]);
    expect(t.app.simulator.outbox(aOther, from)).toEqual([]);
    expect((await outbox(from)).map((m) => m.body)).toEqual(['Pela API de A']);
  });

  it('sends media from multipart number + medias, with an optional caption', async () => {
    const number = customerNumber();
    const form = multipartBody([
      { name: 'number', value: number },
      { name: 'body', value: 'Segue o boleto' },
      { name: 'medias', value: PNG, filename: 'boleto.png', type: 'image/png' },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/messages/send',
      headers: { authorization: `Bearer ${TOKEN}`, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    const [stored] = await t.app.ctx.db.select().from(messages).where(eq(messages.id, res.json().id));
    expect(stored).toMatchObject({ mediaType: 'image', mediaName: 'boleto.png', body: 'Segue o boleto' });
    expect(stored!.mediaUrl).toBeTruthy();
    const sent = await outbox(number);
    expect(sent.length).toBe(1);
  });

  it('refuses a missing or wrong token with 401 and sends nothing (positive control: the right token)', async () => {
    const number = customerNumber();
    const before = await t.app.ctx.db.select({ id: messages.id }).from(messages);
    for (const token of [undefined, '', 'wrong-token', `${TOKEN}x`, 'x'.repeat(300)]) {
      const res = await send(token, { number, body: 'não deve sair' });
      expect(res.statusCode, String(token)).toBe(401);
      expect(res.json().error).toBe('ERR_INVALID_CREDENTIALS');
    }
    // A user's access token is not an API token either.
    const asUser = await inject('POST', '/api/messages/send', a.admin, { number, body: 'não deve sair' });
    expect(asUser.statusCode).toBe(401);
    // Even an invalid body answers 401 first.
    expect((await send('wrong-token', { number: 'abc' })).statusCode).toBe(401);
    const after = await t.app.ctx.db.select({ id: messages.id }).from(messages);
    expect(after.length).toBe(before.length);
    expect(
      await t.app.ctx.db
        .select()
        .from(contacts)
        .where(and(eq(contacts.companyId, a.companyId), eq(contacts.number, number))),
    ).toEqual([]);
    expect((await send(TOKEN, { number, body: 'agora sim' })).statusCode).toBe(200);
  });

  it('validates the body (400) once the token is right', async () => {
    for (const payload of [
      {},
      { number: '123', body: 'x' },
      { number: customerNumber(), body: '' },
      { number: customerNumber(), body: 'x'.repeat(5000) },
    ]) {
      const res = await send(TOKEN, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toBe('ERR_VALIDATION');
    }
    const form = multipartBody([{ name: 'number', value: customerNumber() }]);
    const noFile = await t.app.inject({
      method: 'POST',
      url: '/api/messages/send',
      headers: { authorization: `Bearer ${TOKEN}`, ...form.headers },
      payload: form.payload,
    });
    expect(noFile.statusCode).toBe(400);
  });

  it('needs the plan flag useExternalApi (403); the database keeps two connections from sharing a token', async () => {
    const admin = await createCompanyAdmin(t.app, { plan: { useExternalApi: false } });
    const other = await createSimulatorConnection(t.app, admin);
    await t.app.ctx.db
      .update(whatsapps)
      .set({ token: 'tok_no_plan_0123456789' })
      .where(eq(whatsapps.id, other));
    const res = await send('tok_no_plan_0123456789', { number: customerNumber(), body: 'oi' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('ERR_PLAN_FEATURE_DISABLED');

    const b = await createConnectedTenant(t.app);
    await t.app.ctx.db
      .update(whatsapps)
      .set({ token: 'tok_shared_0123456789' })
      .where(eq(whatsapps.id, b.whatsappId));
    expect((await send('tok_shared_0123456789', { number: customerNumber(), body: 'oi' })).statusCode).toBe(
      200,
    );
    await expect(
      t.app.ctx.db
        .update(whatsapps)
        .set({ token: 'tok_shared_0123456789' })
        .where(eq(whatsapps.id, whatsappId)),
    ).rejects.toThrow();
    expect((await send('tok_shared_0123456789', { number: customerNumber(), body: 'oi' })).statusCode).toBe(
      200,
    );
    expect((await send(TOKEN, { number: customerNumber(), body: 'oi' })).statusCode).toBe(200);
  });

  it('answers ERR_WAPP_NOT_INITIALIZED while the connection is stopped', async () => {
    await t.app.sessions.stop(a.companyId, whatsappId);
    try {
      const res = await send(TOKEN, { number: customerNumber(), body: 'Parado?' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('ERR_WAPP_NOT_INITIALIZED');
    } finally {
      await t.app.sessions.start(a.companyId, whatsappId);
    }
  });

  it('is documented in the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    const doc = res.json();
    const op = doc.paths['/api/messages/send'].post;
    expect(op.description).toContain('Bearer');
    expect(op.security).toEqual([{ bearer: [] }]);
  });

  it('is rate limited per token', async () => {
    const limitedToken = 'tok_rate_0123456789abcdef';
    const b = await createConnectedTenant(t.app);
    await t.app.ctx.db.update(whatsapps).set({ token: limitedToken }).where(eq(whatsapps.id, b.whatsappId));
    const codes: number[] = [];
    for (let i = 0; i <= EXTERNAL_API_RATE_PER_MINUTE; i++) {
      codes.push((await send(limitedToken, { number: 'bad' })).statusCode);
    }
    expect(codes.slice(0, EXTERNAL_API_RATE_PER_MINUTE).every((c) => c === 400)).toBe(true);
    expect(codes.at(-1)).toBe(429);
    // Another token is not limited by it.
    expect((await send(TOKEN, { number: customerNumber(), body: 'ainda passa' })).statusCode).toBe(200);
  });
});
