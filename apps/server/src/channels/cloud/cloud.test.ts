import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cloudConnections, messages, tickets, whatsapps } from '../../db/schema/index.js';
import { LocalStorage } from '../../lib/storage/local-storage.js';
import {
  bearer,
  createQueue,
  createTenant,
  createUser,
  customerNumber,
  injectAs,
  type TenantFixture,
} from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { MediaStore } from '../media-store.js';
import { CloudDriver } from './cloud-driver.js';
import { FakeGraphApi, sign, webhook } from './fake-graph-api.js';

const APP_SECRET = 'app-secret-of-company-a';
let t: TestApp;
const inject = injectAs(() => t.app);
let fake: FakeGraphApi;
let a: TenantFixture;
let whatsappId: number;
let seq = 0;

beforeAll(async () => {
  fake = new FakeGraphApi();
  const origin = await fake.start();
  t = await createTestApp({
    CLOUD_API_URL: origin,
    CLOUD_API_VERSION: 'v21.0',
    SEND_RETRY_BASE_SECONDS: '0',
    SEND_RETRY_LIMIT: '2',
  });
  a = await createTenant(t.app);
  whatsappId = await createCloudConnection(a, fake.phoneNumberId, APP_SECRET);
});
afterAll(async () => {
  await t.close();
  await fake.stop();
});

/** Creates a cloud connection and saves its settings (the session connects against the fake). */
async function createCloudConnection(tenant: TenantFixture, phoneNumberId: string, appSecret: string) {
  const created = await inject('POST', '/api/whatsapp', tenant.admin, {
    name: `Cloud ${++seq}`,
    provider: 'cloud',
    queueIds: [tenant.queueId],
  });
  expect(created.statusCode).toBe(201);
  const id = created.json().id as number;
  const saved = await inject('PUT', `/api/whatsapp/${id}/cloud`, tenant.admin, {
    phoneNumberId,
    wabaId: fake.wabaId,
    accessToken: fake.token,
    appSecret,
  });
  expect(saved.statusCode).toBe(200);
  return id;
}

async function status(id = whatsappId) {
  const [row] = await t.app.ctx.db.select().from(whatsapps).where(eq(whatsapps.id, id));
  return row!;
}

/** Posts a signed webhook body to a connection's URL. */
function post(id: number, body: unknown, secret = APP_SECRET, headers: Record<string, string> = {}) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  return t.app.inject({
    method: 'POST',
    url: `/api/cloud/webhook/${id}`,
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': sign(raw, secret), ...headers },
    payload: raw,
  });
}

const wamid = () => `wamid.HBgN${Date.now()}${++seq}`;
const now = () => String(Math.floor(Date.now() / 1000));

/** Receives one customer message through a signed webhook and the job; answers the stored row. */
async function receive(from: string, message: Record<string, unknown>, name = 'Maria') {
  const id = wamid();
  const res = await post(
    whatsappId,
    webhook(fake.phoneNumberId, {
      contacts: [{ wa_id: from, name }],
      messages: [{ from, id, timestamp: now(), ...message }],
    }),
  );
  expect(res.statusCode).toBe(200);
  await t.app.jobs.drain();
  const [row] = await t.app.ctx.db
    .select()
    .from(messages)
    .where(and(eq(messages.whatsappId, whatsappId), eq(messages.wid, id)));
  return row!;
}

const countMessages = async (id = whatsappId) =>
  (await t.app.ctx.db.select({ id: messages.id }).from(messages).where(eq(messages.whatsappId, id))).length;

