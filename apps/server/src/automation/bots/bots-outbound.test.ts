import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ticketNotes, tickets } from '../../db/schema/index.js';
import { isPublicAddress } from '../../lib/outbound-url.js';
import {
  type ConnectedTenant,
  customerSays,
  flushJobs,
  openOneQueueTenant,
} from '../../test/conversation.js';
import { bearer, customerNumber } from '../../test/factories.js';
import { FakeBotServices } from '../../test/fake-bot-services.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { FALLBACK_TEXT } from './bot-engine.js';

/**
 * The outbound-URL policy on bot integrations, with the policy closed (the default): the fake bot
 * services listen on loopback and must receive nothing. A second server on 127.0.0.2 plays a public
 * host (public.test) through the context's resolver seam.
 */
let t: TestApp;
let fake: FakeBotServices;
const publicHits: string[] = [];
const publicServer = http.createServer((req, res) => {
  publicHits.push(req.url ?? '');
  if (req.url === '/redirect') {
    res.writeHead(307, { location: `${fake.url}/hook` }).end();
  } else {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ replies: ['Resposta pública'] }));
  }
});
let publicBase = '';

beforeAll(async () => {
  fake = await new FakeBotServices().start();
  await new Promise<void>((resolve) => publicServer.listen(0, '127.0.0.2', resolve));
  publicBase = `http://public.test:${(publicServer.address() as AddressInfo).port}`;
  t = await createTestApp({ DIALOGFLOW_BASE_URL: fake.url, BOT_TIMEOUT_MS: '800' });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await new Promise((resolve) => publicServer.close(resolve));
});
beforeEach(() => {
  fake.received = [];
  publicHits.length = 0;
});

type Setup = ConnectedTenant;

const setup = () => openOneQueueTenant(t.app);

const api = (s: Setup, method: 'POST' | 'PUT', url: string, payload: object) =>
  t.app.inject({ method, url, headers: bearer(s.admin), payload });

/** Runs the opened policy for `work` (a self-hosted receiver), then closes it again. */
async function withSwitchOn<T>(work: () => Promise<T>): Promise<T> {
  t.app.ctx.config.OUTBOUND_ALLOW_PRIVATE_URLS = true;
  try {
    return await work();
  } finally {
    t.app.ctx.config.OUTBOUND_ALLOW_PRIVATE_URLS = false;
  }
}

const flush = () => flushJobs(t, 'queue-bot');

const say = (s: Setup, from: string, body: string) => customerSays(t.app, s, from, body, flush);

const loopbackForms = (port: number) => [
  `http://127.0.0.1:${port}/hook`,
  `http://127.0.0.1:${port}/missing`,
  'http://127.0.0.1:9/closed',
  `http://localhost:${port}/hook`,
  `http://[::1]:${port}/hook`,
  `http://[::ffff:127.0.0.1]:${port}/hook`,
  `http://2130706433:${port}/hook`,
  `http://0x7f.1:${port}/hook`,
  'http://192.0.2.1/hook',
  'http://100.64.0.1/hook',
  'http://169.254.169.254/latest/meta-data',
];

