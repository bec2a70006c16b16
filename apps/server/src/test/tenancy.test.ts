/**
 * Tenants never meet: every route that takes an id, called by company B with company A's ids,
 * answers 404, while the same call by company A succeeds (the positive control). List routes never
 * show another company's rows. A new route with a path id must join MATRIX below.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  contactListImports,
  invoices,
  tags,
  ticketNoteMentions,
  ticketNotes,
  webhookDeliveries,
} from '../db/schema/index.js';
import {
  bearer,
  createSimulatorConnection,
  createTenantPair,
  createUser,
  customerNumber,
  injectAs,
  injectMessage,
  type TenantFixture,
  type TestUser,
} from './factories.js';
import { createTestApp, type TestApp } from './test-app.js';

let t: TestApp;
const inject = injectAs(() => t.app);
let a: TenantFixture;
let b: TenantFixture;
/** Company A's messaging data: a simulator connection, a ticket with a customer message and a reply. */
let conn: {
  whatsappId: number;
  ticketId: number;
  ticketUuid: string;
  contactId: number;
  noteId: number;
  tagId: number;
  messageId: number;
  replyId: number;
  mediaName: string;
  from: string;
  webhookId: number;
};
beforeAll(async () => {
  // Integrations and webhooks here point at loopback, which only OUTBOUND_ALLOW_PRIVATE_URLS allows.
  t = await createTestApp({ OUTBOUND_ALLOW_PRIVATE_URLS: 'true' });
  ({ a, b } = await createTenantPair(t.app));
  const whatsappId = await createSimulatorConnection(t.app, a.admin);
  const bWhatsappId = await createSimulatorConnection(t.app, b.admin);
  await injectMessage(t.app, b.admin, bWhatsappId, { from: customerNumber(), body: 'de B' });
  await t.app.ctx.db.insert(tags).values({ companyId: b.companyId, name: 'Tag B' });
  const from = customerNumber();
  const pixel =
    'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
  const inbound = await injectMessage(t.app, a.admin, whatsappId, {
    from,
    body: 'oi',
    mediaUrl: pixel,
    mediaType: 'image',
  });
  const reply = await inject('POST', `/api/messages/${inbound.ticketId}`, a.admin, { body: 'olá' });
  const list = await inject('GET', `/api/messages/${inbound.ticketId}`, a.admin);
  const mediaUrl = list.json().messages.find((m: { mediaUrl: string | null }) => m.mediaUrl)
    .mediaUrl as string;
  const ticket = list.json().ticket as { uuid: string; contactId: number };
  const note = await inject('POST', '/api/ticket-notes', a.admin, {
    note: 'nota de A',
    ticketId: inbound.ticketId,
    contactId: ticket.contactId,
  });
  const [tag] = await t.app.ctx.db
    .insert(tags)
    .values({ companyId: a.companyId, name: 'Tag A' })
    .returning({ id: tags.id });
  const hookOf = async (owner: TenantFixture) => {
    const res = await inject('POST', '/api/webhooks', owner.admin, {
      url: 'https://hooks.example.com/list',
      events: ['ticket.created'],
    });
    return res.json().id as number;
  };
  await hookOf(b);
  conn = {
    webhookId: await hookOf(a),
    whatsappId,
    ticketId: inbound.ticketId,
    ticketUuid: ticket.uuid,
    contactId: ticket.contactId,
    noteId: note.json().id,
    tagId: tag!.id,
    messageId: inbound.id,
    replyId: reply.json()[0].id,
    mediaName: mediaUrl.split('/').pop()!,
    from,
  };
});
afterAll(() => t.close());

/** An open invoice of the company, as the checkout creates it. */
async function createOpenInvoice(companyId: number): Promise<number> {
  const [row] = await t.app.ctx.db
    .insert(invoices)
    .values({ companyId, detail: 'Completo #1 MENSAL', value: 199.9, dueDate: new Date() })
    .returning({ id: invoices.id });
  return row!.id;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
interface Case {
  route: `${Method} ${string}`;
  /** Builds the call on company A's data (may create fresh rows for destructive calls). */
  call: (owner: TenantFixture) => Promise<{ method: Method; url: string; payload?: object }>;
  expected: number;
}

/** POST `url` with `payload` as `owner`'s admin: how a case creates the row it then calls on. */
const postAs = (owner: TenantFixture, url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: bearer(owner.admin), payload });

/** A route's method and path. */
const split = (route: string) => route.split(' ') as [Method, string];

/**
 * A case that creates nothing first: the route's own method on the url `call` gives, with the
 * payload it gives when there is one.
 */
function direct(
  route: Case['route'],
  expected: number,
  call: (owner: TenantFixture) => [string, object?],
): Case {
  const method = route.split(' ')[0] as Method;
  return {
    route,
    expected,
    call: async (o) => {
      const [url, payload] = call(o);
      return payload ? { method, url, payload } : { method, url };
    },
  };
}