describe('cloud connection setup', () => {
  it('connects once the Graph API accepts the token, never answering the secrets', async () => {
    const row = await status();
    expect(row.status).toBe('CONNECTED');
    expect(row.number).toBe('551155550100');
    const res = await inject('GET', `/api/whatsapp/${whatsappId}/cloud`, a.admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      phoneNumberId: fake.phoneNumberId,
      wabaId: fake.wabaId,
      accessTokenHint: `…${fake.token.slice(-4)}`,
      appSecretSet: true,
      webhookPath: `/cloud/webhook/${whatsappId}`,
    });
    expect(res.json().verifyToken).toMatch(/^[\w-]{20,}$/);
    expect(res.body).not.toContain(fake.token);
    expect(res.body).not.toContain(APP_SECRET);
    const [stored] = await t.app.ctx.db
      .select()
      .from(cloudConnections)
      .where(eq(cloudConnections.whatsappId, whatsappId));
    expect(stored!.accessToken).not.toContain(fake.token);
    expect(stored!.appSecret).not.toContain(APP_SECRET);
    // Agents cannot read the settings.
    const agent = await inject('GET', `/api/whatsapp/${whatsappId}/cloud`, a.agent);
    expect(agent.statusCode).toBe(403);
  });

  it('is DISCONNECTED with the reason when the token is refused, CONNECTED again once fixed', async () => {
    const id = await createCloudConnection(a, '200000000000001', 'another-secret');
    expect((await status(id)).status).toBe('CONNECTED');
    const bad = await inject('PUT', `/api/whatsapp/${id}/cloud`, a.admin, {
      accessToken: 'EAAG-wrong-token-9999',
    });
    expect(bad.statusCode).toBe(200);
    expect(bad.json().accessTokenHint).toBe('…9999');
    // What the body omitted kept its value.
    expect(bad.json()).toMatchObject({
      phoneNumberId: '200000000000001',
      wabaId: fake.wabaId,
      appSecretSet: true,
    });
    const [kept] = await t.app.ctx.db
      .select()
      .from(cloudConnections)
      .where(eq(cloudConnections.whatsappId, id));
    expect(kept!.verifyToken).toBe(bad.json().verifyToken);
    const row = await status(id);
    expect(row.status).toBe('DISCONNECTED');
    expect(row.statusReason).toMatch(/Access token refused \(190\)/);
    const list = await inject('GET', '/api/whatsapp', a.admin);
    expect(list.json().find((w: { id: number }) => w.id === id).statusReason).toMatch(/190/);
    await inject('PUT', `/api/whatsapp/${id}/cloud`, a.admin, { accessToken: fake.token });
    expect(await status(id)).toMatchObject({ status: 'CONNECTED', statusReason: null });
    // A connection without settings says so.
    const bare = await inject('POST', '/api/whatsapp', a.admin, { name: 'Cloud bare', provider: 'cloud' });
    expect(bare.json()).toMatchObject({ status: 'DISCONNECTED', statusReason: 'Cloud API settings missing' });
    const first = await inject('PUT', `/api/whatsapp/${bare.json().id}/cloud`, a.admin, {
      phoneNumberId: '300000000000001',
    });
    expect(first.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'wabaId' });
    // A phone number id belongs to one connection.
    const taken = await inject('PUT', `/api/whatsapp/${bare.json().id}/cloud`, a.admin, {
      phoneNumberId: fake.phoneNumberId,
      wabaId: '1',
      accessToken: fake.token,
      appSecret: 'secret-xyz',
    });
    expect(taken.json()).toMatchObject({ error: 'ERR_ALREADY_EXISTS', field: 'phoneNumberId' });
  });

  it('refuses the settings route for a connection of another provider', async () => {
    const sim = await inject('POST', '/api/whatsapp', a.admin, {
      name: 'Sim for cloud',
      provider: 'simulator',
    });
    const res = await inject('GET', `/api/whatsapp/${sim.json().id}/cloud`, a.admin);
    expect(res.json()).toMatchObject({ error: 'ERR_WRONG_PROVIDER' });
  });
});

