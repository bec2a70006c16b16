/**
 * Lists live (document 2 section 4 "Lists", section 7 Realtime): a change made by one user reaches
 * the other users' sockets as create, update and delete on the record's company channel.
 */
import { companyChannel } from '@zapdesk/shared';
import type { Socket } from 'socket.io-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { tickets, ticketTags } from '../db/schema/index.js';
import { inject, sockets, t, url, useListeningAppSuite } from '../test/app-suite.js';
import {
  createSimulatorConnection,
  createTenantPair,
  createUser,
  injectMessage,
  type TenantFixture,
  type TestUser,
} from '../test/factories.js';
import { collectUntilMarker, openSocket, socketReady } from '../test/sockets.js';

useListeningAppSuite();
let a: TenantFixture;
let b: TenantFixture;
let colleague: TestUser;
let agentSocket: Socket;
let colleagueSocket: Socket;
let adminSocket: Socket;
let otherCompanySocket: Socket;

beforeAll(async () => {
  ({ a, b } = await createTenantPair(t.app));
  colleague = await createUser(t.app, a.companyId, { queueIds: [a.queueId] });
  agentSocket = openSocket(url, a.agent.token);
  colleagueSocket = openSocket(url, colleague.token);
  adminSocket = openSocket(url, a.admin.token);
  otherCompanySocket = openSocket(url, b.admin.token);
  sockets.push(agentSocket, colleagueSocket, adminSocket, otherCompanySocket);
  await Promise.all(sockets.map(socketReady));
});

/** What `colleague` and company B receive on `channel` while `act` runs. */
async function seenBy<T>(channel: string, act: () => unknown) {
  const [colleagueGot, otherGot] = await collectUntilMarker<T>(
    t.app,
    [colleagueSocket, otherCompanySocket],
    companyChannel(a.companyId, channel as 'tag'),
    act,
  );
  return { colleague: colleagueGot!, otherCompany: otherGot! };
}