const MATRIX: Case[] = [
  direct('GET /api/users/:id', 200, (o) => [`/api/users/${o.agent.id}`]),
  direct('PUT /api/users/:id', 200, (o) => [
    `/api/users/${o.agent.id}`,
    { name: 'Renamed', maxOpenTickets: 3, availability: 'away' },
  ]),
  {
    route: 'DELETE /api/users/:id',
    call: async (o) => ({ method: 'DELETE', url: `/api/users/${(await createUser(t.app, o.companyId)).id}` }),
    expected: 204,
  },
  direct('GET /api/companies/:id', 200, (o) => [`/api/companies/${o.companyId}`]),
  direct('GET /api/companies/listPlan/:companyId', 200, (o) => [`/api/companies/listPlan/${o.companyId}`]),
  direct('PUT /api/companies/:id/schedules', 200, (o) => [
    `/api/companies/${o.companyId}/schedules`,
    { schedules: [{ weekday: 'Domingo', weekdayEn: 'sunday', startTime: '00:00', endTime: '00:00' }] },
  ]),
  direct('GET /api/whatsapp/:id', 200, () => [`/api/whatsapp/${conn.whatsappId}`]),
  direct('PUT /api/whatsapp/:id', 200, () => [
    `/api/whatsapp/${conn.whatsappId}`,
    { name: 'Renamed', provider: 'simulator', isDefault: true },
  ]),
  direct('POST /api/whatsapp/:id/token', 200, () => [`/api/whatsapp/${conn.whatsappId}/token`]),
  direct('POST /api/whatsappsession/:id', 204, () => [`/api/whatsappsession/${conn.whatsappId}`]),
  direct('PUT /api/whatsappsession/:id', 204, () => [`/api/whatsappsession/${conn.whatsappId}`]),
  direct('GET /api/messages/:ticketId', 200, () => [`/api/messages/${conn.ticketId}`]),
  direct('POST /api/messages/:ticketId', 201, () => [`/api/messages/${conn.ticketId}`, { body: 'again' }]),
  direct('POST /api/messages/:ticketId/read', 204, () => [`/api/messages/${conn.ticketId}/read`]),
  direct('POST /api/messages/:ticketId/presence', 204, () => [
    `/api/messages/${conn.ticketId}/presence`,
    { presence: 'composing' },
  ]),
  direct('POST /api/messages/:id/retry', 200, () => [`/api/messages/${conn.replyId}/retry`]),
  direct('GET /api/public/:name', 200, () => [`/api/public/${conn.mediaName}`]),
  direct('POST /api/simulator/:whatsappId/messages', 201, () => [
    `/api/simulator/${conn.whatsappId}/messages`,
    { from: conn.from, body: 'x' },
  ]),
  direct('GET /api/simulator/:whatsappId/outbox', 200, () => [
    `/api/simulator/${conn.whatsappId}/outbox?number=${conn.from}`,
  ]),
  direct('POST /api/simulator/:whatsappId/presence', 204, () => [
    `/api/simulator/${conn.whatsappId}/presence`,
    { number: conn.from, presence: 'composing' },
  ]),
  direct('GET /api/simulator/:whatsappId/presence', 200, () => [
    `/api/simulator/${conn.whatsappId}/presence?number=${conn.from}`,
  ]),
  direct('POST /api/simulator/:whatsappId/read', 204, () => [
    `/api/simulator/${conn.whatsappId}/read`,
    { number: conn.from },
  ]),
  direct('GET /api/tickets/:id', 200, () => [`/api/tickets/${conn.ticketId}`]),
  // Reports take ids in their filters: another company's answer as not found.
  direct('GET /api/reports/summary', 200, (o) => [
    `/api/reports/summary?from=2026-01-01&to=2026-01-31&queueIds=${o.queueId}`,
  ]),
  direct('GET /api/reports/agents', 200, (o) => [
    `/api/reports/agents?from=2026-01-01&to=2026-01-31&userIds=${o.agent.id}`,
  ]),
  direct('GET /api/reports/queues', 200, () => [
    `/api/reports/queues?from=2026-01-01&to=2026-01-31&whatsappIds=${conn.whatsappId}`,
  ]),
  direct('GET /api/reports/heatmap', 200, () => [
    `/api/reports/heatmap?from=2026-01-01&to=2026-01-31&tagIds=${conn.tagId}`,
  ]),
  direct('GET /api/reports/ratings/comments', 200, (o) => [
    `/api/reports/ratings/comments?from=2026-01-01&to=2026-01-31&queueIds=${o.queueId}&pageNumber=2`,
  ]),
  direct('GET /api/tickets/:id/flow-run', 200, () => [`/api/tickets/${conn.ticketId}/flow-run`]),
  direct('GET /api/tickets/u/:uuid', 200, () => [`/api/tickets/u/${conn.ticketUuid}`]),
  direct('POST /api/tickets/:id/active-view', 204, () => [`/api/tickets/${conn.ticketId}/active-view`]),
  direct('PUT /api/push/viewing', 204, () => ['/api/push/viewing', { ticketId: conn.ticketId }]),
  {
    route: 'DELETE /api/push/subscriptions',
    expected: 204,
    call: async (o) => {
      const endpoint = `https://push.example.com/send/${o.companyId}-${Date.now()}`;
      const keys = { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) };
      const res = await postAs(o, '/api/push/subscriptions', { endpoint, keys });
      expect(res.statusCode, res.body).toBe(201);
      return { method: 'DELETE', url: '/api/push/subscriptions', payload: { endpoint } };
    },
  },
  direct('PUT /api/notifications/:id/read', 204, () => [`/api/notifications/${conn.ticketId}/read`]),
  direct('PUT /api/tickets/:id', 200, () => [
    `/api/tickets/${conn.ticketId}`,
    { status: 'open', userId: a.admin.id },
  ]),
  direct('GET /api/ticket-notes/list', 200, () => [
    `/api/ticket-notes/list?ticketId=${conn.ticketId}&contactId=${conn.contactId}`,
  ]),
  direct('POST /api/ticket-notes', 201, () => [
    '/api/ticket-notes',
    { note: 'outra nota', ticketId: conn.ticketId, contactId: conn.contactId },
  ]),
  direct('POST /api/tags/sync', 200, () => [
    '/api/tags/sync',
    { ticketId: conn.ticketId, tags: [conn.tagId] },
  ]),
  direct('PUT /api/ticket-tags/:ticketId/:tagId', 200, () => [
    `/api/ticket-tags/${conn.ticketId}/${conn.tagId}?replace=true`,
  ]),
  direct('DELETE /api/ticket-tags/:ticketId', 200, () => [`/api/ticket-tags/${conn.ticketId}`]),
  direct('GET /api/contacts/:id', 200, () => [`/api/contacts/${conn.contactId}`]),
  direct('PUT /api/contacts/:id', 200, () => [
    `/api/contacts/${conn.contactId}`,
    { name: 'Cliente A', number: conn.from },
  ]),
  {
    route: 'DELETE /api/contacts/:id',
    call: async () => {
      const res = await postAs(a, '/api/contacts', { name: 'Para excluir', number: customerNumber() });
      return { method: 'DELETE', url: `/api/contacts/${res.json().id}` };
    },
    expected: 204,
  },
  direct('GET /api/ticket-notes/mentionable', 200, () => [
    `/api/ticket-notes/mentionable?ticketId=${conn.ticketId}`,
  ]),
  {
    // A mention of A's admin in a note of A's ticket (B's admin has none of it: not found).
    route: 'POST /api/ticket-notes/mentions/:id/read',
    call: async (o) => {
      const [note] = await t.app.ctx.db
        .insert(ticketNotes)
        .values({
          companyId: o.companyId,
          ticketId: conn.ticketId,
          contactId: conn.contactId,
          note: 'nota @admin',
        })
        .returning({ id: ticketNotes.id });
      await t.app.ctx.db
        .insert(ticketNoteMentions)
        .values({ noteId: note!.id, userId: o.admin.id, companyId: o.companyId, ticketId: conn.ticketId });
      return { method: 'POST', url: `/api/ticket-notes/mentions/${note!.id}/read` };
    },
    expected: 204,
  },
  direct('DELETE /api/ticket-notes/:id', 204, () => [`/api/ticket-notes/${conn.noteId}`]),
  direct('DELETE /api/messages/:id', 200, () => [`/api/messages/${conn.replyId}`]),
  // Cloud API routes on A's simulator connection and ticket: A reaches the provider check (400).
  direct('GET /api/whatsapp/:id/cloud', 400, () => [`/api/whatsapp/${conn.whatsappId}/cloud`]),
  direct('PUT /api/whatsapp/:id/cloud', 400, () => [
    `/api/whatsapp/${conn.whatsappId}/cloud`,
    { wabaId: '1' },
  ]),
  direct('GET /api/cloud/tickets/:ticketId/window', 200, () => [
    `/api/cloud/tickets/${conn.ticketId}/window`,
  ]),
  direct('GET /api/cloud/tickets/:ticketId/templates', 400, () => [
    `/api/cloud/tickets/${conn.ticketId}/templates`,
  ]),
  direct('POST /api/cloud/tickets/:ticketId/template', 400, () => [
    `/api/cloud/tickets/${conn.ticketId}/template`,
    { name: 'hello_world', language: 'en_US' },
  ]),
  direct('DELETE /api/whatsappsession/:id', 204, () => [`/api/whatsappsession/${conn.whatsappId}`]),
  direct('POST /api/tickets', 409, () => [
    '/api/tickets',
    { contactId: conn.contactId, whatsappId: conn.whatsappId },
  ]),
  direct('DELETE /api/tickets/:id', 204, () => [`/api/tickets/${conn.ticketId}`]),
  {
    route: 'DELETE /api/whatsapp/:id',
    call: async (o) => ({
      method: 'DELETE',
      url: `/api/whatsapp/${await createSimulatorConnection(t.app, o.admin)}`,
    }),
    expected: 204,
  },
  direct('GET /api/queue/:id', 200, (o) => [`/api/queue/${o.queueId}`]),
  direct('PUT /api/queue/:id', 200, (o) => [
    `/api/queue/${o.queueId}`,
    { name: 'Fila A', color: '#A0A0A1', autoAssignment: 'round_robin' },
  ]),
  {
    route: 'DELETE /api/queue/:id',
    call: async (o) => {
      const res = await postAs(o, '/api/queue', {
        name: 'Fila apagar',
        color: `#${String(Date.now()).slice(-6)}`,
      });
      return { method: 'DELETE', url: `/api/queue/${res.json().id}` };
    },
    expected: 204,
  },
  ...(['PUT', 'DELETE'] as const).map(
    (method): Case => ({
      route: `${method} /api/queue-options/:id`,
      call: async (o) => {
        const res = await postAs(o, '/api/queue-options', { queueId: o.queueId, title: 'Opção A' });
        return { method, url: `/api/queue-options/${res.json().id}`, payload: { title: 'Opção A2' } };
      },
      expected: method === 'PUT' ? 200 : 204,
    }),
  ),
  ...(['GET', 'PUT', 'DELETE'] as const).map(
    (method): Case => ({
      route: `${method} /api/tags/:id`,
      call: async (o) => {
        const res = await postAs(o, '/api/tags', { name: `Tag ${method} ${Date.now()}` });
        return { method, url: `/api/tags/${res.json().id}`, payload: { name: `Tag ${method} 2` } };
      },
      expected: method === 'DELETE' ? 204 : 200,
    }),
  ),
  ...(
    [
      ['GET /api/schedules/:id', 200],
      ['PUT /api/schedules/:id', 200],
      ['DELETE /api/schedules/:id', 204],
      ['DELETE /api/schedules/:id/media-upload', 200],
      // The positive control sends JSON (the matrix replaces headers): A gets 400 after the id check.
      ['POST /api/schedules/:id/media-upload', 400],
    ] as const
  ).map(
    ([route, expected]): Case => ({
      route,
      call: async (o) => {
        const contact = await postAs(o, '/api/contacts', { name: 'Agendado', number: customerNumber() });
        const res = await postAs(o, '/api/schedules', {
          body: 'Mensagem agendada',
          contactId: contact.json().id,
          sendAt: new Date(Date.now() + 3_600_000).toISOString(),
        });
        const [method, path] = split(route);
        return {
          method,
          url: path.replace(':id', String(res.json().id)),
          payload: { body: 'Outra mensagem' },
        };
      },
      expected,
    }),
  ),
  ...(
    [
      ['GET /api/contact-lists/:id', 200],
      ['PUT /api/contact-lists/:id', 200],
      ['DELETE /api/contact-lists/:id', 204],
      ['GET /api/contact-lists/:id/import', 200],
      ['POST /api/contact-lists/:id/upload', 400],
    ] as const
  ).map(
    ([route, expected]): Case => ({
      route,
      call: async (o) => {
        const res = await postAs(o, '/api/contact-lists', { name: `Lista ${route.length}` });
        const contactListId = res.json().id as number;
        if (route.endsWith('/import'))
          await t.app.ctx.db.insert(contactListImports).values({ companyId: o.companyId, contactListId });
        const [method, path] = split(route);
        return { method, url: path.replace(':id', String(contactListId)), payload: { name: 'Lista 2' } };
      },
      // The upload's positive control sends JSON, so A gets 400 after the list check.
      expected,
    }),
  ),
  ...(
    [
      ['GET /api/contact-list-items/:id', 200],
      ['PUT /api/contact-list-items/:id', 200],
      ['DELETE /api/contact-list-items/:id', 204],
      ['GET /api/contact-list-items', 200],
      ['POST /api/contact-list-items', 201],
    ] as const
  ).map(
    ([route, expected]): Case => ({
      route,
      call: async (o) => {
        const list = await postAs(o, '/api/contact-lists', { name: 'Lista de itens' });
        const contactListId = list.json().id as number;
        const item = await postAs(o, '/api/contact-list-items', {
          contactListId,
          name: 'Maria',
          number: '5511999990001',
        });
        const [method, path] = split(route);
        if (route === 'GET /api/contact-list-items')
          return { method, url: `${path}?contactListId=${contactListId}` };
        if (route === 'POST /api/contact-list-items')
          return { method, url: path, payload: { contactListId, name: 'João', number: '5511999990002' } };
        return { method, url: path.replace(':id', String(item.json().id)), payload: { name: 'Maria 2' } };
      },
      expected,
    }),
  ),
  ...(
    [
      'GET /api/quick-messages/:id',
      'PUT /api/quick-messages/:id',
      'DELETE /api/quick-messages/:id',
      'DELETE /api/quick-messages/:id/media-upload',
      'POST /api/quick-messages/:id/media-upload',
    ] as const
  ).map(
    (route): Case => ({
      route,
      call: async (o) => {
        const res = await postAs(o, '/api/quick-messages', { shortcode: `qm-${route.length}-${Date.now()}` });
        const [method, path] = split(route);
        return { method, url: path.replace(':id', String(res.json().id)), payload: { shortcode: 'qm' } };
      },
      // The upload's positive control sends JSON (the matrix replaces headers), so A gets 400 after the id check.
      expected: route === 'DELETE /api/quick-messages/:id' ? 204 : route.startsWith('POST') ? 400 : 200,
    }),
  ),
  ...(
    [
      ['GET /api/files/:id', 200],
      ['PUT /api/files/:id', 200],
      ['DELETE /api/files/:id', 204],
      // The positive control sends JSON (the matrix replaces headers), so A gets 400 after the id check.
      ['POST /api/files/uploadList/:id', 400],
    ] as const
  ).map(
    ([route, expected]): Case => ({
      route,
      call: async (o) => {
        const res = await postAs(o, '/api/files', { name: `Arquivos ${Date.now()}`, message: 'Segue' });
        const [method, path] = split(route);
        return { method, url: path.replace(':id', String(res.json().id)), payload: { name: 'Arquivos 2' } };
      },
      expected,
    }),
  ),
  ...(
    [
      ['GET /api/chats/u/:uuid', 200],
      ['PUT /api/chats/:id', 200],
      ['DELETE /api/chats/:id', 204],
      ['POST /api/chats/:id/read', 200],
      ['GET /api/chats/:id/messages', 200],
      ['POST /api/chats/:id/messages', 201],
    ] as const
  ).map(
    ([route, expected]): Case => ({
      route,
      call: async (o) => {
        const res = await postAs(o, '/api/chats', { title: 'Equipe A', users: [o.agent.id] });
        const [method, path] = split(route);
        const payload =
          method === 'GET' || method === 'DELETE' ? undefined : { title: 'Equipe', message: 'oi' };
        const url = path.replace(':id', String(res.json().id)).replace(':uuid', res.json().uuid);
        return { method, url, payload };
      },
      expected,
    }),
  ),
  ...(['GET', 'PUT', 'DELETE'] as const).map(
    (method): Case => ({
      route: `${method} /api/prompt/:id`,
      call: async (o) => {
        const res = await postAs(o, '/api/prompt', {
          name: 'Assistente',
          prompt: 'Você é o assistente da loja. Responda com educação e poucas palavras.',
          apiKey: 'sk-test-key-1234',
          queueId: o.queueId,
        });
        return { method, url: `/api/prompt/${res.json().id}`, payload: { name: 'Assistente 2' } };
      },
      expected: 200,
    }),
  ),
  ...(['GET', 'PUT', 'DELETE'] as const).map(
    (method): Case => ({
      route: `${method} /api/queueIntegration/:id`,
      call: async (o) => {
        const res = await postAs(o, '/api/queueIntegration', {
          type: 'webhook',
          name: 'Gancho',
          urlN8N: 'http://127.0.0.1:9/hook',
        });
        return { method, url: `/api/queueIntegration/${res.json().id}`, payload: { name: 'Gancho 2' } };
      },
      expected: 200,
    }),
  ),
  ...(
    [
      ['GET /api/invoices/:id', 200],
      ['POST /api/invoices/:id/cancel', 200],
    ] as const
  ).map(
    ([route, expected]): Case => ({
      route,
      call: async (o) => {
        const invoiceId = await createOpenInvoice(o.companyId);
        const [method, path] = split(route);
        return { method, url: path.replace(':id', String(invoiceId)) };
      },
      expected,
    }),
  ),
  ...(
    [
      ['GET /api/webhooks/:id', 200],
      ['PUT /api/webhooks/:id', 200],
      ['DELETE /api/webhooks/:id', 204],
      ['POST /api/webhooks/:id/secret', 200],
      ['GET /api/webhooks/:id/deliveries', 200],
    ] as const
  ).map(
    ([route, expected]): Case => ({
      route,
      call: async (o) => {
        const res = await postAs(o, '/api/webhooks', {
          url: 'https://hooks.example.com/zapdesk',
          events: ['message.created'],
        });
        const [method, path] = split(route);
        const payload = method === 'PUT' ? { active: false } : undefined;
        return { method, url: path.replace(':id', String(res.json().id)), payload };
      },
      expected,
    }),
  ),
  ...(
    [
      ['GET /api/campaigns/:id', 200],
      ['PUT /api/campaigns/:id', 200],
      ['DELETE /api/campaigns/:id', 204],
      ['GET /api/campaigns/:id/shippings', 200],
      ['POST /api/campaigns/:id/cancel', 200],
      ['POST /api/campaigns/:id/restart', 200],
      ['DELETE /api/campaigns/:id/media-upload', 200],
      // The positive control sends JSON (the matrix replaces headers): A gets 400 after the id check.
      ['POST /api/campaigns/:id/media-upload', 400],
    ] as const
  ).map(
    ([route, expected]): Case => ({
      route,
      call: async (o) => {
        const list = await postAs(o, '/api/contact-lists', { name: `Lista campanha ${route.length}` });
        await postAs(o, '/api/contact-list-items', {
          contactListId: list.json().id,
          name: 'Cliente',
          number: customerNumber(),
        });
        const res = await postAs(o, '/api/campaigns', {
          name: 'Campanha',
          message1: 'Olá',
          contactListId: list.json().id,
          whatsappId: conn.whatsappId,
          // Cancel needs a scheduled campaign; restart starts an inactive one.
          scheduledAt: route.endsWith('/cancel') ? new Date(Date.now() + 86_400_000).toISOString() : null,
        });
        const [method, path] = split(route);
        return { method, url: path.replace(':id', String(res.json().id)), payload: { name: 'Campanha 2' } };
      },
      expected,
    }),
  ),
  {
    route: 'POST /api/webhooks/:id/deliveries/:deliveryId/retry',
    call: async (o) => {
      const res = await postAs(o, '/api/webhooks', {
        url: 'https://hooks.example.com/retry',
        events: ['contact.created'],
      });
      const [failed] = await t.app.ctx.db
        .insert(webhookDeliveries)
        .values({
          companyId: o.companyId,
          webhookId: res.json().id,
          eventId: `contact.created:${Date.now()}`,
          event: 'contact.created',
          payload: {},
          status: 'failed',
          tries: 8,
        })
        .returning({ id: webhookDeliveries.id });
      return { method: 'POST', url: `/api/webhooks/${res.json().id}/deliveries/${failed!.id}/retry` };
    },
    expected: 200,
  },
  // Flow builder and flow campaigns: path ids and the ids the spec sends in the body.
  ...(
    [
      ['GET /api/flowbuilder/flow/:id', 200],
      ['DELETE /api/flowbuilder/:id', 204],
      ['PUT /api/flowbuilder', 200],
      ['POST /api/flowbuilder/duplicate', 201],
      ['POST /api/flowbuilder/flow', 200],
      ['POST /api/flowbuilder/:id/test', 201],
      ['GET /api/flowcampaign/:id', 200],
      ['PUT /api/flowcampaign', 200],
      ['DELETE /api/flowcampaign/:id', 204],
    ] as const
  ).map(
    ([route, expected]): Case => ({
      route,
      call: async (o) => {
        const flow = await postAs(o, '/api/flowbuilder', { name: 'Fluxo de A' });
        const flowId = flow.json().id as number;
        const [method, path] = split(route);
        if (path.startsWith('/api/flowcampaign')) {
          const whatsappId = await createSimulatorConnection(t.app, o.admin);
          const campaign = await postAs(o, '/api/flowcampaign', {
            name: 'Frase de A',
            flowId,
            whatsappId,
            phrase: 'oi',
          });
          const id = campaign.json().id as number;
          return { method, url: path.replace(':id', String(id)), payload: { id, phrase: 'olá' } };
        }
        const start = {
          id: '1',
          type: 'start',
          position: { x: 0, y: 0 },
          data: { label: 'Inicio do fluxo' },
        };
        if (path.endsWith('/test')) {
          // A test run: A's saved flow on A's simulator phone.
          await postAs(o, '/api/flowbuilder/flow', { idFlow: flowId, nodes: [start], connections: [] });
          const whatsappId = await createSimulatorConnection(t.app, o.admin);
          return {
            method,
            url: path.replace(':id', String(flowId)),
            payload: { whatsappId, number: customerNumber() },
          };
        }
        return {
          method,
          url: path.replace(':id', String(flowId)),
          payload: { flowId, idFlow: flowId, name: 'Fluxo de A2', nodes: [start], connections: [] },
        };
      },
      expected,
    }),
  ),
];

