import { companyChannel, ZChat, ZChatMessagesPage, ZChatsPage } from '@zapdesk/shared';
import type { Socket } from 'socket.io-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject, sockets, t, url, useListeningAppSuite } from '../../test/app-suite.js';
import {
  createCompanyAdmin,
  createTenant,
  createTenantPair,
  createUser,
  type TenantFixture,
  type TestUser,
} from '../../test/factories.js';
import { collectUntilMarker, openSocket, socketReady } from '../../test/sockets.js';

let a: TenantFixture;
let b: TenantFixture;
let outsider: TestUser;

useListeningAppSuite();
beforeAll(async () => {
  ({ a, b } = await createTenantPair(t.app));
  outsider = await createUser(t.app, a.companyId, { name: 'Fora do chat' });
});

/** A chat of company A owned by its admin with the agent as participant. */
async function teamChat(title = 'Equipe') {
  const res = await inject('POST', '/api/chats', a.admin, { title, users: [a.agent.id] });
  expect(res.statusCode).toBe(201);
  return ZChat.parse(res.json());
}

const unreadsOf = (chat: { users: { userId: number; unreads: number }[] }, user: TestUser) =>
  chat.users.find((u) => u.userId === user.id)?.unreads;

describe('internal chat', () => {
  it('creates a chat with the owner and the named users, listed only to its participants', async () => {
    const chat = await teamChat('Plantão');
    expect(chat).toMatchObject({ title: 'Plantão', ownerId: a.admin.id, lastMessage: '' });
    expect(chat.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(chat.users.map((u) => u.userId).sort()).toEqual([a.admin.id, a.agent.id].sort());
    expect(chat.users.every((u) => u.unreads === 0 && u.user.name.length > 0)).toBe(true);
    const mine = ZChatsPage.parse((await inject('GET', '/api/chats', a.agent)).json());
    expect(mine.records.map((c) => c.id)).toContain(chat.id);
    const search = ZChatsPage.parse((await inject('GET', '/api/chats?searchParam=plant', a.agent)).json());
    expect(search.records.map((c) => c.title)).toEqual(['Plantão']);
    const notMine = ZChatsPage.parse((await inject('GET', '/api/chats', outsider)).json());
    expect(notMine.records.map((c) => c.id)).not.toContain(chat.id);
    const otherCompany = ZChatsPage.parse((await inject('GET', '/api/chats', b.admin)).json());
    expect(otherCompany.records.map((c) => c.id)).not.toContain(chat.id);
  });

  it('requires a title and at least one user of the company', async () => {
    const noTitle = await inject('POST', '/api/chats', a.admin, { title: ' ', users: [a.agent.id] });
    expect(noTitle.statusCode).toBe(400);
    expect(noTitle.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'title', message: 'required' });
    const noUsers = await inject('POST', '/api/chats', a.admin, { title: 'Sem gente', users: [] });
    expect(noUsers.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'users', message: 'required' });
    const foreign = await inject('POST', '/api/chats', a.admin, { title: 'Com B', users: [b.agent.id] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'users', message: 'invalid' });
    const ok = await inject('POST', '/api/chats', a.admin, { title: 'Com A', users: [a.agent.id] });
    expect(ok.statusCode).toBe(201);
  });

  it('lets only participants read, post and mark read (others get 404)', async () => {
    const chat = await teamChat();
    for (const [method, path, payload] of [
      ['GET', `/api/chats/u/${chat.uuid}`, undefined],
      ['GET', `/api/chats/${chat.id}/messages`, undefined],
      ['POST', `/api/chats/${chat.id}/messages`, { message: 'oi' }],
      ['POST', `/api/chats/${chat.id}/read`, {}],
    ] as const) {
      const denied = await inject(method, path, outsider, payload);
      expect(denied.statusCode, path).toBe(404);
      expect(denied.json().error, path).toBe('ERR_NOT_FOUND');
      const otherCompany = await inject(method, path, b.admin, payload);
      expect(otherCompany.statusCode, path).toBe(404);
      const allowed = await inject(method, path, a.agent, payload);
      expect(allowed.statusCode, path).toBeLessThan(300);
    }
  });

  it('finds the chat of a /chats/{uuid} link for a participant', async () => {
    const chat = await teamChat('Link');
    const found = await inject('GET', `/api/chats/u/${chat.uuid}`, a.agent);
    expect(found.statusCode).toBe(200);
    expect(ZChat.parse(found.json())).toMatchObject({ id: chat.id, title: 'Link' });
    const unknown = await inject('GET', `/api/chats/u/${crypto.randomUUID()}`, a.agent);
    expect(unknown.statusCode).toBe(404);
  });

  it('lets only the owner edit and delete', async () => {
    const chat = await teamChat();
    const byParticipant = await inject('PUT', `/api/chats/${chat.id}`, a.agent, { title: 'Meu' });
    expect(byParticipant.statusCode).toBe(403);
    expect(byParticipant.json().error).toBe('ERR_NO_PERMISSION');
    expect((await inject('DELETE', `/api/chats/${chat.id}`, a.agent)).statusCode).toBe(403);
    expect((await inject('PUT', `/api/chats/${chat.id}`, outsider, { title: 'X' })).statusCode).toBe(404);
    const renamed = await inject('PUT', `/api/chats/${chat.id}`, a.admin, {
      title: 'Renomeado',
      users: [outsider.id],
    });
    expect(renamed.statusCode).toBe(200);
    expect(
      ZChat.parse(renamed.json())
        .users.map((u) => u.userId)
        .sort(),
    ).toEqual([a.admin.id, outsider.id].sort());
    // The removed participant lost access; the added one has it.
    expect((await inject('GET', `/api/chats/${chat.id}/messages`, a.agent)).statusCode).toBe(404);
    expect((await inject('GET', `/api/chats/${chat.id}/messages`, outsider)).statusCode).toBe(200);
    expect((await inject('DELETE', `/api/chats/${chat.id}`, a.admin)).statusCode).toBe(204);
    expect((await inject('GET', `/api/chats/${chat.id}/messages`, a.admin)).statusCode).toBe(404);
  });

  it('takes users as user objects, as the classic client sends them, on create and edit', async () => {
    const created = await inject('POST', '/api/chats', a.admin, {
      title: 'Clássico',
      users: [{ id: a.agent.id, name: 'Agente' }],
    });
    expect(created.statusCode).toBe(201);
    const chat = ZChat.parse(created.json());
    expect(chat.users.map((u) => u.userId).sort()).toEqual([a.admin.id, a.agent.id].sort());
    const edited = await inject('PUT', `/api/chats/${chat.id}`, a.admin, {
      title: 'Clássico',
      users: [{ id: outsider.id, name: 'Outro' }, a.agent.id],
    });
    expect(edited.statusCode).toBe(200);
    expect(
      ZChat.parse(edited.json())
        .users.map((u) => u.userId)
        .sort(),
    ).toEqual([a.admin.id, a.agent.id, outsider.id].sort());
    // An object without a numeric id, and another company's user given as an object, stay refused.
    const noId = await inject('POST', '/api/chats', a.admin, { title: 'X', users: [{ name: 'Sem id' }] });
    expect(noId.statusCode).toBe(400);
    const foreign = await inject('POST', '/api/chats', a.admin, { title: 'X', users: [{ id: b.agent.id }] });
    expect(foreign.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'users', message: 'invalid' });
  });

  it("counts the others' unread messages and resets the caller's on read", async () => {
    const chat = await teamChat();
    const sent = await inject('POST', `/api/chats/${chat.id}/messages`, a.agent, { message: 'Bom dia' });
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toMatchObject({ chatId: chat.id, senderId: a.agent.id, message: 'Bom dia' });
    expect(sent.json().sender.id).toBe(a.agent.id);
    await inject('POST', `/api/chats/${chat.id}/messages`, a.agent, { message: 'Tudo bem?' });
    const listed = ZChatsPage.parse((await inject('GET', '/api/chats', a.admin)).json());
    const row = listed.records.find((c) => c.id === chat.id)!;
    expect(row.lastMessage).toBe('Tudo bem?');
    expect(unreadsOf(row, a.admin)).toBe(2);
    expect(unreadsOf(row, a.agent)).toBe(0);
    const read = await inject('POST', `/api/chats/${chat.id}/read`, a.admin, { userId: a.agent.id });
    expect(read.statusCode).toBe(200);
    // The body's userId is ignored: the caller is the token's user.
    expect(unreadsOf(ZChat.parse(read.json()), a.admin)).toBe(0);
    const after = ZChatsPage.parse((await inject('GET', '/api/chats', a.agent)).json());
    expect(after.records[0]!.id).toBe(chat.id);
    expect(unreadsOf(after.records[0]!, a.admin)).toBe(0);
  });

  it('pages messages newest first and refuses an empty one', async () => {
    const chat = await teamChat();
    const empty = await inject('POST', `/api/chats/${chat.id}/messages`, a.admin, { message: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'message', message: 'required' });
    for (let i = 1; i <= 21; i++) {
      await inject('POST', `/api/chats/${chat.id}/messages`, a.admin, { message: `m${i}` });
    }
    const first = ZChatMessagesPage.parse(
      (await inject('GET', `/api/chats/${chat.id}/messages`, a.agent)).json(),
    );
    expect(first.records).toHaveLength(20);
    expect(first.records[0]!.message).toBe('m21');
    expect(first.hasMore).toBe(true);
    const second = ZChatMessagesPage.parse(
      (await inject('GET', `/api/chats/${chat.id}/messages?pageNumber=2`, a.agent)).json(),
    );
    expect(second.records.map((m) => m.message)).toEqual(['m1']);
    expect(second.hasMore).toBe(false);
  });

  it('answers 403 ERR_PLAN_FEATURE_DISABLED when the plan has no internal chat', async () => {
    const user = await createCompanyAdmin(t.app, { plan: { useInternalChat: false } });
    const res = await inject('GET', '/api/chats', user);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('ERR_PLAN_FEATURE_DISABLED');
    const allowed = await createCompanyAdmin(t.app, { plan: { useInternalChat: true } });
    expect((await inject('GET', '/api/chats', allowed)).statusCode).toBe(200);
  });

  it("sends chat events only to the chat's participants", async () => {
    const tenant = await createTenant(t.app);
    const stranger = await createUser(t.app, tenant.companyId);
    const [agentSocket, strangerSocket, otherSocket] = [tenant.agent, stranger, b.admin].map((u) =>
      openSocket(url, u.token),
    ) as [Socket, Socket, Socket];
    sockets.push(agentSocket, strangerSocket, otherSocket);
    await Promise.all([agentSocket, strangerSocket, otherSocket].map(socketReady));
    let chatId = 0;
    const [agentGot, strangerGot, otherGot] = await collectUntilMarker<{ action: string }>(
      t.app,
      [agentSocket, strangerSocket, otherSocket],
      companyChannel(tenant.companyId, 'chat'),
      async () => {
        const created = await inject('POST', '/api/chats', tenant.admin, {
          title: 'Só nós',
          users: [tenant.agent.id],
        });
        chatId = created.json().id;
        await inject('POST', `/api/chats/${chatId}/messages`, tenant.admin, { message: 'segredo' });
        await inject('PUT', `/api/chats/${chatId}`, tenant.admin, { title: 'Só nós dois' });
        await inject('DELETE', `/api/chats/${chatId}`, tenant.admin);
      },
    );
    expect(agentGot!.map((e) => e.action)).toEqual(['create', 'new-message', 'update', 'delete']);
    expect(agentGot![1]).toMatchObject({
      newMessage: { message: 'segredo', senderId: tenant.admin.id },
      chat: { id: chatId, lastMessage: 'segredo' },
    });
    expect(agentGot![3]).toEqual({ action: 'delete', id: chatId });
    expect(strangerGot).toEqual([]);
    expect(otherGot).toEqual([]);
  });
});
