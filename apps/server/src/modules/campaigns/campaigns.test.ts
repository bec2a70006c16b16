import { ZCampaign, ZCampaignDetail, ZCampaignShippingsPage, ZCampaignsPage } from '@zapdesk/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { IngestResult } from '../../channels/inbound-pipeline.js';
import { campaignShippings, campaigns, messages, tickets } from '../../db/schema/index.js';
import { a, t, useConnectionSuite, whatsappId } from '../../test/connection-suite.js';
import {
  bearer,
  createCompanyAdmin,
  createConnectedTenant,
  createTenant,
  customerNumber,
  downgradeToNoFlags,
  injectMessage,
  type TestUser,
} from '../../test/factories.js';
import { campaignsAnyHour } from '../../test/fixtures.js';
import { PNG } from '../../test/multipart.js';
import { buildSecondNode } from '../../test/test-app.js';
import { CAMPAIGN_PACE_JOB } from './campaign-engine.js';
import { STEP_BATCH } from './campaign-step.js';

useConnectionSuite();
beforeAll(async () => {
  await campaignsAnyHour(t.app, a.admin);
});

function inject(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  user: TestUser,
  payload?: object,
  app: FastifyInstance = t.app,
) {
  return app.inject({ method, url, headers: bearer(user), payload });
}

/** A contact list with `count` items of fresh numbers; answers its id and the numbers. */
async function contactList(count: number, user = a.admin) {
  const list = await inject('POST', '/api/contact-lists', user, { name: `Lista ${customerNumber()}` });
  expect(list.statusCode, list.body).toBe(201);
  const numbers: string[] = [];
  for (let i = 0; i < count; i++) {
    const number = customerNumber();
    const item = await inject('POST', '/api/contact-list-items', user, {
      contactListId: list.json().id,
      name: `Cliente ${i}`,
      number,
    });
    expect(item.statusCode, item.body).toBe(201);
    numbers.push(item.json().number);
  }
  return { id: list.json().id as number, numbers };
}

async function campaign(payload: object, user = a.admin) {
  const res = await inject('POST', '/api/campaigns', user, { whatsappId, ...payload });
  expect(res.statusCode, res.body).toBe(201);
  return ZCampaign.parse(res.json());
}

async function detail(id: number, user = a.admin) {
  return ZCampaignDetail.parse((await inject('GET', `/api/campaigns/${id}`, user)).json());
}

const rowsOf = (result: unknown) =>
  ((result as { rows?: unknown[] }).rows ?? (result as unknown[])) as Record<string, unknown>[];
/**
 * The fake clock reaches the connection's nextAt: the pace row is due and the pace run queued for
 * later (which would keep its key's order) is withdrawn.
 */
async function paceDue() {
  await t.app.ctx.db.execute(sql`update campaign_pace set next_at = null where whatsapp_id = ${whatsappId}`);
  await t.app.jobs.cancelKey(CAMPAIGN_PACE_JOB, `pace-${whatsappId}`);
}
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const outbox = (number: string) => t.app.simulator.outbox(whatsappId, number);
const inOneDay = () => new Date(Date.now() + 86_400_000).toISOString();
const inThirtyMinutes = () => new Date(Date.now() + 30 * 60_000).toISOString();