/** Routes with a path parameter that is not a tenant row id; their isolation is tested below. */
const NOT_ID_PARAMS = [
  'PUT /api/settings/:key',
  'POST /api/users/set-language/:lang',
  // Password reset: anonymous calls keyed by e-mail (modules/password-reset tests them).
  'POST /api/forgetpassword/:email',
  'POST /api/resetpasswords/:email/:token/:password',
];

/**
 * Platform administration (document 3 section 7): plans are platform-wide (every user reads them,
 * the super user writes them); companies are written by the super user only. A company admin gets
 * 403 on every write, tested in 'platform administration' below.
 */
const SUPER_ADMINISTRATION = [
  'GET /api/plans/:id',
  'PUT /api/plans/:id',
  'DELETE /api/plans/:id',
  'PUT /api/companies/:id',
  'POST /api/companies/:id/extend',
  'DELETE /api/companies/:id',
];

/**
 * Platform-wide records (announcements and helps, document 2 section 1): every company's users read
 * them by design, and only the super user writes them; tested in 'platform-wide notices' below.
 */
const PLATFORM_WIDE = [
  // Super user only (the platform confirms manual payments of any company); see 'super-user billing'.
  'POST /api/invoices/:id/pay',
  'GET /api/announcements/:id',
  'GET /api/announcements/:id/media',
  'PUT /api/announcements/:id',
  'DELETE /api/announcements/:id',
  'POST /api/announcements/:id/media-upload',
  'DELETE /api/announcements/:id/media-upload',
  'PUT /api/helps/:id',
  'DELETE /api/helps/:id',
];