describe('bot integrations under the outbound-URL policy', () => {
  it('testSession answers one ERR_URL_NOT_ALLOWED for n8n, webhook and Typebot at non-public addresses (live, 404 or closed), reaching nothing', async () => {
    const s = await setup();
    const port = Number(new URL(fake.url).port);
    for (const type of ['n8n', 'webhook', 'typebot'] as const) {
      for (const urlN8N of loopbackForms(port)) {
        const res = await api(s, 'POST', '/api/queueIntegration/testSession', {
          type,
          urlN8N,
          typebotSlug: 'x',
        });
        expect(res.statusCode, `${type} ${urlN8N}`).toBe(400);
        expect(res.json(), `${type} ${urlN8N}`).toEqual({ error: 'ERR_URL_NOT_ALLOWED', field: 'urlN8N' });
      }
    }
    expect(fake.received).toEqual([]);
    // Positive control: the switch on, the same test reaches the service.
    const open = await withSwitchOn(() =>
      api(s, 'POST', '/api/queueIntegration/testSession', { type: 'n8n', urlN8N: `${fake.url}/hook` }),
    );
    expect(open.json()).toMatchObject({ ok: true, replies: ['Recebido: Olá'] });
    expect(fake.requests('/hook')).toHaveLength(1);
  });

  it('testSession and the save routes refuse a Dialogflow key whose token_uri is not public, reaching nothing', async () => {
    const s = await setup();
    const jsonContent = fake.serviceAccount();
    const res = await api(s, 'POST', '/api/queueIntegration/testSession', {
      projectName: 'loja-agent',
      jsonContent,
      language: 'pt-BR',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'ERR_URL_NOT_ALLOWED', field: 'jsonContent' });
    const saved = await api(s, 'POST', '/api/queueIntegration', {
      type: 'dialogflow',
      name: 'Agente DF',
      projectName: 'loja-agent',
      language: 'pt-BR',
      jsonContent,
    });
    expect(saved.statusCode).toBe(400);
    expect(saved.json()).toMatchObject({ error: 'ERR_URL_NOT_ALLOWED', field: 'jsonContent' });
    expect(fake.received).toEqual([]);
    // Positive control: the switch on, the key trades its token (detectIntent follows).
    const open = await withSwitchOn(() =>
      api(s, 'POST', '/api/queueIntegration/testSession', { projectName: 'loja-agent', jsonContent }),
    );
    expect(open.json()).toEqual({ ok: true, replies: ['Dialogflow: Olá'] });
    expect(fake.requests('/token')).toHaveLength(1);
  });

  it('saving or moving an integration to a non-public URL answers ERR_URL_NOT_ALLOWED', async () => {
    const s = await setup();
    const port = Number(new URL(fake.url).port);
    for (const urlN8N of loopbackForms(port)) {
      const res = await api(s, 'POST', '/api/queueIntegration', { type: 'n8n', name: 'Fluxo', urlN8N });
      expect(res.statusCode, urlN8N).toBe(400);
      expect(res.json(), urlN8N).toMatchObject({ error: 'ERR_URL_NOT_ALLOWED', field: 'urlN8N' });
    }
    // Positive control: a public address is saved; moving it to loopback is refused.
    const created = await api(s, 'POST', '/api/queueIntegration', {
      type: 'webhook',
      name: 'Gancho',
      urlN8N: 'https://203.0.114.7/hook',
    });
    expect(created.statusCode, created.body).toBe(200);
    const moved = await api(s, 'PUT', `/api/queueIntegration/${created.json().id}`, {
      urlN8N: `${fake.url}/hook`,
    });
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toMatchObject({ error: 'ERR_URL_NOT_ALLOWED' });
    expect(fake.received).toEqual([]);
  });

  it('at run time a non-public URL reaches nothing and the ticket goes to a human, as for an unreachable service', async () => {
    const cases = [
      { type: 'n8n', name: 'n8n', urlN8N: `${fake.url}/hook`, note: /n8n: unreachable/ },
      { type: 'webhook', name: 'webhook', urlN8N: `${fake.url}/hook`, note: /webhook: unreachable/ },
      { type: 'typebot', name: 'typebot', urlN8N: fake.url, typebotSlug: 'x', note: /typebot: unreachable/ },
      {
        type: 'dialogflow',
        name: 'df',
        projectName: 'loja-agent',
        language: 'pt-BR',
        jsonContent: fake.serviceAccount(),
        note: /dialogflow: token endpoint unreachable/,
      },
    ];
    for (const { note, ...payload } of cases) {
      const s = await setup();
      // Saved while the switch was on (a self-hosted service), then the switch went off.
      const integration = await withSwitchOn(() => api(s, 'POST', '/api/queueIntegration', payload));
      expect(integration.statusCode, integration.body).toBe(200);
      await api(s, 'PUT', `/api/queue/${s.queueId}`, { integrationId: integration.json().id });
      const res = await say(s, customerNumber(), 'Oi');
      expect(res.replies, payload.type).toEqual([FALLBACK_TEXT]);
      const notes = await t.app.ctx.db
        .select()
        .from(ticketNotes)
        .where(eq(ticketNotes.ticketId, res.ticketId));
      expect(notes[0]?.note, payload.type).toMatch(note);
      const [ticket] = await t.app.ctx.db.select().from(tickets).where(eq(tickets.id, res.ticketId));
      expect(ticket).toMatchObject({ useIntegration: false });
    }
    expect(fake.received).toEqual([]);
    // Positive control: the switch on, the n8n bot answers.
    const s = await setup();
    const integration = await withSwitchOn(() =>
      api(s, 'POST', '/api/queueIntegration', { type: 'n8n', name: 'n8n', urlN8N: `${fake.url}/hook` }),
    );
    await api(s, 'PUT', `/api/queue/${s.queueId}`, { integrationId: integration.json().id });
    const answered = await withSwitchOn(() => say(s, customerNumber(), 'Pedido 9'));
    expect(answered.replies).toEqual(['Recebido: Pedido 9']);
  });

  it('follows no redirect from a public URL to a non-public one; a public URL goes through', async () => {
    t.app.ctx.outbound = {
      resolve: async (hostname) => (hostname === 'public.test' ? [{ address: '127.0.0.2', family: 4 }] : []),
      isAllowedAddress: (address) => address === '127.0.0.2' || isPublicAddress(address),
    };
    try {
      const s = await setup();
      const redirected = await api(s, 'POST', '/api/queueIntegration/testSession', {
        type: 'n8n',
        urlN8N: `${publicBase}/redirect`,
      });
      expect(redirected.statusCode).toBe(400);
      expect(redirected.json()).toEqual({ error: 'ERR_URL_NOT_ALLOWED', field: 'urlN8N' });
      expect(publicHits).toEqual(['/redirect']);
      expect(fake.received).toEqual([]);
      // Positive control: the "public" host answers.
      const ok = await api(s, 'POST', '/api/queueIntegration/testSession', {
        type: 'webhook',
        urlN8N: `${publicBase}/ok`,
      });
      expect(ok.json()).toEqual({ ok: true, replies: ['Resposta pública'] });
    } finally {
      t.app.ctx.outbound = undefined;
    }
  });
});