describe('webhook verification and authentication', () => {
  it('answers the challenge only for the right verify token', async () => {
    const { verifyToken } = (await inject('GET', `/api/whatsapp/${whatsappId}/cloud`, a.admin)).json();
    const url = (mode: string, token: string) =>
      `/api/cloud/webhook/${whatsappId}?hub.mode=${mode}&hub.verify_token=${token}&hub.challenge=1158201444`;
    const ok = await t.app.inject({ method: 'GET', url: url('subscribe', verifyToken) });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('1158201444');
    expect((await t.app.inject({ method: 'GET', url: url('subscribe', 'wrong') })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: url('unsubscribe', verifyToken) })).statusCode).toBe(
      403,
    );
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/cloud/webhook/999999?hub.mode=subscribe&hub.verify_token=${verifyToken}`,
        })
      ).statusCode,
    ).toBe(403);
  });

  it('refuses a missing or wrong signature, a malformed body and an unknown phone number id, storing nothing', async () => {
    const from = customerNumber();
    const body = webhook(fake.phoneNumberId, {
      messages: [{ from, id: wamid(), timestamp: now(), type: 'text', text: { body: 'oi' } }],
    });
    const raw = JSON.stringify(body);
    const before = await countMessages();
    const unsigned = await t.app.inject({
      method: 'POST',
      url: `/api/cloud/webhook/${whatsappId}`,
      headers: { 'content-type': 'application/json' },
      payload: raw,
    });
    expect(unsigned.statusCode).toBe(403);
    expect((await post(whatsappId, body, 'wrong-secret')).statusCode).toBe(403);
    // The signature covers the raw bytes: the same JSON re-serialised differently is refused.
    const tampered = await t.app.inject({
      method: 'POST',
      url: `/api/cloud/webhook/${whatsappId}`,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': sign(raw, APP_SECRET) },
      payload: JSON.stringify(body, null, 2),
    });
    expect(tampered.statusCode).toBe(403);
    expect((await post(whatsappId, '{"object":')).statusCode).toBe(400);
    expect((await post(whatsappId, { object: 'page', entry: [] })).statusCode).toBe(400);
    const unknown = await post(
      whatsappId,
      webhook('999999999999999', {
        messages: [{ from, id: wamid(), timestamp: now(), type: 'text', text: { body: 'x' } }],
      }),
    );
    expect(unknown.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'metadata.phone_number_id' });
    const huge = await post(whatsappId, {
      object: 'whatsapp_business_account',
      pad: 'x'.repeat(4 * 1024 * 1024),
    });
    expect(huge.statusCode).toBe(413);
    await t.app.jobs.drain();
    expect(await countMessages()).toBe(before);
    // Positive control: the same body correctly signed is stored.
    expect((await post(whatsappId, body)).statusCode).toBe(200);
    await t.app.jobs.drain();
    expect(await countMessages()).toBe(before + 1);
  });

  it("never gives another company's connection the events", async () => {
    const b = await createTenant(t.app);
    const bId = await createCloudConnection(b, '400000000000001', 'secret-of-company-b');
    const from = customerNumber();
    const body = webhook(fake.phoneNumberId, {
      messages: [{ from, id: wamid(), timestamp: now(), type: 'text', text: { body: 'para A' } }],
    });
    // A's payload to B's URL: signed with A's secret (B's check fails), or with B's (wrong number id).
    expect((await post(bId, body, APP_SECRET)).statusCode).toBe(403);
    expect((await post(bId, body, 'secret-of-company-b')).statusCode).toBe(400);
    await t.app.jobs.drain();
    expect(await countMessages(bId)).toBe(0);
    const bTickets = await t.app.ctx.db.select().from(tickets).where(eq(tickets.companyId, b.companyId));
    expect(bTickets).toHaveLength(0);
    // B's settings are not A's business.
    const res = await inject('GET', `/api/whatsapp/${bId}/cloud`, a.admin);
    expect(res.statusCode).toBe(404);
  });
});

describe('inbound messages', () => {
  it('stores a text as a pending ticket with the profile name, and a redelivery once', async () => {
    const from = customerNumber();
    const id = wamid();
    const body = webhook(fake.phoneNumberId, {
      contacts: [{ wa_id: from, name: 'Joana Cloud' }],
      messages: [{ from, id, timestamp: now(), type: 'text', text: { body: 'Olá, preciso de ajuda' } }],
    });
    expect((await post(whatsappId, body)).statusCode).toBe(200);
    expect((await post(whatsappId, body)).statusCode).toBe(200);
    await t.app.jobs.drain();
    const rows = await t.app.ctx.db.select().from(messages).where(eq(messages.wid, id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ body: 'Olá, preciso de ajuda', fromMe: false, mediaType: 'chat' });
    const [ticket] = await t.app.ctx.db.select().from(tickets).where(eq(tickets.id, rows[0]!.ticketId));
    expect(ticket).toMatchObject({ status: 'pending', whatsappId });
    const contact = await inject('GET', `/api/contacts/${ticket!.contactId}`, a.admin);
    expect(contact.json()).toMatchObject({ name: 'Joana Cloud', number: from });
  });

  it('normalises every message type and downloads media with the token', async () => {
    const from = customerNumber();
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]);
    fake.media.set('1001', { data: jpeg, mimetype: 'image/jpeg' });
    fake.media.set('1002', { data: Buffer.from('OggS-voice'), mimetype: 'audio/ogg; codecs=opus' });
    fake.media.set('1003', { data: Buffer.from('%PDF-1.4 test'), mimetype: 'application/pdf' });
    fake.media.set('1004', { data: Buffer.from('RIFF....WEBP'), mimetype: 'image/webp' });
    fake.media.set('1005', { data: Buffer.from('....ftypmp42'), mimetype: 'video/mp4' });
    const text = await receive(from, { type: 'text', text: { body: 'primeira' } });
    const image = await receive(from, {
      type: 'image',
      image: { caption: 'foto do produto', mime_type: 'image/jpeg', sha256: 'x', id: '1001' },
    });
    expect(image).toMatchObject({ mediaType: 'image', body: 'foto do produto' });
    expect(image.mediaUrl).toBeTruthy();
    expect(
      await new MediaStore(new LocalStorage(path.join(t.config.dataDir, 'media'))).read(
        a.companyId,
        image.mediaUrl!,
      ),
    ).toEqual(jpeg);
    const mediaCalls = fake.requests.filter(
      (r) => r.path.endsWith('/1001') || r.path.endsWith('/media-bytes/1001'),
    );
    expect(mediaCalls).toHaveLength(2);
    expect(mediaCalls.every((r) => r.authorization === `Bearer ${fake.token}`)).toBe(true);
    const voice = await receive(from, {
      type: 'audio',
      audio: { mime_type: 'audio/ogg; codecs=opus', sha256: 'x', id: '1002', voice: true },
    });
    expect(voice.mediaType).toBe('audio');
    expect(voice.mediaUrl).toBeTruthy();
    const doc = await receive(from, {
      type: 'document',
      document: {
        caption: 'contrato',
        filename: 'contrato.pdf',
        mime_type: 'application/pdf',
        sha256: 'x',
        id: '1003',
      },
    });
    expect(doc).toMatchObject({ mediaType: 'application', body: 'contrato', mediaName: 'contrato.pdf' });
    expect(
      (
        await receive(from, {
          type: 'sticker',
          sticker: { mime_type: 'image/webp', id: '1004', animated: false },
        })
      ).mediaType,
    ).toBe('sticker');
    expect(
      (
        await receive(from, {
          type: 'video',
          video: { mime_type: 'video/mp4', id: '1005', caption: 'vídeo' },
        })
      ).mediaType,
    ).toBe('video');
    const gone = await receive(from, { type: 'image', image: { mime_type: 'image/jpeg', id: '9999' } });
    expect(gone.mediaType).toBe('image');
    expect(gone.error ?? gone.mediaUrl).toBeDefined();
    const location = await receive(from, {
      type: 'location',
      location: { latitude: -23.5505, longitude: -46.6333, name: 'Loja Centro', address: 'Praça da Sé, 1' },
    });
    expect(location).toMatchObject({ mediaType: 'locationMessage' });
    expect(location.body).toBe(
      '|https://maps.google.com/maps?q=-23.5505%2C-46.6333&z=17|Loja Centro, Praça da Sé, 1',
    );
    const card = await receive(from, {
      type: 'contacts',
      contacts: [
        {
          name: { formatted_name: 'João Silva', first_name: 'João' },
          phones: [{ phone: '+55 11 99999-0000', wa_id: '5511999990000', type: 'CELL' }],
        },
      ],
    });
    expect(card.mediaType).toBe('vcard');
    expect(card.body).toContain('FN:João Silva');
    expect(card.body).toContain('TEL;type=CELL;waid=5511999990000:+55 11 99999-0000');
    const button = await receive(from, {
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: { id: 'yes', title: 'Sim, confirmo' } },
    });
    expect(button).toMatchObject({ mediaType: 'chat', body: 'Sim, confirmo' });
    const list = await receive(from, {
      type: 'interactive',
      interactive: {
        type: 'list_reply',
        list_reply: { id: 'opt2', title: 'Segunda via', description: 'boleto' },
      },
    });
    expect(list.body).toBe('Segunda via');
    expect(
      (await receive(from, { type: 'button', button: { text: 'Parar promoções', payload: 'STOP' } })).body,
    ).toBe('Parar promoções');
    const unsupported = await receive(from, {
      type: 'unsupported',
      errors: [{ code: 131051, title: 'Message type unknown', message: 'Message type unknown' }],
    });
    expect(unsupported).toMatchObject({ mediaType: 'chat', body: '[unsupported message]' });
    const reply = await receive(from, {
      type: 'text',
      text: { body: 'respondendo' },
      context: { from, id: text.wid },
    });
    expect(reply.quotedMsgId).toBe(text.id);
    const reaction = await receive(from, {
      type: 'reaction',
      reaction: { message_id: text.wid, emoji: '👍' },
    });
    expect(reaction).toMatchObject({ mediaType: 'reaction', body: '👍' });
  });
});

describe('sending', () => {
  /** A ticket with a fresh customer who just wrote (window open). */
  async function ticketWithCustomer() {
    const from = customerNumber();
    const row = await receive(from, { type: 'text', text: { body: 'oi' } });
    return { from, ticketId: row.ticketId, inbound: row };
  }

  it('sends text with reply context and media uploaded to the Graph API', async () => {
    const { from, ticketId, inbound } = await ticketWithCustomer();
    const res = await inject('POST', `/api/messages/${ticketId}`, a.admin, {
      body: 'Olá! Como posso ajudar?',
      quotedMsg: { id: inbound.id },
    });
    expect(res.statusCode).toBe(201);
    const [sent] = res.json();
    expect(sent.wid).toMatch(/^wamid\./);
    expect(sent.ack).toBe(1);
    const last = fake.sent().at(-1)!;
    expect(last).toMatchObject({
      messaging_product: 'whatsapp',
      to: from,
      type: 'text',
      text: { body: 'Olá! Como posso ajudar?' },
      context: { message_id: inbound.wid },
    });
    const bearerOk = fake.requests
      .filter((r) => r.method === 'POST')
      .every((r) => r.authorization === `Bearer ${fake.token}`);
    expect(bearerOk).toBe(true);
    const PNG = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const boundary = '----cloudtest';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="body"\r\n\r\nlegenda\r\n`),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="dot.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      PNG,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const media = await t.app.inject({
      method: 'POST',
      url: `/api/messages/${ticketId}`,
      headers: { ...bearer(a.admin), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(media.statusCode).toBe(201);
    const upload = fake.requests.filter((r) => r.path.endsWith(`/${fake.phoneNumberId}/media`)).at(-1)!;
    expect(upload.contentType).toMatch(/^multipart\/form-data/);
    expect(upload.raw.includes(PNG)).toBe(true);
    expect(upload.raw.toString()).toContain('whatsapp');
    const image = fake.sent().at(-1)!;
    expect(image).toMatchObject({ type: 'image', image: { caption: 'legenda' } });
    expect((image.image as { id: string }).id).toMatch(/^\d+$/);
  });

  it('sends locations, contacts, media by link, reactions and read receipts through the driver', async () => {
    const { from, inbound } = await ticketWithCustomer();
    const driver = t.app.sessions.ready(whatsappId) as CloudDriver;
    expect(driver).toBeInstanceOf(CloudDriver);
    await driver.send(from, { kind: 'location', latitude: -23.5, longitude: -46.6, description: 'Loja' });
    expect(fake.sent().at(-1)).toMatchObject({
      type: 'location',
      location: { latitude: -23.5, longitude: -46.6, name: 'Loja' },
    });
    await driver.send(from, { kind: 'contact', name: 'Suporte', number: '5511988887777' });
    expect(fake.sent().at(-1)).toMatchObject({
      type: 'contacts',
      contacts: [
        {
          name: { formatted_name: 'Suporte' },
          phones: [{ wa_id: '5511988887777', phone: '+5511988887777' }],
        },
      ],
    });
    await driver.sendMediaLink(from, 'document', 'https://example.com/catalogo.pdf', {
      caption: 'Catálogo',
      fileName: 'catalogo.pdf',
    });
    expect(fake.sent().at(-1)).toMatchObject({
      type: 'document',
      document: { link: 'https://example.com/catalogo.pdf', caption: 'Catálogo', filename: 'catalogo.pdf' },
    });
    await driver.react(from, inbound.wid!, '❤️');
    expect(fake.sent().at(-1)).toMatchObject({
      type: 'reaction',
      reaction: { message_id: inbound.wid, emoji: '❤️' },
    });
    await driver.markRead(from, [inbound.wid!]);
    expect(fake.sent().at(-1)).toEqual({
      messaging_product: 'whatsapp',
      status: 'read',
      message_id: inbound.wid,
    });
  });

  it('maps statuses to acks that never go backwards, and failures to catalogue codes', async () => {
    const { from, ticketId } = await ticketWithCustomer();
    const res = await inject('POST', `/api/messages/${ticketId}`, a.admin, { body: 'status test' });
    const sent = res.json()[0];
    const statusOf = async (s: string, extra: Record<string, unknown> = {}, id = sent.wid) => {
      await post(
        whatsappId,
        webhook(fake.phoneNumberId, {
          statuses: [{ id, status: s, timestamp: now(), recipient_id: from, ...extra }],
        }),
      );
      await t.app.jobs.drain();
      const [row] = await t.app.ctx.db.select().from(messages).where(eq(messages.id, sent.id));
      return row!;
    };
    expect((await statusOf('delivered')).ack).toBe(2);
    expect((await statusOf('sent')).ack).toBe(2);
    expect((await statusOf('read')).ack).toBe(3);
    expect((await statusOf('delivered')).ack).toBe(3);
    const second = (await inject('POST', `/api/messages/${ticketId}`, a.admin, { body: 'falha' })).json()[0];
    await post(
      whatsappId,
      webhook(fake.phoneNumberId, {
        statuses: [
          {
            id: second.wid,
            status: 'failed',
            timestamp: now(),
            recipient_id: from,
            errors: [{ code: 131047, title: 'Re-engagement message', message: 'Re-engagement message' }],
          },
        ],
      }),
    );
    await t.app.jobs.drain();
    const [failed] = await t.app.ctx.db.select().from(messages).where(eq(messages.id, second.id));
    expect(failed).toMatchObject({ ack: -1, error: 'ERR_WAPP_OUTSIDE_WINDOW', wid: null });
    // Refused at once: an undeliverable number.
    fake.failures.push({ status: 400, code: 131026, message: 'Message Undeliverable.' });
    const invalid = await inject('POST', `/api/messages/${ticketId}`, a.admin, {
      body: 'para número inválido',
    });
    expect(invalid.json()).toMatchObject({ error: 'ERR_WAPP_INVALID_CONTACT' });
    // Retrying the failed one sends it again.
    const retry = await inject('POST', `/api/messages/${second.id}/retry`, a.admin);
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toMatchObject({ ack: 1, error: null });
  });

  it('retries rate-limited sends with backoff through the outbound sender', async () => {
    const { ticketId } = await ticketWithCustomer();
    fake.failures.push(
      { status: 400, code: 130429, message: 'Rate limit hit' },
      { status: 400, code: 131056, message: '(Business Account, Consumer Account) pair rate limit hit' },
    );
    const before = fake.sent().length;
    const res = await inject('POST', `/api/messages/${ticketId}`, a.admin, { body: 'devagar' });
    expect(res.statusCode).toBe(201);
    expect(res.json()[0]).toMatchObject({ ack: 0, wid: null });
    await t.app.jobs.drain();
    const [row] = await t.app.ctx.db.select().from(messages).where(eq(messages.id, res.json()[0].id));
    expect(row).toMatchObject({ ack: 1 });
    expect(row!.wid).toMatch(/^wamid\./);
    expect(fake.sent().length - before).toBe(3);
  });

  it('fails a send still rate-limited after the last retry', async () => {
    const { ticketId } = await ticketWithCustomer();
    for (let i = 0; i < 3; i++) fake.failures.push({ status: 400, code: 130429, message: 'Rate limit hit' });
    const res = await inject('POST', `/api/messages/${ticketId}`, a.admin, { body: 'sempre limitado' });
    expect(res.json()[0]).toMatchObject({ ack: 0 });
    await t.app.jobs.drain();
    const [row] = await t.app.ctx.db.select().from(messages).where(eq(messages.id, res.json()[0].id));
    expect(row).toMatchObject({ ack: -1, error: 'ERR_SENDING_WAPP_MSG', wid: null });
    expect(fake.failures).toHaveLength(0);
  });

  it('turns DISCONNECTED on a revoked token and keeps queued sends until it is fixed', async () => {
    const { ticketId } = await ticketWithCustomer();
    const good = fake.token;
    fake.token = 'EAAG-rotated-token-0002';
    const res = await inject('POST', `/api/messages/${ticketId}`, a.admin, {
      body: 'enviada com token revogado',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()[0]).toMatchObject({ ack: 0 });
    // The session's state is written after the send answered (in order, off the request's path).
    await vi.waitFor(async () => {
      const row = await status();
      expect(row.status).toBe('DISCONNECTED');
      expect(row.statusReason).toMatch(/Access token refused/);
    });
    const later = await inject('POST', `/api/messages/${ticketId}`, a.admin, { body: 'enviada depois' });
    expect(later.json()[0]).toMatchObject({ ack: 0 });
    const saved = await inject('PUT', `/api/whatsapp/${whatsappId}/cloud`, a.admin, {
      accessToken: fake.token,
    });
    expect(saved.statusCode).toBe(200);
    await vi.waitFor(async () => expect((await status()).status).toBe('CONNECTED'));
    const ids = [res.json()[0].id, later.json()[0].id];
    // What waited goes out once the session is back (in order after its state).
    await vi.waitFor(async () => {
      const rows = await t.app.ctx.db
        .select()
        .from(messages)
        .where(sql`${messages.id} in (${sql.join(ids, sql`, `)})`);
      expect(rows.map((r) => r.ack)).toEqual([1, 1]);
    });
    void good;
  });
});