/**
 * Meta's webhook of a cloud connection: public, authenticated by the connection's verify token and
 * its app secret's signature instead of a company token; channels/cloud/cloud.test.ts proves another
 * company's connection never receives the events.
 */
const SIGNED_WEBHOOKS = ['GET /api/cloud/webhook/:id', 'POST /api/cloud/webhook/:id'];

describe('cross-company access', () => {
  for (const c of MATRIX) {
    it(`${c.route}: company B gets 404 on A's ids; A succeeds`, async () => {
      const call = await c.call(a);
      const intruder = await t.app.inject({ ...call, headers: bearer(b.admin) });
      expect(intruder.statusCode).toBe(404);
      expect(intruder.json().error).toMatch(/^ERR_(NO_\w+_FOUND|NOT_FOUND)$/);
      const owner = await t.app.inject({ ...call, headers: bearer(a.admin) });
      expect(owner.statusCode).toBe(c.expected);
    });
  }

  it('covers every registered route with a path parameter', () => {
    const withParams = t.app.routeTable.filter((r) => r.url.includes(':')).map((r) => `${r.method} ${r.url}`);
    const covered = new Set([
      ...MATRIX.map((c) => c.route),
      ...NOT_ID_PARAMS,
      ...PLATFORM_WIDE,
      ...SIGNED_WEBHOOKS,
      ...SUPER_ADMINISTRATION,
    ]);
    expect(withParams.filter((r) => !covered.has(r))).toEqual([]);
  });

  it('list routes answer only the caller company rows', async () => {
    const lists: [string, number[]][] = [
      ['/api/users', [a.admin.id, a.agent.id]],
      ['/api/users/list', [a.admin.id, a.agent.id]],
      ['/api/users/load', [a.admin.id, a.agent.id]],
      ['/api/queue', [a.queueId]],
      ['/api/whatsapp', [conn.whatsappId]],
      ['/api/tickets?showAll=true', [conn.ticketId]],
      ['/api/contacts', [conn.contactId]],
      ['/api/contacts/list', [conn.contactId]],
      ['/api/tags/list', [conn.tagId]],
      ['/api/ticket/kanban?showAll=true', [conn.ticketId]],
      ['/api/settings', []],
      ['/api/webhooks', [conn.webhookId]],
      ['/api/notifications', [conn.ticketId]],
    ];
    const campaignOfA = await inject('GET', '/api/campaigns', a.admin);
    const campaignsOfB = await inject('GET', '/api/campaigns', b.admin);
    const idsOfA = (campaignOfA.json().records as { id: number }[]).map((c) => c.id);
    expect(idsOfA.length).toBeGreaterThan(0);
    expect((campaignsOfB.json().records as { id: number }[]).some((c) => idsOfA.includes(c.id))).toBe(false);
    for (const [url, foreign] of lists) {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(b.admin) });
      expect(res.statusCode, url).toBe(200);
      const body = res.json();
      const rows = (
        Array.isArray(body) ? body : (body.users ?? body.tickets ?? body.contacts ?? body.notifications)
      ) as {
        id?: number;
        companyId?: number;
      }[];
      expect(rows.length, url).toBeGreaterThan(0);
      expect(
        rows.some((r) => r.id !== undefined && foreign.includes(r.id)),
        url,
      ).toBe(false);
      expect(
        rows.every((r) => r.companyId === undefined || r.companyId === b.companyId),
        url,
      ).toBe(true);
    }
  });

  it("the contacts CSV export holds only the caller company's contacts", async () => {
    const ofA = await inject('GET', `/api/contacts/${conn.contactId}`, a.admin);
    const number = ofA.json().number as string;
    const csvOf = async (user: TestUser) => (await inject('GET', '/api/contacts/export', user)).body;
    expect(await csvOf(a.admin)).toContain(number);
    expect(await csvOf(b.admin)).not.toContain(number);
  });

  it("another company's prompt or integration is not listed and cannot be attached (404)", async () => {
    const prompt = await inject('POST', '/api/prompt', a.admin, {
      name: 'Assistente A',
      prompt: 'Você é o assistente da empresa A. Responda com educação e poucas palavras.',
      apiKey: 'sk-a-secret-key-9876',
      queueId: a.queueId,
    });
    const integration = await inject('POST', '/api/queueIntegration', a.admin, {
      type: 'n8n',
      name: 'Fluxo A',
      urlN8N: 'http://127.0.0.1:9/a',
    });
    const promptId = prompt.json().id as number;
    const integrationId = integration.json().id as number;
    const bPrompts = await inject('GET', '/api/prompt', b.admin);
    expect(bPrompts.json().prompts.map((p: { id: number }) => p.id)).not.toContain(promptId);
    const bIntegrations = await inject('GET', '/api/queueIntegration', b.admin);
    expect(bIntegrations.json().queueIntegrations.map((p: { id: number }) => p.id)).not.toContain(
      integrationId,
    );
    const bWhatsappId = await createSimulatorConnection(t.app, b.admin);
    for (const payload of [{ promptId }, { integrationId }]) {
      const queue = await t.app.inject({
        method: 'PUT',
        url: `/api/queue/${b.queueId}`,
        headers: bearer(b.admin),
        payload,
      });
      expect(queue.statusCode).toBe(404);
      const connection = await t.app.inject({
        method: 'PUT',
        url: `/api/whatsapp/${bWhatsappId}`,
        headers: bearer(b.admin),
        payload,
      });
      expect(connection.statusCode).toBe(404);
      // Positive control: company A attaches its own.
      const own = await t.app.inject({
        method: 'PUT',
        url: `/api/queue/${a.queueId}`,
        headers: bearer(a.admin),
        payload,
      });
      expect(own.statusCode).toBe(200);
      expect(own.json()).toMatchObject(payload);
    }
  });

  it('the invoices list answers only the caller company invoices', async () => {
    const mine = await createOpenInvoice(b.companyId);
    const theirs = await createOpenInvoice(a.companyId);
    const res = await inject('GET', '/api/invoices/all', b.admin);
    const ids = res.json().map((i: { id: number }) => i.id);
    expect(ids).toContain(mine);
    expect(ids).not.toContain(theirs);
  });

  it("POST /invoices keeps the copy for the caller's company only, whatever companyId it sends", async () => {
    const res = await inject('POST', '/api/invoices', b.admin, {
      plan: { name: 'Básico', value: 1 },
      companyId: a.companyId,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().companyId).toBe(b.companyId);
    const theirs = await inject('GET', '/api/invoices/all', a.admin);
    expect(theirs.json().map((i: { id: number }) => i.id)).not.toContain(res.json().id);
    const read = await inject('GET', `/api/invoices/${res.json().id}`, a.admin);
    expect(read.statusCode).toBe(404);
  });

  it('super-user billing: only the super user confirms a payment of any company', async () => {
    const invoiceId = await createOpenInvoice(a.companyId);
    const url = `/api/invoices/${invoiceId}/pay`;
    const denied = await t.app.inject({ method: 'POST', url, headers: bearer(b.admin) });
    expect(denied.statusCode).toBe(403);
    const superUser = await createUser(t.app, b.companyId, { profile: 'admin', super: true });
    const paid = await t.app.inject({ method: 'POST', url, headers: bearer(superUser) });
    expect(paid.statusCode).toBe(200);
    expect(paid.json().invoice.companyId).toBe(a.companyId);
  });

  it('a company id in the query or body is ignored', async () => {
    const res = await inject('GET', `/api/users?companyId=${a.companyId}`, b.admin);
    expect(res.json().users.every((u: { companyId: number }) => u.companyId === b.companyId)).toBe(true);
    const created = await inject('POST', '/api/users', b.admin, {
      name: 'Smuggled',
      email: `smuggled-${Date.now()}@example.test`,
      password: 'abcde',
      companyId: a.companyId,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().companyId).toBe(b.companyId);
  });

  it('settings changed by B do not reach A', async () => {
    await inject('PUT', '/api/settings/userRating', b.admin, { value: 'enabled' });
    const res = await inject('GET', '/api/settings', a.admin);
    expect(res.json()).toContainEqual({ key: 'userRating', value: 'disabled' });
  });
});

