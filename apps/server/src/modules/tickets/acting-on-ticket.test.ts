import { ZSchedule } from '@zapdesk/shared';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { messages, schedules, tickets } from '../../db/schema/index.js';
import { a, t, useConnectionSuite, whatsappId } from '../../test/connection-suite.js';
import {
  bearer,
  createQueue,
  createUser,
  customerNumber,
  injectAs,
  type TestUser,
} from '../../test/factories.js';

// Every route that writes onto a ticket (or onto a contact's live ticket) refuses an agent who may
// not open that ticket, with the answer of GET /messages/:ticketId (403 ERR_NO_PERMISSION), and
// nothing reaches the phone; the agent's own queue and an admin pass.

/** A queue the agent is not in, and its own agent. */
let queueB: number;
let agentB: TestUser;
useConnectionSuite();
beforeAll(async () => {
  queueB = await createQueue(t.app, a.companyId);
  agentB = await createUser(t.app, a.companyId, { queueIds: [queueB] });
});

const inject = injectAs(() => t.app);

/** A contact with a live (open) ticket in `queue`, held by `holder`. */
async function contactWithTicket(queue: number, holder: TestUser) {
  const number = customerNumber();
  const res = await inject('POST', '/api/contacts', a.admin, { name: 'Cliente', number });
  expect(res.statusCode, res.body).toBe(200);
  const contactId = res.json().id as number;
  const [ticket] = await t.app.ctx.db
    .insert(tickets)
    .values({
      companyId: a.companyId,
      contactId,
      whatsappId,
      status: 'open',
      queueId: queue,
      userId: holder.id,
    })
    .returning({ id: tickets.id });
  return { contactId, number, ticketId: ticket!.id };
}

const outbox = (number: string) => t.app.simulator.outbox(whatsappId, number).map((m) => m.body);
const past = () => new Date(Date.now() - 1000).toISOString();
const inOneHour = () => new Date(Date.now() + 3_600_000).toISOString();