describe('campaigns', () => {
  it('creates, lists with search and count, reads and validates', async () => {
    const list = await contactList(1);
    const created = await campaign({ name: 'Black Friday', message1: 'Oferta!', contactListId: list.id });
    expect(created).toMatchObject({ status: 'INATIVA', editable: true, contactList: { id: list.id } });
    const page = ZCampaignsPage.parse(
      (await inject('GET', '/api/campaigns?searchParam=black', a.agent)).json(),
    );
    expect(page.records.map((c) => c.id)).toEqual([created.id]);
    expect(page.count).toBe(1);
    expect((await detail(created.id)).totals.recipients).toBe(0);
    const short = await inject('POST', '/api/campaigns', a.admin, {
      name: 'x',
      message1: 'oi',
      contactListId: list.id,
    });
    expect(short.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'name' });
    const noMessage = await inject('POST', '/api/campaigns', a.admin, {
      name: 'Sem texto',
      contactListId: list.id,
    });
    expect(noMessage.json()).toMatchObject({ error: 'ERR_CAMPAIGN_NO_MESSAGE' });
    const noList = await inject('POST', '/api/campaigns', a.admin, { name: 'Sem lista', message1: 'Olá' });
    expect(noList.json()).toMatchObject({ error: 'ERR_CAMPAIGN_NO_LIST' });
    const other = await createTenant(t.app);
    const foreignList = await contactList(1, other.admin);
    const foreign = await inject('POST', '/api/campaigns', a.admin, {
      name: 'Lista alheia',
      message1: 'Olá',
      contactListId: foreignList.id,
    });
    expect(foreign.statusCode).toBe(404);
    expect((await inject('GET', `/api/campaigns/${created.id}`, other.admin)).statusCode).toBe(404);
  });

  it('is refused when the plan has no campaigns', async () => {
    const user = await createCompanyAdmin(t.app, { plan: { useCampaigns: false } });
    const res = await inject('GET', '/api/campaigns', user);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('ERR_PLAN_FEATURE_DISABLED');
    expect((await inject('GET', '/api/campaign-settings', user)).statusCode).toBe(403);
    expect((await inject('GET', '/api/campaigns', a.admin)).statusCode).toBe(200);
  });

  it('keeps the editability rules of section 4', async () => {
    const list = await contactList(1);
    const far = await campaign({
      name: 'Longe',
      message1: 'Oi',
      contactListId: list.id,
      scheduledAt: inOneDay(),
    });
    expect(far).toMatchObject({ status: 'PROGRAMADA', editable: true });
    const edited = await inject('PUT', `/api/campaigns/${far.id}`, a.admin, { name: 'Longe editada' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ name: 'Longe editada', message1: 'Oi', status: 'PROGRAMADA' });
    const near = await campaign({
      name: 'Perto',
      message1: 'Oi',
      contactListId: list.id,
      scheduledAt: inThirtyMinutes(),
    });
    expect(near.editable).toBe(false);
    const refused = await inject('PUT', `/api/campaigns/${near.id}`, a.admin, { name: 'Perto editada' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe('ERR_CAMPAIGN_NOT_EDITABLE');
    // Cancelled: still saved, and restartable.
    const cancelled = await inject('POST', `/api/campaigns/${near.id}/cancel`, a.admin);
    expect(cancelled.json()).toMatchObject({ status: 'CANCELADA', editable: true });
    const saved = await inject('PUT', `/api/campaigns/${near.id}`, a.admin, { name: 'Perto salva' });
    expect(saved.json()).toMatchObject({ status: 'CANCELADA', name: 'Perto salva' });
    const twice = await inject('POST', `/api/campaigns/${near.id}/cancel`, a.admin);
    expect(twice.json().error).toBe('ERR_CAMPAIGN_NOT_CANCELLABLE');
    const restartScheduled = await inject('POST', `/api/campaigns/${far.id}/restart`, a.admin);
    expect(restartScheduled.json().error).toBe('ERR_CAMPAIGN_NOT_RESTARTABLE');
    await t.app.jobs.drain();
    expect((await detail(far.id)).status).toBe('PROGRAMADA');
  });

  it('scheduled and running campaigns stop sending once the plan no longer has campaigns', async () => {
    const b = await createConnectedTenant(t.app);
    await campaignsAnyHour(t.app, b.admin);
    const make = async (name: string, count: number, scheduledAt?: string) => {
      const list = await contactList(count, b.admin);
      const res = await inject('POST', '/api/campaigns', b.admin, {
        whatsappId: b.whatsappId,
        name,
        message1: 'Oferta',
        contactListId: list.id,
        ...(scheduledAt ? { scheduledAt } : {}),
      });
      expect(res.statusCode, res.body).toBe(201);
      return { id: res.json().id as number, numbers: list.numbers };
    };
    const bOutbox = (n: string) => t.app.simulator.outbox(b.whatsappId, n);
    // Positive control: on the full plan a due scheduled campaign sends.
    const control = await make('Controle', 1, new Date(Date.now() - 1000).toISOString());
    await t.app.jobs.drain();
    expect((await detail(control.id, b.admin)).status).toBe('FINALIZADA');
    expect(bOutbox(control.numbers[0]!)).toHaveLength(1);
    // A campaign scheduled for tomorrow, and one running at a 20 s interval (one sent, two waiting).
    const scheduled = await make('Programada', 2, inOneDay());
    await inject('POST', '/api/campaign-settings', b.admin, { settings: { messageInterval: 20 } });
    const bPaceDue = async () => {
      await t.app.ctx.db.execute(
        sql`update campaign_pace set next_at = null where whatsapp_id = ${b.whatsappId}`,
      );
      await t.app.jobs.cancelKey(CAMPAIGN_PACE_JOB, `pace-${b.whatsappId}`);
    };
    await bPaceDue();
    const running = await make('Rodando', 3);
    const started = await inject('POST', `/api/campaigns/${running.id}/restart`, b.admin);
    expect(started.json().status).toBe('EM_ANDAMENTO');
    await t.app.jobs.drain();
    expect((await detail(running.id, b.admin)).totals).toMatchObject({ delivered: 1, pending: 2 });
    // The super user moves the company to a plan with every flag off.
    await downgradeToNoFlags(t.app, b.companyId);
    // The schedule comes due and the pace comes due: nothing more reaches a phone.
    const due = new Date(Date.now() - 1000);
    await t.app.ctx.db.update(campaigns).set({ scheduledAt: due }).where(eq(campaigns.id, scheduled.id));
    await t.app.ctx.db.transaction(async (tx) => {
      await t.app.campaigns.cancelStart(tx, scheduled.id);
      await t.app.campaigns.queueStart(tx, b.companyId, scheduled.id, due);
    });
    await bPaceDue();
    await t.app.campaigns.runPace(b.whatsappId);
    await t.app.jobs.drain();
    const [s] = await t.app.ctx.db.select().from(campaigns).where(eq(campaigns.id, scheduled.id));
    expect(s!.status).toBe('CANCELADA');
    for (const n of scheduled.numbers) expect(bOutbox(n)).toHaveLength(0);
    const [r] = await t.app.ctx.db.select().from(campaigns).where(eq(campaigns.id, running.id));
    expect(r!.status).toBe('CANCELADA');
    const shippings = await t.app.ctx.db
      .select()
      .from(campaignShippings)
      .where(eq(campaignShippings.campaignId, running.id));
    expect(shippings.filter((x) => x.status === 'delivered')).toHaveLength(1);
    expect(shippings.filter((x) => x.status === 'skipped').map((x) => x.error)).toEqual([
      'ERR_PLAN_FEATURE_DISABLED',
      'ERR_PLAN_FEATURE_DISABLED',
    ]);
    expect(running.numbers.map((n) => bOutbox(n).length).reduce((x, y) => x + y)).toBe(1);
  });

  it('an empty list cannot start', async () => {
    const list = await contactList(0);
    const c = await campaign({ name: 'Vazia', message1: 'Oi', contactListId: list.id });
    const res = await inject('POST', `/api/campaigns/${c.id}/restart`, a.admin);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('ERR_CAMPAIGN_NO_RECIPIENTS');
    expect((await detail(c.id)).status).toBe('INATIVA');
  });

  it('sends each recipient once, rotating variants with variables, without opening a pending ticket', async () => {
    const list = await contactList(3);
    await inject('POST', '/api/campaign-settings', a.admin, {
      settings: { variables: [{ key: 'loja', value: 'Loja Centro' }] },
    });
    const c = await campaign({
      name: 'Variantes',
      message1: 'A {{firstName}} na {{loja}}',
      message2: 'B {{firstName}}',
      message3: 'C {{name}}',
      contactListId: list.id,
      scheduledAt: new Date(Date.now() - 1000).toISOString(),
    });
    expect(c.status).toBe('PROGRAMADA');
    await t.app.jobs.drain();
    const done = await detail(c.id);
    expect(done.status).toBe('FINALIZADA');
    expect(done.completedAt).not.toBeNull();
    expect(done.totals).toMatchObject({ recipients: 3, delivered: 3, pending: 0, failed: 0 });
    const bodies = list.numbers.map((n) => outbox(n).map((m) => m.body));
    for (const sent of bodies) expect(sent).toHaveLength(1);
    expect(
      bodies
        .flat()
        .map((b) => b![0])
        .sort(),
    ).toEqual(['A', 'B', 'C']);
    expect(bodies.flat()).toContain('A Cliente na Loja Centro');
    const rows = await t.app.ctx.db.select().from(tickets).where(eq(tickets.companyId, a.companyId));
    expect(rows.filter((r) => r.status !== 'closed')).toEqual([]);
    const report = ZCampaignShippingsPage.parse(
      (await inject('GET', `/api/campaigns/${c.id}/shippings?status=delivered`, a.admin)).json(),
    );
    expect(report.count).toBe(3);
    expect(report.records.every((r) => r.deliveredAt)).toBe(true);
    // Running the pace again sends nothing more.
    await t.app.campaigns.runPace(whatsappId);
    await t.app.jobs.drain();
    for (const n of list.numbers) expect(outbox(n)).toHaveLength(1);
  });

  it('sends to the contacts carrying a tag', async () => {
    const number = customerNumber();
    const { ticketId } = await injectMessage(t.app, a.admin, whatsappId, { from: number, body: 'oi' });
    const tag = await inject('POST', '/api/tags', a.admin, { name: `Tag ${customerNumber()}` });
    expect(tag.statusCode, tag.body).toBe(201);
    const linked = await inject('POST', '/api/tags/sync', a.admin, { ticketId, tags: [tag.json()] });
    expect(linked.statusCode, linked.body).toBeLessThan(300);
    const c = await campaign({ name: 'Por tag', message1: 'Promo da tag', tagListId: tag.json().id });
    await inject('POST', `/api/campaigns/${c.id}/restart`, a.admin);
    await t.app.jobs.drain();
    expect((await detail(c.id)).totals).toMatchObject({ recipients: 1, delivered: 1 });
    expect(outbox(number).map((m) => m.body)).toContain('Promo da tag');
  });

  it('attaches the campaign media and the file list files to every recipient', async () => {
    const list = await contactList(2);
    const files = await inject('POST', '/api/files', a.admin, {
      name: 'Tabela de preços',
      message: 'Segue a tabela',
      options: [{ name: 'Preços' }],
    });
    const fileList = files.json() as { id: number; options: { id: number }[] };
    const boundary = '----zapdesk-campaign';
    const field = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const uploadBody = Buffer.concat([
      Buffer.from(field('fileId', String(fileList.id)) + field('typeArch', 'fileList')),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="precos.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      PDF,
      Buffer.from(
        `\r\n${field('mediaType', 'application/pdf')}${field('name', 'Preços')}${field('id', String(fileList.options[0]!.id))}--${boundary}--\r\n`,
      ),
    ]);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/files/uploadList/${fileList.id}`,
      headers: { ...bearer(a.admin), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: uploadBody,
    });
    expect(uploaded.statusCode, uploaded.body).toBeLessThan(300);
    const c = await campaign({
      name: 'Com anexos',
      message1: 'Veja a foto',
      contactListId: list.id,
      fileListId: fileList.id,
    });
    const media = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="foto da loja.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      PNG,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const withMedia = await t.app.inject({
      method: 'POST',
      url: `/api/campaigns/${c.id}/media-upload`,
      headers: { ...bearer(a.admin), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: media,
    });
    expect(withMedia.statusCode, withMedia.body).toBe(200);
    expect(withMedia.json().mediaName).toBe('foto_da_loja.png');
    await inject('POST', `/api/campaigns/${c.id}/restart`, a.admin);
    await t.app.jobs.drain();
    expect((await detail(c.id)).totals).toMatchObject({ delivered: 2, failed: 0 });
    for (const n of list.numbers) {
      const got = outbox(n);
      expect(got.map((m) => m.body)).toEqual(['[image] foto_da_loja.png Veja a foto', '[document] Preços']);
    }
  });

  it('keeps settings fields not named, refuses duplicate variable keys, and only admins save', async () => {
    const before = (await inject('GET', '/api/campaign-settings', a.agent)).json().settings;
    const dup = await inject('POST', '/api/campaign-settings', a.admin, {
      settings: {
        variables: [
          { key: 'x', value: '1' },
          { key: 'x', value: '2' },
        ],
      },
    });
    expect(dup.statusCode).toBe(400);
    expect(
      (await inject('POST', '/api/campaign-settings', a.agent, { settings: { dailyCap: 5 } })).statusCode,
    ).toBe(403);
    const saved = await inject('POST', '/api/campaign-settings', a.admin, {
      settings: { optOutKeyword: 'PARAR' },
    });
    expect(saved.json().settings).toEqual({ ...before, optOutKeyword: 'PARAR' });
    await inject('POST', '/api/campaign-settings', a.admin, { settings: { optOutKeyword: 'SAIR' } });
    await paceDue();
  });

  it('honours messageInterval on the connection; cancel stops sending and restart resumes without resending', async () => {
    const list = await contactList(4);
    await inject('POST', '/api/campaign-settings', a.admin, { settings: { messageInterval: 20 } });
    // The new interval counts from the connection's last send (earlier tests): 20 s later.
    await paceDue();
    const c = await campaign({ name: 'Pausável', message1: 'Olá', contactListId: list.id });
    const started = await inject('POST', `/api/campaigns/${c.id}/restart`, a.admin);
    expect(started.json().status).toBe('EM_ANDAMENTO');
    // One send, then the next waits 20 s: running the queue (or the pace) again sends nothing.
    await t.app.jobs.drain();
    await t.app.campaigns.runPace(whatsappId);
    expect((await detail(c.id)).totals).toMatchObject({ delivered: 1, pending: 3 });
    const [pace] = rowsOf(
      await t.app.ctx.db.execute(
        sql`select next_at, last_sent_at from campaign_pace where whatsapp_id = ${whatsappId}`,
      ),
    );
    expect(
      new Date(pace!.next_at as string).getTime() - new Date(pace!.last_sent_at as string).getTime(),
    ).toBe(20_000);
    // 20 s later (the clock moved: nextAt reached), the second send.
    await paceDue();
    await t.app.campaigns.runPace(whatsappId);
    expect((await detail(c.id)).totals).toMatchObject({ delivered: 2, pending: 2 });
    const cancelled = await inject('POST', `/api/campaigns/${c.id}/cancel`, a.admin);
    expect(cancelled.json().status).toBe('CANCELADA');
    await paceDue();
    await t.app.campaigns.runPace(whatsappId);
    await t.app.jobs.drain();
    expect((await detail(c.id)).totals).toMatchObject({ delivered: 2, pending: 2 });
    await inject('POST', '/api/campaign-settings', a.admin, { settings: { messageInterval: 0 } });
    await paceDue();
    const restarted = await inject('POST', `/api/campaigns/${c.id}/restart`, a.admin);
    expect(restarted.json().status).toBe('EM_ANDAMENTO');
    await t.app.jobs.drain();
    const done = await detail(c.id);
    expect(done.status).toBe('FINALIZADA');
    expect(done.totals).toMatchObject({ recipients: 4, delivered: 4, pending: 0 });
    for (const n of list.numbers) expect(outbox(n)).toHaveLength(1);
  });

  it('with confirmation on, an answer confirms once and gets the rotated confirmation message', async () => {
    const list = await contactList(3);
    const [first, second, quitter] = list.numbers as [string, string, string];
    const c = await campaign({
      name: 'Confirma',
      message1: 'Vem amanhã, {{firstName}}?',
      contactListId: list.id,
      confirmation: true,
      confirmationMessage1: 'Obrigado, {{firstName}}!',
      confirmationMessage2: 'Confirmado, {{name}}',
    });
    await inject('POST', `/api/campaigns/${c.id}/restart`, a.admin);
    await t.app.jobs.drain();
    expect((await detail(c.id)).totals).toMatchObject({ delivered: 3, confirmed: 0 });
    const awaiting = await t.app.ctx.db
      .select()
      .from(campaignShippings)
      .where(eq(campaignShippings.campaignId, c.id));
    expect(awaiting.every((s) => s.confirmationRequestedAt && !s.confirmedAt)).toBe(true);

    const answer = await injectMessage(t.app, a.admin, whatsappId, { from: first, body: 'Sim, vou' });
    await expect.poll(() => outbox(first).length).toBe(2);
    // The same answer observed again, twice at once, sends nothing more.
    const [ticket] = await t.app.ctx.db.select().from(tickets).where(eq(tickets.id, answer.ticketId));
    const result = { message: { fromMe: false, body: 'Sim, vou' }, ticket } as unknown as IngestResult;
    await Promise.all([
      t.app.campaigns.confirmFromInbound(a.companyId, whatsappId, result),
      t.app.campaigns.confirmFromInbound(a.companyId, whatsappId, result),
    ]);
    await injectMessage(t.app, a.admin, whatsappId, { from: first, body: 'de novo' });
    await injectMessage(t.app, a.admin, whatsappId, { from: second, body: 'ok' });
    await expect.poll(() => outbox(second).length).toBe(2);
    // The opt-out keyword is no confirmation.
    await injectMessage(t.app, a.admin, whatsappId, { from: quitter, body: 'SAIR' });
    await t.app.jobs.drain();
    expect(outbox(first)).toHaveLength(2);
    expect(outbox(quitter)).toHaveLength(1);
    const confirmations = [first, second].map((n) => outbox(n)[1]!.body).sort();
    // Consecutive shippings take consecutive variants; {{name}} is the list item's full name.
    expect(confirmations).toEqual([expect.stringMatching(/^Confirmado, Cliente \d$/), 'Obrigado, Cliente!']);
    const done = await detail(c.id);
    expect(done.totals).toMatchObject({ delivered: 3, confirmed: 2 });
    const report = ZCampaignShippingsPage.parse(
      (await inject('GET', `/api/campaigns/${c.id}/shippings`, a.admin)).json(),
    );
    const byNumber = new Map(report.records.map((r) => [r.number, r]));
    expect(byNumber.get(first)?.confirmedAt).not.toBeNull();
    expect(byNumber.get(quitter)?.confirmedAt).toBeNull();
  });

  it('without confirmation an answer confirms nothing and sends nothing', async () => {
    const list = await contactList(1);
    const [number] = list.numbers as [string];
    const c = await campaign({
      name: 'Sem confirmação',
      message1: 'Aviso',
      contactListId: list.id,
      confirmationMessage1: 'Não deveria sair',
    });
    await inject('POST', `/api/campaigns/${c.id}/restart`, a.admin);
    await t.app.jobs.drain();
    await injectMessage(t.app, a.admin, whatsappId, { from: number, body: 'ok' });
    await t.app.jobs.drain();
    expect(outbox(number).map((m) => m.body)).toEqual(['Aviso']);
    expect((await detail(c.id)).totals).toMatchObject({ delivered: 1, confirmed: 0 });
  });

  it('the opt-out keyword marks the number and later campaigns skip it', async () => {
    const list = await contactList(2);
    const [quitter, stayer] = list.numbers as [string, string];
    await injectMessage(t.app, a.admin, whatsappId, { from: quitter, body: ' sair ' });
    const c = await campaign({ name: 'Depois do SAIR', message1: 'Novidades', contactListId: list.id });
    await inject('POST', `/api/campaigns/${c.id}/restart`, a.admin);
    await t.app.jobs.drain();
    expect((await detail(c.id)).totals).toMatchObject({ recipients: 2, delivered: 1, skipped: 1 });
    expect(outbox(quitter).filter((m) => m.body === 'Novidades')).toHaveLength(0);
    expect(outbox(stayer).filter((m) => m.body === 'Novidades')).toHaveLength(1);
  });

  it('a disconnected connection pauses its shippings and resumes when it connects', async () => {
    const list = await contactList(2);
    const c = await campaign({ name: 'Pausa', message1: 'Volto já', contactListId: list.id });
    await inject('POST', `/api/campaigns/${c.id}/restart`, a.admin);
    await t.app.ctx.db.execute(sql`update whatsapps set status = 'DISCONNECTED' where id = ${whatsappId}`);
    await t.app.jobs.drain();
    expect((await detail(c.id)).totals).toMatchObject({ delivered: 0, pending: 2 });
    await t.app.ctx.db.execute(sql`update whatsapps set status = 'CONNECTED' where id = ${whatsappId}`);
    await t.app.campaigns.resume([whatsappId]);
    await t.app.jobs.drain();
    expect((await detail(c.id)).totals).toMatchObject({ delivered: 2, pending: 0 });
    for (const n of list.numbers) expect(outbox(n)).toHaveLength(1);
  });

  it('with interval 0 stores and marks a batch per step: each recipient once, across a rollback and a crash after the commit', async () => {
    const count = STEP_BATCH + 10;
    const list = await contactList(count);
    const c = await campaign({ name: 'Em lote', message1: 'Oferta em lote', contactListId: list.id });
    await inject('POST', `/api/campaigns/${c.id}/restart`, a.admin);
    await paceDue();
    const engine = t.app.campaigns as unknown as {
      step: (tx: unknown, id: number) => Promise<{ kind: string; stored?: unknown[] }>;
    };
    const stored = async () =>
      (
        await t.app.ctx.db
          .select({ id: messages.id })
          .from(messages)
          .where(and(eq(messages.companyId, a.companyId), eq(messages.body, 'Oferta em lote')))
      ).length;
    // The process dies inside a step's transaction: nothing is stored, every shipping stays pending.
    await expect(
      t.app.ctx.db.transaction(async (tx) => {
        await engine.step(tx, whatsappId);
        throw new Error('crash');
      }),
    ).rejects.toThrow('crash');
    expect((await detail(c.id)).totals).toMatchObject({ pending: count, delivered: 0 });
    expect(await stored()).toBe(0);
    // It dies right after a step's commit, before handing the batch to the session: one batch of
    // shippings is marked with its messages stored at ack 0, nothing reached a phone.
    const step = await t.app.ctx.db.transaction((tx) => engine.step(tx, whatsappId));
    expect(step.stored).toHaveLength(STEP_BATCH);
    expect((await detail(c.id)).totals).toMatchObject({ pending: 10, delivered: STEP_BATCH });
    for (const n of list.numbers) expect(outbox(n)).toHaveLength(0);
    // The session connects again: the stored batch goes out once and the pace sends the rest.
    const steps = vi.spyOn(engine, 'step');
    await t.app.sessions.start(a.companyId, whatsappId);
    await t.app.jobs.drain();
    await expect.poll(async () => (await detail(c.id)).status).toBe('FINALIZADA');
    for (const n of list.numbers) expect(outbox(n)).toHaveLength(1);
    expect(await stored()).toBe(count);
    expect((await detail(c.id)).totals).toMatchObject({ recipients: count, delivered: count, pending: 0 });
    // One step for the last 10, one finding nothing left: far fewer steps than recipients.
    expect(steps.mock.calls.length).toBeLessThanOrEqual(3);
    steps.mockRestore();
  });

  it('with interval 0 stores the next batch while the one before it is handed to the session, delivering them in claim order', async () => {
    const count = STEP_BATCH + 5;
    const list = await inject('POST', '/api/contact-lists', a.admin, { name: `Lista ${customerNumber()}` });
    expect(list.statusCode, list.body).toBe(201);
    // Numbers of their own (the other tests' start 55119), nine digits then four.
    const prefix = `552190${String(Date.now() % 1000).padStart(3, '0')}`;
    await t.app.ctx.db.execute(sql`
      insert into contact_list_items (company_id, contact_list_id, name, number)
      select ${a.companyId}, ${list.json().id}, 'Cliente ' || g, ${prefix} || lpad(g::text, 4, '0')
      from generate_series(1, ${count}::int) g`);
    const c = await campaign({
      name: 'Sobreposta',
      message1: 'Lote sobreposto',
      contactListId: list.json().id,
    });
    await inject('POST', `/api/campaigns/${c.id}/restart`, a.admin);
    await paceDue();
    // The first batch's delivery is held until the second batch is stored.
    const sender = (
      t.app.campaigns as unknown as { sender: { deliverStoredMany: (...args: never[]) => unknown } }
    ).sender;
    const original = sender.deliverStoredMany.bind(sender);
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const batches: number[][] = [];
    const deliver = vi.spyOn(sender, 'deliverStoredMany').mockImplementation((async (
      companyId: number,
      ids: number[],
    ) => {
      batches.push(ids);
      if (batches.length === 1) await held;
      return original(companyId as never, ids as never);
    }) as never);
    const run = t.app.campaigns.runPace(whatsappId);
    await expect.poll(async () => (await detail(c.id)).totals.pending, { timeout: 60_000 }).toBe(0);
    // Every shipping is stored and marked while the first batch has reached no phone.
    expect(batches).toHaveLength(1);
    expect((await detail(c.id)).totals).toMatchObject({ delivered: count, pending: 0 });
    release();
    await run;
    deliver.mockRestore();
    expect(batches.map((ids) => ids.length)).toEqual([STEP_BATCH, 5]);
    expect(Math.max(...batches[0]!)).toBeLessThan(Math.min(...batches[1]!));
    for (let g = 1; g <= count; g++) expect(outbox(`${prefix}${String(g).padStart(4, '0')}`)).toHaveLength(1);
    expect((await detail(c.id)).status).toBe('FINALIZADA');
  });

  it('sends every recipient exactly once across a crash and a new process', async () => {
    const list = await contactList(5);
    const c = await campaign({ name: 'Resistente', message1: 'Uma só vez', contactListId: list.id });
    await inject('POST', `/api/campaigns/${c.id}/restart`, a.admin);
    await t.app.ctx.db.execute(
      sql`update campaign_pace set next_at = null where whatsapp_id = ${whatsappId}`,
    );
    // The process dies right after the commit that marked a shipping and stored its message, before
    // handing it to the session: the step's transaction commits, nothing is delivered.
    const engine = t.app.campaigns as unknown as { step: (tx: unknown, id: number) => Promise<unknown> };
    await t.app.ctx.db.transaction((tx) => engine.step(tx, whatsappId));
    await t.app.close();
    const next = await buildSecondNode(t, { nodeId: t.config.nodeId, simulator: t.app.simulator });
    await next.sessions.startAll();
    await next.jobs.drain();
    await expect
      .poll(
        async () =>
          (
            await next.inject({ method: 'GET', url: `/api/campaigns/${c.id}`, headers: bearer(a.admin) })
          ).json().status,
      )
      .toBe('FINALIZADA');
    for (const n of list.numbers) await expect.poll(() => outbox(n).length).toBe(1);
    const unsent = await next.ctx.db
      .select()
      .from(messages)
      .where(and(eq(messages.companyId, a.companyId), eq(messages.ack, 0), eq(messages.fromMe, true)));
    expect(unsent.filter((m) => m.body === 'Uma só vez')).toEqual([]);
    const shippings = await next.ctx.db
      .select()
      .from(campaignShippings)
      .where(eq(campaignShippings.campaignId, c.id));
    expect(shippings.map((s) => s.status)).toEqual(Array(5).fill('delivered'));
    // The rest of this file's tests are done; the test app's close() closes the database.
    t.app = next;
  });
});