describe('contacts import', () => {
  it("POST /api/contacts/import checks duplicates in the caller's company only", async () => {
    const number = customerNumber();
    const inB = await inject('POST', '/api/contacts', b.admin, { name: 'Só de B', number });
    expect(inB.statusCode).toBe(200);
    const asA = () =>
      inject('POST', '/api/contacts/import', a.admin, { contacts: [{ name: 'Importado por A', number }] });
    const first = await asA();
    expect(first.statusCode).toBe(200);
    expect(first.json().newContacts).toHaveLength(1);
    const again = await asA();
    expect(again.json()).toEqual({
      newContacts: [],
      errorBag: [{ contactName: 'Importado por A', error: 'ERR_DUPLICATED_CONTACT' }],
    });
    const bList = await inject('GET', `/api/contacts?searchParam=${number}`, b.admin);
    expect(bList.json().contacts.map((c: { name: string }) => c.name)).toEqual(['Só de B']);
  });
});

describe('platform-wide notices', () => {
  it("another company's admin reads active announcements and helps but writes none (403); the super user writes", async () => {
    const superUser = await createUser(t.app, a.companyId, { profile: 'admin', super: true });
    const as = (user: { token: string }, method: Method, url: string, payload?: object) =>
      t.app.inject({ method, url, headers: bearer(user), ...(payload ? { payload } : {}) });
    const active = (
      await as(superUser, 'POST', '/api/announcements', { title: 'Todos', text: 'Aviso' })
    ).json();
    const hidden = (
      await as(superUser, 'POST', '/api/announcements', { title: 'Rascunho', text: 'x', status: false })
    ).json();
    const help = (await as(superUser, 'POST', '/api/helps', { title: 'Vídeo', video: 'abc_123-XY' })).json();
    expect((await as(b.admin, 'GET', `/api/announcements/${active.id}`)).statusCode).toBe(200);
    expect((await as(b.admin, 'GET', `/api/announcements/${hidden.id}`)).statusCode).toBe(404);
    expect((await as(b.admin, 'GET', `/api/announcements/${hidden.id}/media`)).statusCode).toBe(404);
    expect((await as(b.admin, 'GET', '/api/helps/list')).json()).toContainEqual(help);
    const writes: [Method, string][] = [
      ['PUT', `/api/announcements/${active.id}`],
      ['DELETE', `/api/announcements/${active.id}`],
      ['POST', `/api/announcements/${active.id}/media-upload`],
      ['DELETE', `/api/announcements/${active.id}/media-upload`],
      ['PUT', `/api/helps/${help.id}`],
      ['DELETE', `/api/helps/${help.id}`],
    ];
    for (const [method, url] of writes) {
      const res = await as(b.admin, method, url, method === 'PUT' ? { title: 'B' } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await as(superUser, 'PUT', `/api/announcements/${active.id}`, { title: 'B' })).statusCode).toBe(
      200,
    );
    expect((await as(superUser, 'DELETE', `/api/helps/${help.id}`)).statusCode).toBe(204);
  });
});