describe('lists live', () => {
  it('tags: create, update and delete reach the company', async () => {
    let id = 0;
    const created = await seenBy<{ action: string; tag?: { id: number; name: string }; tagId?: number }>(
      'tag',
      async () => {
        const res = await inject('POST', '/api/tags', a.agent, { name: 'Urgente' });
        expect(res.statusCode).toBe(201);
        id = res.json().id;
        expect((await inject('PUT', `/api/tags/${id}`, a.agent, { name: 'Muito urgente' })).statusCode).toBe(
          200,
        );
        expect((await inject('DELETE', `/api/tags/${id}`, a.agent)).statusCode).toBe(204);
      },
    );
    expect(created.colleague).toEqual([
      { action: 'create', tag: expect.objectContaining({ id, name: 'Urgente' }) },
      { action: 'update', tag: expect.objectContaining({ id, name: 'Muito urgente' }) },
      { action: 'delete', tagId: id },
    ]);
    expect(created.otherCompany).toEqual([]);
  });

  it('queues: create, update and delete reach the company (positive control)', async () => {
    let id = 0;
    const got = await seenBy<{ action: string }>('queue', async () => {
      const res = await inject('POST', '/api/queue', a.admin, { name: 'Vendas', color: '#123456' });
      id = res.json().id;
      await inject('PUT', `/api/queue/${id}`, a.admin, { name: 'Vendas 2', color: '#123456' });
      await inject('DELETE', `/api/queue/${id}`, a.admin);
    });
    expect(got.colleague.map((e) => e.action)).toEqual(['create', 'update', 'delete']);
    expect(got.otherCompany).toEqual([]);
  });

  it('contacts: create (form and import), update and delete reach the company as such', async () => {
    let id = 0;
    const got = await seenBy<{ action: string; contact?: { id: number; name: string }; contactId?: number }>(
      'contact',
      async () => {
        const res = await inject('POST', '/api/contacts', a.agent, {
          name: 'Carla',
          number: '5511987650001',
        });
        id = res.json().id;
        await inject('PUT', `/api/contacts/${id}`, a.agent, { name: 'Carla Souza', number: '5511987650001' });
        await inject('DELETE', `/api/contacts/${id}`, a.admin);
        const imported = await inject('POST', '/api/contacts/import', a.agent, {
          contacts: [{ name: 'Davi', number: 5511987650002 }],
        });
        expect(imported.statusCode).toBe(200);
      },
    );
    expect(got.colleague).toEqual([
      { action: 'create', contact: expect.objectContaining({ id, name: 'Carla' }) },
      { action: 'update', contact: expect.objectContaining({ id, name: 'Carla Souza' }) },
      { action: 'delete', contactId: id },
      { action: 'create', contact: expect.objectContaining({ name: 'Davi', number: '5511987650002' }) },
    ]);
    expect(got.otherCompany).toEqual([]);
  });

  it('contacts: a contact created by an incoming message reaches the company once', async () => {
    const whatsappId = await createSimulatorConnection(t.app, a.admin, 'Linha Live');
    const got = await seenBy<{ action: string; contact?: { id: number; name: string } }>(
      'contact',
      async () => {
        // Positive control: the form's create, then a message from that known contact (no event).
        await inject('POST', '/api/contacts', a.agent, { name: 'Já Cadastrada', number: '5511987650009' });
        await injectMessage(t.app, a.admin, whatsappId, {
          from: '5511987650009',
          name: 'Já Cadastrada',
          body: 'oi',
        });
        await injectMessage(t.app, a.admin, whatsappId, {
          from: '5511987650008',
          name: 'Nova Cliente',
          body: 'oi',
        });
        await injectMessage(t.app, a.admin, whatsappId, {
          from: '5511987650008',
          name: 'Nova Cliente',
          body: 'oi 2',
        });
      },
    );
    expect(got.colleague).toEqual([
      {
        action: 'create',
        contact: expect.objectContaining({ name: 'Já Cadastrada', number: '5511987650009' }),
      },
      {
        action: 'create',
        contact: expect.objectContaining({
          name: 'Nova Cliente',
          number: '5511987650008',
          whatsapp: { id: whatsappId, name: 'Linha Live' },
        }),
      },
    ]);
    expect(got.otherCompany).toEqual([]);
  });

  it('quick messages: company-wide ones reach everybody; personal ones only the owner and admins', async () => {
    let shared = 0;
    let own = 0;
    const [colleagueGot, agentGot, adminGot] = await collectUntilMarker<{ action: string; id?: number }>(
      t.app,
      [colleagueSocket, agentSocket, adminSocket],
      companyChannel(a.companyId, 'quickmessage'),
      async () => {
        shared = (
          await inject('POST', '/api/quick-messages', a.agent, {
            shortcode: 'oi',
            message: 'Olá!',
            geral: true,
          })
        ).json().id;
        own = (
          await inject('POST', '/api/quick-messages', a.agent, { shortcode: 'meu', message: 'Só meu' })
        ).json().id;
        // Made personal: the others drop it.
        await inject('PUT', `/api/quick-messages/${shared}`, a.agent, {
          shortcode: 'oi',
          message: 'Olá!',
          geral: false,
        });
        await inject('DELETE', `/api/quick-messages/${own}`, a.agent);
      },
    );
    const summary = (events: { action: string; id?: number; record?: { id: number } }[] = []) =>
      events.map((e) => `${e.action} ${e.record?.id ?? e.id}`);
    expect(summary(agentGot)).toEqual([
      `create ${shared}`,
      `create ${own}`,
      `update ${shared}`,
      `delete ${own}`,
    ]);
    expect(summary(adminGot)).toEqual([
      `create ${shared}`,
      `create ${own}`,
      `update ${shared}`,
      `delete ${own}`,
    ]);
    expect(summary(colleagueGot)).toEqual([`create ${shared}`, `delete ${shared}`]);
  });
});

describe('tickets follow a deleted queue', () => {
  it("deleting a queue sends its live tickets' new state to everyone who now sees them", async () => {
    const queueId = (
      await inject('POST', '/api/queue', a.admin, { name: 'Fila temporária', color: '#0a0b0c' })
    ).json().id as number;
    const contactId = (
      await inject('POST', '/api/contacts', a.admin, { name: 'Cliente', number: '5511912340001' })
    ).json().id as number;
    const [pending, closed] = await t.app.ctx.db
      .insert(tickets)
      .values([
        { companyId: a.companyId, contactId, queueId, status: 'pending' },
        { companyId: a.companyId, contactId, queueId, status: 'closed' },
      ])
      .returning({ id: tickets.id });
    const [agentGot, adminGot, otherGot] = await collectUntilMarker<{
      action: string;
      ticket?: { id: number; queueId: number | null };
    }>(t.app, [agentSocket, adminSocket, otherCompanySocket], companyChannel(a.companyId, 'ticket'), () =>
      inject('DELETE', `/api/queue/${queueId}`, a.admin),
    );
    // The agent does not serve the queue: the pending ticket, now without a queue and unheld, is theirs too.
    const shown = (events: typeof agentGot) =>
      events?.map((e) => `${e.action} ${e.ticket?.id} ${e.ticket?.queueId}`);
    expect(shown(agentGot)).toEqual([`update ${pending!.id} null`]);
    expect(shown(adminGot)).toEqual([`update ${pending!.id} null`]);
    expect(otherGot).toEqual([]);
    expect(shown(adminGot)).not.toContain(`update ${closed!.id} null`);
  });
});

