import { ZSchedule, ZSchedulesPage } from '@zapdesk/shared';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { messages, schedules, tickets } from '../../db/schema/index.js';
import { a, t, useConnectionSuite, whatsappId } from '../../test/connection-suite.js';
import {
  bearer,
  createCompanyAdmin,
  createConnectedTenant,
  createTenant,
  customerNumber,
  downgradeToNoFlags,
  injectAs,
  setDueDate,
  type TestUser,
} from '../../test/factories.js';
import { fileUpload, PNG } from '../../test/multipart.js';
import { SCHEDULE_SEND_JOB } from './schedules-service.js';

useConnectionSuite();

const inject = injectAs(() => t.app);

const PDF = Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

async function contact(user: TestUser, name = 'Maria Souza') {
  const res = await inject('POST', '/api/contacts', user, { name, number: customerNumber() });
  return res.json() as { id: number; number: string };
}

const inOneHour = () => new Date(Date.now() + 3_600_000).toISOString();
const past = () => new Date(Date.now() - 1000).toISOString();

/** POST /api/schedules with `payload` as `user` (A's admin by default): the raw answer. */
const postSchedule = (payload: object, user = a.admin) => inject('POST', '/api/schedules', user, payload);

/** Creates a schedule (expects 201): the answer parsed as ZSchedule. */
async function schedule(payload: object, user = a.admin) {
  const res = await postSchedule(payload, user);
  expect(res.statusCode, res.body).toBe(201);
  return ZSchedule.parse(res.json());
}

const outbox = (number: string) => t.app.simulator.outbox(whatsappId, number);
const messagesOf = (contactId: number) =>
  t.app.ctx.db
    .select()
    .from(messages)
    .where(and(eq(messages.contactId, contactId), eq(messages.fromMe, true)));