describe('platform administration', () => {
  it("another company's admin reads plans but writes no plan and touches no company (403); the super user does", async () => {
    const superUser = await createUser(t.app, a.companyId, { profile: 'admin', super: true });
    const as = (user: { token: string }, method: Method, url: string, payload?: object) =>
      t.app.inject({ method, url, headers: bearer(user), ...(payload ? { payload } : {}) });
    const plan = (
      await as(superUser, 'POST', '/api/plans', {
        name: `Plano ${Date.now()}`,
        value: 10,
        users: 2,
        connections: 1,
        queues: 1,
      })
    ).json();
    expect((await as(b.admin, 'GET', `/api/plans/${plan.id}`)).json()).toEqual(plan);
    const company = (await as(superUser, 'POST', '/api/companies', { name: 'Alvo', planId: plan.id })).json();
    const writes: [Method, string, object?][] = [
      ['PUT', `/api/plans/${plan.id}`, { name: 'B' }],
      ['DELETE', `/api/plans/${plan.id}`],
      ['PUT', `/api/companies/${company.id}`, { name: 'Bbb' }],
      ['POST', `/api/companies/${company.id}/extend`],
      ['DELETE', `/api/companies/${company.id}`],
      ['PUT', `/api/companies/${a.companyId}`, { name: 'Bbb' }],
      ['DELETE', `/api/companies/${a.companyId}`],
    ];
    for (const [method, url, payload] of writes) {
      const res = await as(b.admin, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().error).toBe('ERR_NO_PERMISSION');
    }
    expect((await as(superUser, 'PUT', `/api/companies/${company.id}`, { name: 'Bbb' })).statusCode).toBe(
      200,
    );
    expect((await as(superUser, 'POST', `/api/companies/${company.id}/extend`)).statusCode).toBe(200);
    expect((await as(superUser, 'DELETE', `/api/companies/${company.id}`)).statusCode).toBe(204);
    expect((await as(superUser, 'DELETE', `/api/plans/${plan.id}`)).statusCode).toBe(204);
  });
});
