/**
 * The inbound hooks answer from per-node caches: the campaign opt-out keyword,
 * whether a company has a shipping awaiting confirmation, and its active webhooks. A change takes
 * effect on the next message, with the cache back in use by then (not merely bypassed).
 */
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { campaignOptOuts, campaignShippings, webhookDeliveries } from '../db/schema/index.js';
import {
  bearer,
  customerNumber,
  inboundMessage,
  injectMessage,
  type TenantFixture,
  type TestUser,
} from '../test/factories.js';
import { campaignsAnyHour, openConnectionFixture } from '../test/fixtures.js';
import type { TestApp } from '../test/test-app.js';

let t: TestApp;
let a: TenantFixture;
let whatsappId: number;
beforeAll(async () => {
  ({ t, a, whatsappId } = await openConnectionFixture({ OUTBOUND_ALLOW_PRIVATE_URLS: 'true' }));
  await campaignsAnyHour(t.app, a.admin);
});
afterAll(() => t.close());

function inject(
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  user: TestUser,
  payload?: object,
  app: FastifyInstance = t.app,
) {
  return app.inject({ method, url, headers: bearer(user), payload });
}

const cache = (topic: string) => {
  const found = t.app.ctx.caches?.define({ topic, localWrite: /^$/, load: async () => undefined });
  if (!found) throw new Error('the app keeps no caches');
  return found;
};

/** Waits until the caches answer from memory again (the bypass after this node's own write ended). */
async function cachesInUse(): Promise<void> {
  await vi.waitFor(() => expect(t.app.ctx.caches?.usable).toBe(true), { timeout: 5000, interval: 50 });
}

async function optedOut(number: string): Promise<boolean> {
  const rows = await t.app.ctx.db
    .select()
    .from(campaignOptOuts)
    .where(and(eq(campaignOptOuts.companyId, a.companyId), eq(campaignOptOuts.number, number)));
  return rows.length > 0;
}

describe('inbound hook caches', () => {
  it('a new opt-out keyword counts from the next message', async () => {
    const [first, second, third] = [customerNumber(), customerNumber(), customerNumber()];
    await cachesInUse();
    const hits = cache('campaign_settings').stats.hits;
    await injectMessage(t.app, a.admin, whatsappId, { from: first, body: 'parar' });
    await injectMessage(t.app, a.admin, whatsappId, { from: first, body: 'oi' });
    expect(cache('campaign_settings').stats.hits).toBeGreaterThan(hits);
    expect(await optedOut(first)).toBe(false);

    const saved = await inject('POST', '/api/campaign-settings', a.admin, {
      settings: { optOutKeyword: 'PARAR' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await cachesInUse();
    await injectMessage(t.app, a.admin, whatsappId, { from: second, body: ' Parar ' });
    await injectMessage(t.app, a.admin, whatsappId, { from: third, body: 'SAIR' });
    expect(await optedOut(second)).toBe(true);
    expect(await optedOut(third)).toBe(false);

    await inject('POST', '/api/campaign-settings', a.admin, { settings: { optOutKeyword: 'SAIR' } });
    await cachesInUse();
    await injectMessage(t.app, a.admin, whatsappId, { from: third, body: 'sair' });
    expect(await optedOut(third)).toBe(true);
  });

  it('a shipping that starts awaiting confirmation is confirmed by the next answer', async () => {
    const list = await inject('POST', '/api/contact-lists', a.admin, { name: `Lista ${customerNumber()}` });
    const number = customerNumber();
    const item = await inject('POST', '/api/contact-list-items', a.admin, {
      contactListId: list.json().id,
      name: 'Cliente',
      number,
    });
    expect(item.statusCode, item.body).toBe(201);
    // The company has nothing awaiting confirmation: the cache says so, no lookup per message.
    await cachesInUse();
    await injectMessage(t.app, a.admin, whatsappId, { from: customerNumber(), body: 'olá' });
    const hits = cache('campaign_confirmation').stats.hits;
    await injectMessage(t.app, a.admin, whatsappId, { from: customerNumber(), body: 'olá de novo' });
    expect(cache('campaign_confirmation').stats.hits).toBe(hits + 1);

    const created = await inject('POST', '/api/campaigns', a.admin, {
      whatsappId,
      name: 'Confirma',
      message1: 'Vem amanhã?',
      contactListId: list.json().id,
      confirmation: true,
      confirmationMessage1: 'Obrigado!',
    });
    expect(created.statusCode, created.body).toBe(201);
    await inject('POST', `/api/campaigns/${created.json().id}/restart`, a.admin);
    await t.app.jobs.drain();
    await cachesInUse();
    await injectMessage(t.app, a.admin, whatsappId, { from: number, body: 'Sim' });
    const [shipping] = await t.app.ctx.db
      .select()
      .from(campaignShippings)
      .where(eq(campaignShippings.campaignId, created.json().id));
    expect(shipping?.confirmedAt).not.toBeNull();
    await expect
      .poll(() => t.app.simulator.outbox(whatsappId, number).map((m) => m.body))
      .toEqual(['Vem amanhã?', 'Obrigado!']);
  });

  it('a webhook created or switched off counts from the next message', async () => {
    const deliveries = async (hookId: number) =>
      (await t.app.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hookId)))
        .length;
    await cachesInUse();
    await injectMessage(t.app, a.admin, whatsappId, { from: customerNumber(), body: 'antes' });
    await t.app.webhooks.settled();
    const hook = await inject('POST', '/api/webhooks', a.admin, {
      url: 'http://127.0.0.1:9/hook',
      events: ['message.created'],
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const hookId = hook.json().id as number;
    await cachesInUse();
    await injectMessage(t.app, a.admin, whatsappId, { from: customerNumber(), body: 'depois' });
    await t.app.webhooks.settled();
    expect(await deliveries(hookId)).toBe(1);

    const off = await inject('PUT', `/api/webhooks/${hookId}`, a.admin, { active: false });
    expect(off.statusCode, off.body).toBe(200);
    await cachesInUse();
    await injectMessage(t.app, a.admin, whatsappId, { from: customerNumber(), body: 'desligado' });
    await t.app.webhooks.settled();
    expect(await deliveries(hookId)).toBe(1);
  });

  it('a change of CheckMsgIsGroup counts from the next group message', async () => {
    const ref = { id: whatsappId, companyId: a.companyId };
    const group = (body: string) => inboundMessage('120363000000000777', body, { isGroup: true });
    const setGroups = async (value: 'enabled' | 'disabled') => {
      const res = await inject('PUT', '/api/settings/CheckMsgIsGroup', a.admin, { value });
      expect(res.statusCode, res.body).toBe(200);
      await cachesInUse();
    };
    await setGroups('disabled');
    expect(await t.app.pipeline.ingest(ref, group('um'))).toBeTruthy();
    const hits = cache('settings').stats.hits;
    expect(await t.app.pipeline.ingest(ref, group('dois'))).toBeTruthy();
    expect(cache('settings').stats.hits).toBe(hits + 1);
    await setGroups('enabled');
    expect(await t.app.pipeline.ingest(ref, group('três'))).toBeUndefined();
    await setGroups('disabled');
    expect(await t.app.pipeline.ingest(ref, group('quatro'))).toBeTruthy();
  });
});