/** The answer GET /messages/:ticketId gives the agent for a ticket of queue B: the reference. */
async function expectRefusedLikeMessages(res: { statusCode: number; json: () => unknown }, ticketId: number) {
  const reference = await inject('GET', `/api/messages/${ticketId}`, a.agent);
  expect(reference.statusCode).toBe(403);
  expect(reference.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
  expect(res.statusCode).toBe(reference.statusCode);
  expect(res.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
}

describe('POST /schedules', () => {
  it("refuses a contact whose live ticket the agent may not open; its own queue's and an admin's pass", async () => {
    const b = await contactWithTicket(queueB, agentB);
    const refused = await inject('POST', '/api/schedules', a.agent, {
      body: 'Mensagem que não pode sair',
      contactId: b.contactId,
      sendAt: past(),
    });
    await expectRefusedLikeMessages(refused, b.ticketId);
    await t.app.jobs.drain();
    expect(await t.app.ctx.db.select().from(schedules).where(eq(schedules.contactId, b.contactId))).toEqual(
      [],
    );
    expect(outbox(b.number)).toEqual([]);

    // Positive controls: the agent on its own queue's ticket, an admin on queue B's.
    const own = await contactWithTicket(a.queueId, a.agent);
    const mine = await inject('POST', '/api/schedules', a.agent, {
      body: 'Mensagem da minha fila',
      contactId: own.contactId,
      sendAt: past(),
    });
    expect(mine.statusCode, mine.body).toBe(201);
    const admin = await inject('POST', '/api/schedules', a.admin, {
      body: 'Mensagem do admin',
      contactId: b.contactId,
      sendAt: past(),
    });
    expect(admin.statusCode, admin.body).toBe(201);
    await t.app.jobs.drain();
    await expect.poll(() => outbox(own.number)).toEqual(['Mensagem da minha fila']);
    await expect.poll(() => outbox(b.number)).toEqual(['Mensagem do admin']);
  });
});

describe('PUT /schedules/:id and its media', () => {
  it("refuses editing onto a ticket the agent may not open, or another's schedule of such a contact", async () => {
    const b = await contactWithTicket(queueB, agentB);
    const own = await contactWithTicket(a.queueId, a.agent);
    const mine = ZSchedule.parse(
      (
        await inject('POST', '/api/schedules', a.agent, {
          body: 'Mensagem da minha fila',
          contactId: own.contactId,
          sendAt: inOneHour(),
        })
      ).json(),
    );
    const moved = await inject('PUT', `/api/schedules/${mine.id}`, a.agent, {
      contactId: b.contactId,
      sendAt: past(),
    });
    await expectRefusedLikeMessages(moved, b.ticketId);
    const admins = ZSchedule.parse(
      (
        await inject('POST', '/api/schedules', a.admin, {
          body: 'Agendada pelo admin',
          contactId: b.contactId,
          sendAt: inOneHour(),
        })
      ).json(),
    );
    const edited = await inject('PUT', `/api/schedules/${admins.id}`, a.agent, {
      body: 'Texto do agente',
      sendAt: past(),
    });
    await expectRefusedLikeMessages(edited, b.ticketId);
    const PNG = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const boundary = '----zapdesk-acting';
    const upload = await t.app.inject({
      method: 'POST',
      url: `/api/schedules/${admins.id}/media-upload`,
      headers: { ...bearer(a.agent), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        PNG,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    await expectRefusedLikeMessages(upload, b.ticketId);
    await t.app.jobs.drain();
    expect(outbox(b.number)).toEqual([]);
    const [stored] = await t.app.ctx.db.select().from(schedules).where(eq(schedules.id, admins.id));
    expect(stored).toMatchObject({ body: 'Agendada pelo admin', mediaPath: null, status: 'PENDENTE' });

    // Positive controls: the agent edits its own schedule on its queue; an admin edits onto queue B.
    const ok = await inject('PUT', `/api/schedules/${mine.id}`, a.agent, {
      body: 'Texto novo',
      sendAt: past(),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const adminEdit = await inject('PUT', `/api/schedules/${admins.id}`, a.admin, {
      body: 'Admin reescreveu',
      sendAt: past(),
    });
    expect(adminEdit.statusCode, adminEdit.body).toBe(200);
    await t.app.jobs.drain();
    await expect.poll(() => outbox(own.number)).toEqual(['Texto novo']);
    await expect.poll(() => outbox(b.number)).toEqual(['Admin reescreveu']);
  });
});

describe('the schedule job', () => {
  it('sends nothing when the ticket it would use moved out of its user’s reach meanwhile', async () => {
    const moving = await contactWithTicket(a.queueId, a.agent);
    const s = ZSchedule.parse(
      (
        await inject('POST', '/api/schedules', a.agent, {
          body: 'Antes da transferência',
          contactId: moving.contactId,
          sendAt: past(),
        })
      ).json(),
    );
    // Between the request and the send, the ticket goes to queue B and its agent.
    await t.app.ctx.db
      .update(tickets)
      .set({ queueId: queueB, userId: agentB.id })
      .where(eq(tickets.id, moving.ticketId));
    await t.app.jobs.drain();
    const after = ZSchedule.parse((await inject('GET', `/api/schedules/${s.id}`, a.admin)).json());
    expect(after).toMatchObject({ status: 'ERRO', error: 'ERR_NO_PERMISSION', ticketId: null });
    expect(outbox(moving.number)).toEqual([]);
    expect(
      await t.app.ctx.db
        .select()
        .from(messages)
        .where(and(eq(messages.contactId, moving.contactId), eq(messages.fromMe, true))),
    ).toEqual([]);

    // Positive control: the same move under an admin's schedule sends.
    const other = await contactWithTicket(a.queueId, a.agent);
    await inject('POST', '/api/schedules', a.admin, {
      body: 'Do admin',
      contactId: other.contactId,
      sendAt: past(),
    });
    await t.app.ctx.db
      .update(tickets)
      .set({ queueId: queueB, userId: agentB.id })
      .where(eq(tickets.id, other.ticketId));
    await t.app.jobs.drain();
    await expect.poll(() => outbox(other.number)).toEqual(['Do admin']);
  });
});

describe('POST /messages/:id/retry and DELETE /messages/:id', () => {
  it('refuses a retry on a ticket the agent may not open; an admin retries', async () => {
    const b = await contactWithTicket(queueB, agentB);
    await t.app.sessions.stop(a.companyId, whatsappId);
    const failed = await inject('POST', `/api/messages/${b.ticketId}`, a.admin, { body: 'Falhou antes' });
    await t.app.sessions.start(a.companyId, whatsappId);
    expect(failed.statusCode).toBe(400);
    const [messageId] = failed.json().messageIds as number[];
    const retried = await inject('POST', `/api/messages/${messageId}/retry`, a.agent);
    await expectRefusedLikeMessages(retried, b.ticketId);
    expect(outbox(b.number)).toEqual([]);
    // Positive control: an admin's retry sends it.
    const ok = await inject('POST', `/api/messages/${messageId}/retry`, a.admin);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(outbox(b.number)).toEqual(['Falhou antes']);
  });

  it("refuses deleting the agent's own message once its ticket left the agent's reach", async () => {
    const own = await contactWithTicket(a.queueId, a.agent);
    const sent = await inject('POST', `/api/messages/${own.ticketId}`, a.agent, { body: 'Minha mensagem' });
    expect(sent.statusCode, sent.body).toBe(201);
    const second = await inject('POST', `/api/messages/${own.ticketId}`, a.agent, { body: 'Outra mensagem' });
    const [first] = sent.json() as { id: number }[];
    const [other] = second.json() as { id: number }[];
    // Positive control: on its own queue the agent deletes its message.
    expect((await inject('DELETE', `/api/messages/${other!.id}`, a.agent)).statusCode).toBe(200);
    await t.app.ctx.db
      .update(tickets)
      .set({ queueId: queueB, userId: agentB.id })
      .where(eq(tickets.id, own.ticketId));
    const refused = await inject('DELETE', `/api/messages/${first!.id}`, a.agent);
    await expectRefusedLikeMessages(refused, own.ticketId);
    const [row] = await t.app.ctx.db.select().from(messages).where(eq(messages.id, first!.id));
    expect(row!.isDeleted).toBe(false);
    // An admin may.
    expect((await inject('DELETE', `/api/messages/${first!.id}`, a.admin)).statusCode).toBe(200);
  });
});
