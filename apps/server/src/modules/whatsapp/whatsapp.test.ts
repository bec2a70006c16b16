import type { AddressInfo } from 'node:net';
import { companyChannel, ZWhatsapp } from '@zapdesk/shared';
import { io as connect } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { inject, t, useAppSuite } from '../../test/app-suite.js';
import { createCompany, createQueue, createTenant, createUser } from '../../test/factories.js';

useAppSuite();

const create = (user: { token: string }, payload: object) =>
  inject('POST', '/api/whatsapp', user, { provider: 'simulator', ...payload });

describe('connections', () => {
  it('creates, starts the session, lists with queues; the first connection is the default', async () => {
    const { admin, agent, queueId } = await createTenant(t.app);
    const res = await create(admin, {
      name: 'Atendimento',
      queueIds: [queueId],
      greetingMessage: 'Olá!',
      token: 'abc',
    });
    expect(res.statusCode).toBe(201);
    const created = ZWhatsapp.parse(res.json());
    expect(created).toMatchObject({ isDefault: true, provider: 'simulator', queues: [{ id: queueId }] });
    // The answer carries the state the session start reached, not the row from before it.
    expect(created.status).toBe('CONNECTED');
    const listed = await inject('GET', '/api/whatsapp?session=0', agent);
    expect(listed.json()).toHaveLength(1);
    expect(listed.json()[0]).toMatchObject({
      status: 'CONNECTED',
      number: expect.stringMatching(/^\d+$/),
      token: null,
    });
    const byAdmin = await inject('GET', `/api/whatsapp/${created.id}`, admin);
    // The token is the server's (the one sent is ignored), shown to admins.
    expect(byAdmin.json().token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('keeps exactly one default: a new default replaces it, unsetting it is refused, deleting promotes another', async () => {
    const { admin } = await createTenant(t.app);
    const first = (await create(admin, { name: 'Primeira' })).json();
    const second = (await create(admin, { name: 'Segunda', isDefault: true })).json();
    const list = async () => (await inject('GET', '/api/whatsapp', admin)).json();
    expect(
      (await list()).filter((w: { isDefault: boolean }) => w.isDefault).map((w: { id: number }) => w.id),
    ).toEqual([second.id]);
    const unset = await inject('PUT', `/api/whatsapp/${second.id}`, admin, {
      name: 'Segunda',
      provider: 'simulator',
      isDefault: false,
    });
    expect(unset.json()).toEqual({ error: 'ERR_NO_OTHER_WHATSAPP' });
    expect((await inject('DELETE', `/api/whatsapp/${second.id}`, admin)).statusCode).toBe(204);
    expect((await list()).map((w: { id: number; isDefault: boolean }) => [w.id, w.isDefault])).toEqual([
      [first.id, true],
    ]);
  });

  it('enforces the plan connection limit, unique names, company queues and admin role', async () => {
    const companyId = await createCompany(t.app, { plan: { connections: 1, users: 5 } });
    const admin = await createUser(t.app, companyId, { profile: 'admin' });
    const agent = await createUser(t.app, companyId);
    expect((await create(agent, { name: 'Nope' })).statusCode).toBe(403);
    expect((await create(admin, { name: 'Única' })).statusCode).toBe(201);
    const over = await create(admin, { name: 'Outra' });
    expect(over.statusCode).toBe(403);
    expect(over.json()).toMatchObject({ error: 'ERR_CONNECTION_LIMIT_REACHED', limit: 1 });

    const other = await createTenant(t.app);
    await create(other.admin, { name: 'Dup' });
    const dup = await create(other.admin, { name: 'Dup' });
    expect(dup.json()).toMatchObject({ error: 'ERR_NAME_ALREADY_EXISTS', field: 'name' });
    const foreignQueue = await create(other.admin, {
      name: 'Fila alheia',
      queueIds: [await createQueue(t.app, companyId)],
    });
    expect(foreignQueue.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'queueIds' });
    expect((await create(other.admin, { name: 'X' })).json()).toMatchObject({
      error: 'ERR_VALIDATION',
      field: 'name',
    });
  });

  it('session routes disconnect and start again, with whatsappSession events to the company', async () => {
    const { admin } = await createTenant(t.app);
    const id = (await create(admin, { name: 'Sessão' })).json().id;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const socket = connect(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`, {
      transports: ['websocket'],
      query: { token: admin.token },
      forceNew: true,
    });
    await new Promise<void>((resolve) => socket.once('ready', () => resolve()));
    const states: string[] = [];
    socket.on(
      companyChannel(admin.companyId, 'whatsappSession'),
      (e: { session: { id: number; status: string } }) => {
        if (e.session.id === id && states.at(-1) !== e.session.status) states.push(e.session.status);
      },
    );
    expect((await inject('DELETE', `/api/whatsappsession/${id}`, admin)).statusCode).toBe(204);
    const after = (await inject('GET', `/api/whatsapp/${id}`, admin)).json();
    expect(after.status).toBe('DISCONNECTED');
    expect(t.app.sessions.get(id)).toBeUndefined();
    expect((await inject('POST', `/api/whatsappsession/${id}`, admin)).statusCode).toBe(204);
    await new Promise((r) => setTimeout(r, 100));
    expect(states).toEqual(['DISCONNECTED', 'OPENING', 'CONNECTED']);
    socket.close();
  });

  it('simulator routes refuse a connection of another provider', async () => {
    const { admin } = await createTenant(t.app);
    const beta = await inject('POST', '/api/whatsapp', admin, { name: 'Real' });
    expect(beta.statusCode).toBe(201);
    expect(beta.json().provider).toBe('beta');
    const res = await inject('POST', `/api/simulator/${beta.json().id}/messages`, admin, {
      from: '5511999990001',
      body: 'x',
    });
    expect(res.json()).toEqual({ error: 'ERR_WRONG_PROVIDER' });
  });
});
