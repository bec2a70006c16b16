/**
 * Contract test: the original Whaticket SaaS web client, hosted on another origin and pointed at
 * Zapdesk, works unchanged. Its calls are replayed with the bodies and
 * headers it sends (axios with `withCredentials`, a bearer token, JSON bodies): sign-in, refresh,
 * connections, the ticket list, accept, reply, close, contacts. Run with API_PREFIX '' (the API at
 * the root, as that client expects) and with the default '/api'.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ORIGIN, classicClient } from './classic-http.js';
import { createTenant, customerNumber, TEST_PASSWORD, type TenantFixture } from './factories.js';
import { createTestApp, type TestApp } from './test-app.js';

const OTHER_ORIGIN = 'http://evil.example.test';
const PIXEL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe.each(['', '/api'])("the classic client against API_PREFIX='%s'", (prefix) => {
  let t: TestApp;
  let tenant: TenantFixture;
  let web: string;
  let client: ReturnType<typeof classicClient>;
  let userId: number;
  let userName: string;
  let ticketId: number;
  let whatsappId: number;

  beforeAll(async () => {
    web = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-web-'));
    fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
    fs.mkdirSync(path.join(web, 'assets'));
    fs.writeFileSync(path.join(web, 'assets', 'app.js'), 'console.log(1)');
    t = await createTestApp({ API_PREFIX: prefix, CORS_ORIGINS: CLIENT_ORIGIN, WEB_DIST: web });
    tenant = await createTenant(t.app);
    client = classicClient(t.app, prefix);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(web, { recursive: true, force: true });
  });

  it('is allowed by CORS with credentials from its origin only', async () => {
    const preflight = (origin: string) =>
      t.app.inject({
        method: 'OPTIONS',
        url: `${prefix}/auth/login`,
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,authorization',
        },
      });
    const allowed = await preflight(CLIENT_ORIGIN);
    expect(allowed.statusCode).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe(CLIENT_ORIGIN);
    expect(allowed.headers['access-control-allow-credentials']).toBe('true');
    expect(String(allowed.headers['access-control-allow-methods'])).toContain('PUT');
    const refused = await preflight(OTHER_ORIGIN);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('signs in, and refreshes with the cookie scoped to the auth routes', async () => {
    const login = await client.call('POST', '/auth/login', {
      email: tenant.admin.email,
      password: TEST_PASSWORD,
    });
    expect(login.statusCode).toBe(200);
    expect(login.headers['access-control-allow-origin']).toBe(CLIENT_ORIGIN);
    expect(login.headers['access-control-allow-credentials']).toBe('true');
    const body = login.json();
    expect(body.token).toEqual(expect.any(String));
    expect(body.user.companyId).toBe(tenant.companyId);
    expect(body.user.company.dueDate).toBeDefined();
    userId = body.user.id;
    userName = body.user.name;
    client.setToken(body.token);
    const cookie = login.cookies.find((c) => c.name === 'jrt');
    expect(cookie?.path).toBe(`${prefix}/auth`);
    expect(cookie?.httpOnly).toBe(true);

    const refreshed = await client.call('POST', '/auth/refresh_token');
    expect(refreshed.statusCode).toBe(200);
    client.setToken(refreshed.json().token);
    const me = await client.call('GET', '/auth/me');
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(userId);
  });

  it('lists connections', async () => {
    const created = await client.call('POST', '/whatsapp', { name: 'Classic', provider: 'simulator' });
    expect(created.statusCode).toBe(201);
    whatsappId = created.json().id;
    const list = await client.call('GET', '/whatsapp', undefined, { session: '0' });
    expect(list.statusCode).toBe(200);
    expect(list.json().map((w: { id: number }) => w.id)).toContain(whatsappId);
  });

  it('lists the pending ticket of a new customer message', async () => {
    const inbound = await client.call('POST', `/simulator/${whatsappId}/messages`, {
      from: customerNumber(),
      body: 'Bom dia',
      mediaUrl: PIXEL,
      mediaType: 'image',
    });
    expect(inbound.statusCode).toBe(201);
    ticketId = inbound.json().ticketId;
    const list = await client.call('GET', '/tickets', undefined, {
      searchParam: '',
      pageNumber: '1',
      status: 'pending',
      showAll: 'true',
      queueIds: JSON.stringify([]),
      tags: JSON.stringify([]),
      users: JSON.stringify([]),
      withUnreadMessages: 'false',
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().tickets.map((ticket: { id: number }) => ticket.id)).toContain(ticketId);
  });

  it('accepts the ticket with the action buttons body', async () => {
    const ticket = (await client.call('GET', `/tickets/${ticketId}`)).json();
    const res = await client.call('PUT', `/tickets/${ticketId}`, {
      status: 'open',
      userId,
      useIntegration: ticket.useIntegration,
      promptId: ticket.promptId,
      integrationId: ticket.integrationId,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'open', userId });
  });

  it('replies with the composer body (read: 1), quoting or not', async () => {
    const page = await client.call('GET', `/messages/${ticketId}`, undefined, { pageNumber: '1' });
    expect(page.statusCode).toBe(200);
    const customerMessage = page.json().messages.find((m: { fromMe: boolean }) => !m.fromMe);
    expect(customerMessage.mediaUrl.startsWith(`${prefix}/public/`)).toBe(true);
    const media = await client.call('GET', customerMessage.mediaUrl.slice(prefix.length));
    expect(media.statusCode).toBe(200);
    expect(media.headers['content-type']).toBe('image/png');

    const reply = await client.call('POST', `/messages/${ticketId}`, {
      read: 1,
      fromMe: true,
      mediaUrl: '',
      body: `*${userName}:*\nOlá, como posso ajudar?`,
      quotedMsg: null,
    });
    expect(reply.statusCode).toBe(201);
    expect(reply.json()[0]).toMatchObject({ fromMe: true, body: `*${userName}:*\nOlá, como posso ajudar?` });

    const quoting = await client.call('POST', `/messages/${ticketId}`, {
      read: 1,
      fromMe: true,
      mediaUrl: '',
      body: 'Sobre isto',
      quotedMsg: customerMessage,
    });
    expect(quoting.statusCode).toBe(201);
    expect(quoting.json()[0].quotedMsgId).toBe(customerMessage.id);
  });

  it('closes with promptId and integrationId false', async () => {
    const res = await client.call('PUT', `/tickets/${ticketId}`, {
      status: 'closed',
      userId,
      useIntegration: false,
      promptId: false,
      integrationId: false,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'closed', promptId: null, integrationId: null });
  });

  it('still refuses a body of the wrong kind', async () => {
    const read = await client.call('POST', `/messages/${ticketId}`, { read: 2, body: 'x' });
    expect(read.statusCode).toBe(400);
    expect(read.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'read' });
    const prompt = await client.call('PUT', `/tickets/${ticketId}`, { promptId: true });
    expect(prompt.statusCode).toBe(400);
    expect(prompt.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'promptId' });
  });

  it('lists, creates and edits contacts with the contact modal bodies', async () => {
    const list = await client.call('GET', '/contacts', undefined, { searchParam: '', pageNumber: '1' });
    expect(list.statusCode).toBe(200);
    expect(list.json().contacts.length).toBeGreaterThan(0);
    const created = await client.call('POST', '/contacts', {
      name: 'Maria Classic',
      number: '5511987654321',
      email: '',
    });
    expect(created.statusCode).toBe(200);
    const id = created.json().id as number;
    // The modal loads the contact and sends back the whole object, edited.
    const loaded = (await client.call('GET', `/contacts/${id}`)).json();
    const edited = await client.call('PUT', `/contacts/${id}`, {
      ...loaded,
      name: 'Maria Clássica',
      extraInfo: [{ name: 'CPF', value: '123' }],
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ id, name: 'Maria Clássica', number: '5511987654321' });
  });

  it('answers 404 for an undefined subpath and 200 for the defined one', async () => {
    for (const url of ['/companies/something', '/tickets/abc', '/contacts/1.5', '/queue/x']) {
      const res = await client.call('GET', url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ error: 'ERR_NOT_FOUND' });
    }
    const own = await client.call('GET', `/companies/${tenant.companyId}`);
    expect(own.statusCode).toBe(200);
  });

  it('logs out', async () => {
    const res = await client.call('DELETE', '/auth/logout');
    expect(res.statusCode).toBeLessThan(300);
  });

  it('keeps the web app, its assets and metrics working beside the API', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/tickets', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain(`<meta name="zapdesk-api-base" content="${prefix}" />`);
    const deep = await t.app.inject({
      method: 'GET',
      url: '/tickets/some-uuid',
      headers: { accept: 'text/html' },
    });
    expect(deep.statusCode).toBe(200);
    expect(deep.body).toContain('zapdesk-api-base');
    const index = await t.app.inject({ method: 'GET', url: '/index.html', headers: { accept: 'text/html' } });
    expect(index.body).toContain(`<meta name="zapdesk-api-base" content="${prefix}" />`);
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(asset.body).toBe('console.log(1)');
    // The same path without HTML in Accept is the API.
    const api = await t.app.inject({
      method: 'GET',
      url: `${prefix}/tickets`,
      headers: { accept: 'application/json' },
    });
    expect(api.statusCode).toBe(401);
    expect(api.json()).toEqual({ error: 'ERR_SESSION_EXPIRED' });
    const missing = await t.app.inject({ method: 'GET', url: `${prefix}/nothing/here` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'ERR_NOT_FOUND' });
    const docs = await t.app.inject({ method: 'GET', url: `${prefix}/docs/json` });
    expect(docs.statusCode).toBe(200);
    expect(Object.keys(docs.json().paths)).toContain(`${prefix}/tickets/{id}`);
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(200);
  });

  it('lets socket.io accept the client origin only', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const handshake = (origin: string) =>
      fetch(`http://127.0.0.1:${port}/socket.io/?EIO=4&transport=polling`, { headers: { origin } });
    const allowed = await handshake(CLIENT_ORIGIN);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(CLIENT_ORIGIN);
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
    await allowed.text();
    const refused = await handshake(OTHER_ORIGIN);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    await refused.text();
  });
});
