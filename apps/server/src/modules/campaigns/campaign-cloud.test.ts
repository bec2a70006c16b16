import { ZCampaign, ZCampaignDetail } from '@zapdesk/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeGraphApi, sign, webhook } from '../../channels/cloud/fake-graph-api.js';
import { campaignShippings } from '../../db/schema/index.js';
import { createTenant, customerNumber, injectAs, type TenantFixture } from '../../test/factories.js';
import { campaignsAnyHour } from '../../test/fixtures.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

const APP_SECRET = 'app-secret-of-the-campaign-company';
let t: TestApp;
let fake: FakeGraphApi;
let a: TenantFixture;
let whatsappId: number;
let seq = 0;

const inject = injectAs(() => t.app);

beforeAll(async () => {
  fake = new FakeGraphApi();
  const origin = await fake.start();
  t = await createTestApp({ CLOUD_API_URL: origin, CLOUD_API_VERSION: 'v21.0' });
  a = await createTenant(t.app);
  const created = await inject('POST', '/api/whatsapp', a.admin, {
    name: 'Cloud campanhas',
    provider: 'cloud',
    queueIds: [a.queueId],
  });
  expect(created.statusCode, created.body).toBe(201);
  whatsappId = created.json().id;
  const saved = await inject('PUT', `/api/whatsapp/${whatsappId}/cloud`, a.admin, {
    phoneNumberId: fake.phoneNumberId,
    wabaId: fake.wabaId,
    accessToken: fake.token,
    appSecret: APP_SECRET,
  });
  expect(saved.statusCode, saved.body).toBe(200);
  await campaignsAnyHour(t.app, a.admin);
});
afterAll(async () => {
  await t.close();
  await fake.stop();
});

/** A customer message through the connection's signed webhook (and the job that stores it). */
async function receive(from: string, body: string) {
  const raw = JSON.stringify(
    webhook(fake.phoneNumberId, {
      contacts: [{ wa_id: from, name: 'Cliente' }],
      messages: [
        {
          from,
          id: `wamid.CAMP${Date.now()}${++seq}`,
          timestamp: String(Math.floor(Date.now() / 1000)),
          type: 'text',
          text: { body },
        },
      ],
    }),
  );
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/cloud/webhook/${whatsappId}`,
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': sign(raw, APP_SECRET) },
    payload: raw,
  });
  expect(res.statusCode).toBe(200);
  await t.app.jobs.drain();
}

/** A contact list of `count` fresh numbers; answers its id and the numbers. */
async function recipients(count: number) {
  const list = await inject('POST', '/api/contact-lists', a.admin, { name: `Lista ${customerNumber()}` });
  const numbers: string[] = [];
  for (let i = 0; i < count; i++) {
    const item = await inject('POST', '/api/contact-list-items', a.admin, {
      contactListId: list.json().id,
      name: `Cliente ${i}`,
      number: customerNumber(),
    });
    expect(item.statusCode, item.body).toBe(201);
    numbers.push(item.json().number);
  }
  return { numbers, list: list.json().id as number };
}

/** Creates the campaign on the cloud connection, starts it and runs its jobs; answers its detail. */
async function run(listId: number, payload: object) {
  const created = await inject('POST', '/api/campaigns', a.admin, {
    whatsappId,
    contactListId: listId,
    ...payload,
  });
  expect(created.statusCode, created.body).toBe(201);
  const c = ZCampaign.parse(created.json());
  const started = await inject('POST', `/api/campaigns/${c.id}/restart`, a.admin);
  expect(started.statusCode, started.body).toBe(200);
  await t.app.jobs.drain();
  return ZCampaignDetail.parse((await inject('GET', `/api/campaigns/${c.id}`, a.admin)).json());
}

const sentTo = (number: string) => fake.sent().filter((m) => m.to === number);

describe('campaigns on a Cloud API connection', () => {
  it('outside the 24-hour window sends the approved template; inside it, the text; an answer confirms', async () => {
    const { numbers, list } = await recipients(2);
    const [silent, talker] = numbers as [string, string];
    await receive(talker, 'oi');
    const done = await run(list, {
      name: 'Cloud template',
      message1: 'Promo da semana',
      templateName: 'hello_world',
      templateLanguage: 'en_US',
      confirmation: true,
      confirmationMessage1: 'Obrigado, {{firstName}}!',
    });
    expect(done.status).toBe('FINALIZADA');
    expect(done.totals).toMatchObject({ recipients: 2, delivered: 2, failed: 0, confirmed: 0 });
    expect(sentTo(silent)).toEqual([
      expect.objectContaining({
        type: 'template',
        template: expect.objectContaining({ name: 'hello_world', language: { code: 'en_US' } }),
      }),
    ]);
    expect(sentTo(talker)).toEqual([
      expect.objectContaining({ type: 'text', text: expect.objectContaining({ body: 'Promo da semana' }) }),
    ]);
    const rows = await t.app.ctx.db
      .select()
      .from(campaignShippings)
      .where(eq(campaignShippings.campaignId, done.id));
    expect(rows.find((r) => r.number === silent)).toMatchObject({ message: '[template] hello_world' });
    // The answer to the template opens the window: the confirmation goes out as text, once.
    await receive(silent, 'Quero!');
    await expect.poll(() => sentTo(silent).length).toBe(2);
    expect(sentTo(silent)[1]).toMatchObject({ type: 'text', text: { body: 'Obrigado, Cliente!' } });
    await receive(silent, 'Obrigado');
    expect(sentTo(silent)).toHaveLength(2);
    const after = ZCampaignDetail.parse((await inject('GET', `/api/campaigns/${done.id}`, a.admin)).json());
    expect(after.totals.confirmed).toBe(1);
  });

  it('outside the window without a template the shipping fails with ERR_WAPP_OUTSIDE_WINDOW', async () => {
    const { numbers, list } = await recipients(1);
    const done = await run(list, { name: 'Cloud sem template', message1: 'Texto livre' });
    expect(done.totals).toMatchObject({ recipients: 1, delivered: 0, failed: 1 });
    expect(sentTo(numbers[0]!)).toEqual([]);
    const [row] = await t.app.ctx.db
      .select()
      .from(campaignShippings)
      .where(eq(campaignShippings.campaignId, done.id));
    expect(row).toMatchObject({ status: 'failed', error: 'ERR_WAPP_OUTSIDE_WINDOW' });
  });
});