describe('24-hour window and templates', () => {
  async function staleTicket() {
    const from = customerNumber();
    const row = await receive(from, { type: 'text', text: { body: 'mensagem antiga' } }, 'Carlos');
    await t.app.ctx.db
      .update(messages)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(messages.id, row.id));
    return { from, ticketId: row.ticketId };
  }

  it('refuses free text outside the window and offers approved templates', async () => {
    const { ticketId } = await staleTicket();
    const win = await inject('GET', `/api/cloud/tickets/${ticketId}/window`, a.admin);
    expect(win.json()).toEqual({ cloud: true, open: false, closesAt: null });
    const refused = await inject('POST', `/api/messages/${ticketId}`, a.admin, { body: 'texto livre' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'ERR_WAPP_OUTSIDE_WINDOW' });
    const list = await inject('GET', `/api/cloud/tickets/${ticketId}/templates`, a.agent);
    expect(list.statusCode).toBe(200);
    expect(list.json().map((x: { name: string }) => x.name)).toEqual(['order_update', 'hello_world']);
    expect(list.json()[0]).toMatchObject({ parameters: 2, language: 'pt_BR' });
    // Positive control: a customer who wrote now opens the window.
    const fresh = await receive(customerNumber(), { type: 'text', text: { body: 'agora' } });
    const open = await inject('GET', `/api/cloud/tickets/${fresh.ticketId}/window`, a.admin);
    expect(open.json()).toMatchObject({ cloud: true, open: true });
    expect(Date.parse(open.json().closesAt)).toBeGreaterThan(Date.now() + 23 * 3600_000);
  });

  it('sends a template with its parameters and stores the rendered text', async () => {
    const { from, ticketId } = await staleTicket();
    const wrong = await inject('POST', `/api/cloud/tickets/${ticketId}/template`, a.admin, {
      name: 'order_update',
      language: 'pt_BR',
      parameters: ['Carlos'],
    });
    expect(wrong.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'parameters' });
    const pending = await inject('POST', `/api/cloud/tickets/${ticketId}/template`, a.admin, {
      name: 'draft_promo',
      language: 'pt_BR',
    });
    expect(pending.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'name' });
    const res = await inject('POST', `/api/cloud/tickets/${ticketId}/template`, a.agent, {
      name: 'order_update',
      language: 'pt_BR',
      parameters: ['Carlos', '#123'],
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      fromMe: true,
      body: 'Olá Carlos, seu pedido #123 foi enviado.',
      ack: 1,
      userId: a.agent.id,
    });
    expect(fake.sent().at(-1)).toMatchObject({
      to: from,
      type: 'template',
      template: {
        name: 'order_update',
        language: { code: 'pt_BR' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Carlos' },
              { type: 'text', text: '#123' },
            ],
          },
        ],
      },
    });
  });

  it('refuses the window, templates and a template send on a ticket the agent may not open', async () => {
    const { from, ticketId } = await staleTicket();
    const queueB = await createQueue(t.app, a.companyId);
    const agentB = await createUser(t.app, a.companyId, { queueIds: [queueB] });
    await t.app.ctx.db
      .update(tickets)
      .set({ status: 'open', queueId: queueB, userId: agentB.id })
      .where(eq(tickets.id, ticketId!));
    const reference = await inject('GET', `/api/messages/${ticketId}`, a.agent);
    expect(reference.statusCode).toBe(403);
    const sentBefore = fake.sent().length;
    const payload = { name: 'order_update', language: 'pt_BR', parameters: ['Carlos', '#9'] };
    for (const [method, suffix] of [
      ['GET', 'window'],
      ['GET', 'templates'],
      ['POST', 'template'],
    ] as const) {
      const res = await t.app.inject({
        method,
        url: `/api/cloud/tickets/${ticketId}/${suffix}`,
        headers: bearer(a.agent),
        ...(method === 'POST' ? { payload } : {}),
      });
      expect(res.statusCode, suffix).toBe(403);
      expect(res.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    }
    expect(fake.sent()).toHaveLength(sentBefore);
    // Positive controls: the queue's own agent and an admin send it.
    for (const user of [agentB, a.admin]) {
      const ok = await t.app.inject({
        method: 'POST',
        url: `/api/cloud/tickets/${ticketId}/template`,
        headers: bearer(user),
        payload,
      });
      expect(ok.statusCode, ok.body).toBe(201);
    }
    expect(
      fake
        .sent()
        .slice(sentBefore)
        .map((m) => (m as { to: string }).to),
    ).toEqual([from, from]);
  });

  it('answers the window of a non-cloud ticket as open and refuses its templates', async () => {
    const other = await createTenant(t.app);
    const res = await inject('GET', '/api/cloud/tickets/999999/window', other.admin);
    expect(res.statusCode).toBe(404);
  });
});