describe('schedules', () => {
  it('creates, reads, lists with search and pages', async () => {
    const c = await contact(a.admin, 'Joana Search');
    const created = await schedule({ body: 'Lembrete da consulta', contactId: c.id, sendAt: inOneHour() });
    expect(created).toMatchObject({
      status: 'PENDENTE',
      sentAt: null,
      contact: { id: c.id, name: 'Joana Search' },
    });
    const read = await inject('GET', `/api/schedules/${created.id}`, a.agent);
    expect(read.json().body).toBe('Lembrete da consulta');
    const byName = ZSchedulesPage.parse(
      (await inject('GET', '/api/schedules?searchParam=joana', a.agent)).json(),
    );
    expect(byName.schedules.map((s) => s.id)).toEqual([created.id]);
    const byBody = ZSchedulesPage.parse(
      (await inject('GET', '/api/schedules?searchParam=consulta', a.agent)).json(),
    );
    expect(byBody.schedules.map((s) => s.id)).toContain(created.id);
    const none = ZSchedulesPage.parse(
      (await inject('GET', '/api/schedules?searchParam=zzzz', a.agent)).json(),
    );
    expect(none.schedules).toEqual([]);
    const other = await createTenant(t.app);
    const c2 = await contact(other.admin);
    for (let i = 0; i < 21; i++)
      await schedule({ body: `Mensagem ${i}`, contactId: c2.id, sendAt: inOneHour() }, other.admin);
    const page = ZSchedulesPage.parse((await inject('GET', '/api/schedules', other.admin)).json());
    expect(page.schedules).toHaveLength(20);
    expect(page.hasMore).toBe(true);
    const byContact = ZSchedulesPage.parse(
      (await inject('GET', `/api/schedules?contactId=${c.id}`, a.admin)).json(),
    );
    expect(byContact.schedules.map((s) => s.id)).toEqual([created.id]);
  });

  it('validates body, contact and sendAt', async () => {
    const c = await contact(a.admin);
    const short = await postSchedule({ body: 'oi', contactId: c.id, sendAt: inOneHour() });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    const ok = await postSchedule({ body: 'olá!!', contactId: c.id, sendAt: inOneHour() });
    expect(ok.statusCode).toBe(201);
    const noDate = await postSchedule({ body: 'Mensagem', contactId: c.id });
    expect(noDate.statusCode).toBe(400);
    const badDate = await postSchedule({ body: 'Mensagem', contactId: c.id, sendAt: 'amanhã' });
    expect(badDate.statusCode).toBe(400);
    const other = await createTenant(t.app);
    const foreign = await contact(other.admin);
    const res = await postSchedule({ body: 'Mensagem', contactId: foreign.id, sendAt: inOneHour() });
    expect(res.statusCode).toBe(404);
  });

  it('is refused when the plan has no schedules', async () => {
    const user = await createCompanyAdmin(t.app, { plan: { useSchedules: false } });
    const res = await inject('GET', '/api/schedules', user);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('ERR_PLAN_FEATURE_DISABLED');
    expect((await inject('GET', '/api/schedules', a.admin)).statusCode).toBe(200);
  });

  it('sends at sendAt on the default connection, variables replaced, without opening a pending ticket', async () => {
    const c = await contact(a.admin, 'Carlos Lima');
    const s = await schedule({
      body: 'Olá {{firstName}}, sua consulta é amanhã',
      contactId: c.id,
      sendAt: past(),
    });
    await t.app.jobs.drain();
    const after = ZSchedule.parse((await inject('GET', `/api/schedules/${s.id}`, a.admin)).json());
    expect(after.status).toBe('ENVIADA');
    expect(after.sentAt).not.toBeNull();
    const stored = await messagesOf(c.id);
    expect(stored.map((m) => m.body)).toEqual(['Olá Carlos, sua consulta é amanhã']);
    const [ticket] = await t.app.ctx.db.select().from(tickets).where(eq(tickets.id, after.ticketId!));
    expect(ticket).toMatchObject({ status: 'closed', whatsappId, contactId: c.id });
    await expect
      .poll(() => outbox(c.number).map((m) => m.body))
      .toEqual(['Olá Carlos, sua consulta é amanhã']);
  });

  it('a schedule queued under a full plan is not sent after a downgrade or an expiry', async () => {
    const b = await createConnectedTenant(t.app);
    const pending = async () => {
      const c = await contact(b.admin);
      const s = await schedule({ body: 'Lembrete', contactId: c.id, sendAt: inOneHour() }, b.admin);
      const [row] = await t.app.ctx.db.select().from(schedules).where(eq(schedules.id, s.id));
      return { c, data: { companyId: b.companyId, scheduleId: s.id, sendAt: row!.sendAt.toISOString() } };
    };
    // Positive control: on the full plan the job sends.
    const sent = await pending();
    await t.app.schedules.runJob(sent.data);
    await t.app.jobs.drain();
    expect(await messagesOf(sent.c.id)).toHaveLength(1);
    await expect.poll(() => t.app.simulator.outbox(b.whatsappId, sent.c.number).length).toBe(1);
    // Downgraded to a plan with every flag off: recorded, nothing reaches the phone.
    const downgraded = await pending();
    await downgradeToNoFlags(t.app, b.companyId);
    await t.app.schedules.runJob(downgraded.data);
    await t.app.jobs.drain();
    const [skipped] = await t.app.ctx.db
      .select()
      .from(schedules)
      .where(eq(schedules.id, downgraded.data.scheduleId));
    expect(skipped).toMatchObject({ status: 'ERRO', error: 'ERR_PLAN_FEATURE_DISABLED' });
    expect(await messagesOf(downgraded.c.id)).toHaveLength(0);
    expect(t.app.simulator.outbox(b.whatsappId, downgraded.c.number)).toHaveLength(0);
    // A company past its due date sends nothing either.
    const c = await contact(a.admin);
    const s = await schedule({ body: 'Vencida', contactId: c.id, sendAt: inOneHour() });
    const [row] = await t.app.ctx.db.select().from(schedules).where(eq(schedules.id, s.id));
    await setDueDate(t.app, a.companyId, new Date(Date.now() - 1000));
    try {
      await t.app.schedules.runJob({
        companyId: a.companyId,
        scheduleId: s.id,
        sendAt: row!.sendAt.toISOString(),
      });
    } finally {
      await setDueDate(t.app, a.companyId, new Date(Date.now() + 30 * 86_400_000));
    }
    const [expired] = await t.app.ctx.db.select().from(schedules).where(eq(schedules.id, s.id));
    expect(expired).toMatchObject({ status: 'ERRO', error: 'ERR_SUBSCRIPTION_EXPIRED' });
    expect(await messagesOf(c.id)).toHaveLength(0);
  });

  it('a job run twice sends once', async () => {
    const c = await contact(a.admin);
    const s = await schedule({ body: 'Só uma vez, por favor', contactId: c.id, sendAt: past() });
    const [row] = await t.app.ctx.db.select().from(schedules).where(eq(schedules.id, s.id));
    const data = { companyId: a.companyId, scheduleId: s.id, sendAt: row!.sendAt.toISOString() };
    await Promise.all([t.app.schedules.runJob(data), t.app.schedules.runJob(data)]);
    await t.app.schedules.runJob(data);
    await t.app.jobs.drain();
    expect(await messagesOf(c.id)).toHaveLength(1);
    // Positive control: a fresh schedule's job does send.
    const c2 = await contact(a.admin);
    await schedule({ body: 'Outra mensagem', contactId: c2.id, sendAt: past() });
    await t.app.jobs.drain();
    expect(await messagesOf(c2.id)).toHaveLength(1);
  });

  it('editing reschedules (the old job never sends) and deleting cancels', async () => {
    const c = await contact(a.admin);
    const s = await schedule({ body: 'Primeira versão', contactId: c.id, sendAt: inOneHour() });
    await t.app.jobs.drain();
    expect(await messagesOf(c.id)).toHaveLength(0);
    const moved = await inject('PUT', `/api/schedules/${s.id}`, a.admin, {
      sendAt: past(),
      body: 'Versão nova',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    await t.app.jobs.drain();
    expect((await messagesOf(c.id)).map((m) => m.body)).toEqual(['Versão nova']);
    const { rows } = await t.database.executor.executeSql(
      `select state::text as state from pgboss.job where name = $1 and singleton_key = $2 order by created_on`,
      [SCHEDULE_SEND_JOB, `schedule-${s.id}`],
    );
    expect(rows.map((r) => r.state)).toEqual(['cancelled', 'completed']);

    const c2 = await contact(a.admin);
    const d = await schedule({ body: 'Vai ser apagada', contactId: c2.id, sendAt: past() });
    expect((await inject('DELETE', `/api/schedules/${d.id}`, a.admin)).statusCode).toBe(204);
    await t.app.jobs.drain();
    expect(await messagesOf(c2.id)).toHaveLength(0);
    expect((await inject('GET', `/api/schedules/${d.id}`, a.admin)).statusCode).toBe(404);
  });

  it("uses the contact's live ticket and records ERRO without a default connection", async () => {
    const c = await contact(a.admin);
    const [live] = await t.app.ctx.db
      .insert(tickets)
      .values({ companyId: a.companyId, contactId: c.id, whatsappId, status: 'open' })
      .returning();
    const s = await schedule({ body: 'No ticket aberto', contactId: c.id, sendAt: past() });
    await t.app.jobs.drain();
    expect((await inject('GET', `/api/schedules/${s.id}`, a.admin)).json().ticketId).toBe(live!.id);

    const lonely = await createTenant(t.app);
    const c2 = await contact(lonely.admin);
    const e = await schedule({ body: 'Sem conexão', contactId: c2.id, sendAt: past() }, lonely.admin);
    await t.app.jobs.drain();
    const failed = (await inject('GET', `/api/schedules/${e.id}`, lonely.admin)).json();
    expect(failed).toMatchObject({ status: 'ERRO', error: 'ERR_NO_DEF_WAPP_FOUND' });
    // Nothing was sent: a failed schedule carries no 'sent at' time.
    expect(failed.sentAt).toBeNull();
  });

  it('accepts png/jpg media, refuses other types, sends the image and removes it', async () => {
    const c = await contact(a.admin);
    const s = await schedule({ body: 'Veja a imagem', contactId: c.id, sendAt: inOneHour() });
    const pdf = await t.app.inject({
      method: 'POST',
      url: `/api/schedules/${s.id}/media-upload`,
      ...fileUpload(PDF, 'doc.pdf', 'application/pdf'),
      headers: { ...fileUpload(PDF, 'doc.pdf', 'application/pdf').headers, ...bearer(a.admin) },
    });
    expect(pdf.statusCode).toBe(415);
    const png = fileUpload(PNG, 'foto.png', 'image/png');
    const up = await t.app.inject({
      method: 'POST',
      url: `/api/schedules/${s.id}/media-upload`,
      payload: png.payload,
      headers: { ...png.headers, ...bearer(a.admin) },
    });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json().mediaName).toBe('foto.png');
    await inject('PUT', `/api/schedules/${s.id}`, a.admin, { sendAt: past() });
    await t.app.jobs.drain();
    const sent = await messagesOf(c.id);
    expect(sent.map((m) => [m.mediaType, m.body])).toEqual([['image', 'Veja a imagem']]);
    const removed = await inject('DELETE', `/api/schedules/${s.id}/media-upload`, a.admin);
    expect(removed.json().mediaPath).toBeNull();
  });
});