describe('tickets follow a deleted user', () => {
  it("deleting a user puts its open tickets back to waiting and tells the queue's members", async () => {
    const leaving = await createUser(t.app, a.companyId, { queueIds: [a.queueId] });
    const contactId = (
      await inject('POST', '/api/contacts', a.admin, { name: 'Cliente 2', number: '5511912340002' })
    ).json().id as number;
    const [held] = await t.app.ctx.db
      .insert(tickets)
      .values({ companyId: a.companyId, contactId, queueId: a.queueId, userId: leaving.id, status: 'open' })
      .returning({ id: tickets.id });
    const [colleagueGot, otherGot] = await collectUntilMarker<{
      action: string;
      ticket?: { id: number; status: string; userId: number | null };
    }>(t.app, [colleagueSocket, otherCompanySocket], companyChannel(a.companyId, 'ticket'), () =>
      inject('DELETE', `/api/users/${leaving.id}`, a.admin),
    );
    expect(colleagueGot?.map((e) => [e.action, e.ticket?.id, e.ticket?.status, e.ticket?.userId])).toEqual([
      ['update', held!.id, 'pending', null],
    ]);
    expect(otherGot).toEqual([]);
    const listed = await inject('GET', `/api/tickets/${held!.id}`, colleague);
    expect(listed.json()).toMatchObject({ status: 'pending', userId: null });
  });
});

describe('tickets follow their tags', () => {
  it('renaming or deleting a tag sends the live tickets that carry it; closed ones stay quiet', async () => {
    const tagId = (await inject('POST', '/api/tags', a.admin, { name: 'Urgente', color: '#ff0000' })).json()
      .id as number;
    const contactId = (
      await inject('POST', '/api/contacts', a.admin, { name: 'Cliente 3', number: '5511912340003' })
    ).json().id as number;
    const [live, closed] = await t.app.ctx.db
      .insert(tickets)
      .values([
        { companyId: a.companyId, contactId, queueId: a.queueId, status: 'pending' },
        { companyId: a.companyId, contactId, queueId: a.queueId, status: 'closed' },
      ])
      .returning({ id: tickets.id });
    await t.app.ctx.db.insert(ticketTags).values([
      { companyId: a.companyId, ticketId: live!.id, tagId },
      { companyId: a.companyId, ticketId: closed!.id, tagId },
    ]);
    type TicketEvent = { action: string; ticket?: { id: number; tags: { name: string }[] } };
    const shown = (events: TicketEvent[] = []) =>
      events.map((e) => `${e.action} ${e.ticket?.id} [${e.ticket?.tags.map((tag) => tag.name).join()}]`);
    const [renamed, otherGot] = await collectUntilMarker<TicketEvent>(
      t.app,
      [colleagueSocket, otherCompanySocket],
      companyChannel(a.companyId, 'ticket'),
      () => inject('PUT', `/api/tags/${tagId}`, a.admin, { name: 'Muito urgente' }),
    );
    expect(shown(renamed)).toEqual([`update ${live!.id} [Muito urgente]`]);
    expect(otherGot).toEqual([]);
    const [deleted] = await collectUntilMarker<TicketEvent>(
      t.app,
      [colleagueSocket],
      companyChannel(a.companyId, 'ticket'),
      () => inject('DELETE', `/api/tags/${tagId}`, a.admin),
    );
    expect(shown(deleted)).toEqual([`update ${live!.id} []`]);
  });
});

describe('tickets follow a deleted connection', () => {
  it('deleting a connection sends its live tickets, now without a connection', async () => {
    const whatsappId = await createSimulatorConnection(t.app, a.admin);
    const { ticketId } = await injectMessage(t.app, a.admin, whatsappId, {
      from: '5511912340004',
      body: 'oi',
    });
    // The message's own events are delivered before the deletion starts.
    await collectUntilMarker(t.app, [adminSocket], companyChannel(a.companyId, 'ticket'), () => undefined);
    const [adminGot, otherGot] = await collectUntilMarker<{
      action: string;
      ticket?: { id: number; whatsappId: number | null };
    }>(t.app, [adminSocket, otherCompanySocket], companyChannel(a.companyId, 'ticket'), () =>
      inject('DELETE', `/api/whatsapp/${whatsappId}`, a.admin),
    );
    expect(adminGot?.map((e) => [e.action, e.ticket?.id, e.ticket?.whatsappId])).toEqual([
      ['update', ticketId, null],
    ]);
    expect(otherGot).toEqual([]);
  });
});
