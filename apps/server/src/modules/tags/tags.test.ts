import { ZTagsPage } from '@zapdesk/shared';
import { describe, expect, it } from 'vitest';
import { ticketTags } from '../../db/schema/index.js';
import { inject, t, useAppSuite } from '../../test/app-suite.js';
import {
  createSimulatorConnection,
  createTenant,
  customerNumber,
  injectMessage,
} from '../../test/factories.js';

useAppSuite();

describe('tags', () => {
  it('lists with ticket counts, search and paging', async () => {
    const { admin, companyId } = await createTenant(t.app);
    const whatsappId = await createSimulatorConnection(t.app, admin);
    const ticketIds: number[] = [];
    for (let i = 0; i < 3; i++) {
      ticketIds.push(
        (await injectMessage(t.app, admin, whatsappId, { from: customerNumber(), body: 'oi' })).ticketId,
      );
    }
    const vip = (await inject('POST', '/api/tags', admin, { name: 'VIP', color: '#FF0000' })).json();
    const late = (await inject('POST', '/api/tags', admin, { name: 'Atrasado' })).json();
    expect(late.color).toBe('#5C59A0');
    await t.app.ctx.db.insert(ticketTags).values([
      { companyId, ticketId: ticketIds[0]!, tagId: vip.id },
      { companyId, ticketId: ticketIds[1]!, tagId: vip.id },
      { companyId, ticketId: ticketIds[2]!, tagId: late.id },
    ]);
    for (let i = 0; i < 20; i++)
      await inject('POST', '/api/tags', admin, { name: `Zeta ${String(i).padStart(2, '0')}` });
    const other = await createTenant(t.app);
    await inject('POST', '/api/tags', other.admin, { name: 'VIP outsider' });

    const first = ZTagsPage.parse((await inject('GET', '/api/tags?pageNumber=1', admin)).json());
    expect(first.tags).toHaveLength(20);
    expect(first.hasMore).toBe(true);
    expect(first.tags.find((x) => x.name === 'VIP')?.ticketsCount).toBe(2);
    expect(first.tags.find((x) => x.name === 'Atrasado')?.ticketsCount).toBe(1);
    expect(first.tags.find((x) => x.name === 'Zeta 00')?.ticketsCount).toBe(0);
    const second = ZTagsPage.parse((await inject('GET', '/api/tags?pageNumber=2', admin)).json());
    expect(second.tags).toHaveLength(2);
    expect(second.hasMore).toBe(false);
    const search = ZTagsPage.parse((await inject('GET', '/api/tags?searchParam=vi', admin)).json());
    expect(search.tags.map((x) => x.name)).toEqual(['VIP']);
  });

  it('validates the name and keeps it unique per company', async () => {
    const { admin } = await createTenant(t.app);
    const other = await createTenant(t.app);
    const empty = await inject('POST', '/api/tags', admin, { name: '' });
    expect(empty.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'name', message: 'required' });
    const short = await inject('POST', '/api/tags', admin, { name: 'ab' });
    expect(short.json()).toMatchObject({ field: 'name', message: 'tooShort' });
    expect((await inject('POST', '/api/tags', admin, { name: 'Único' })).statusCode).toBe(201);
    const dup = await inject('POST', '/api/tags', admin, { name: 'Único' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ error: 'ERR_NAME_ALREADY_EXISTS', field: 'name' });
    expect((await inject('POST', '/api/tags', other.admin, { name: 'Único' })).statusCode).toBe(201);
  });

  it('lets only admins set the kanban flag and lists kanban lanes', async () => {
    const { admin, agent } = await createTenant(t.app);
    const byAgent = await inject('POST', '/api/tags', agent, { name: 'Agente', kanban: 1 });
    expect(byAgent.json().kanban).toBe(0);
    const byAdmin = await inject('POST', '/api/tags', admin, { name: 'Lane', kanban: 1 });
    expect(byAdmin.json().kanban).toBe(1);
    const agentEdit = await inject('PUT', `/api/tags/${byAdmin.json().id}`, agent, {
      name: 'Lane 2',
      kanban: 0,
    });
    expect(agentEdit.json()).toMatchObject({ name: 'Lane 2', kanban: 1 });
    const adminEdit = await inject('PUT', `/api/tags/${byAgent.json().id}`, admin, {
      name: 'Agente',
      kanban: true,
    });
    expect(adminEdit.json().kanban).toBe(1);
    const kanban = await inject('GET', '/api/tags/kanban', agent);
    expect(kanban.json().lista.map((x: { name: string }) => x.name)).toEqual(['Agente', 'Lane 2']);
  });

  it('reads and deletes one tag', async () => {
    const { admin } = await createTenant(t.app);
    const tag = (await inject('POST', '/api/tags', admin, { name: 'Apagar' })).json();
    expect((await inject('GET', `/api/tags/${tag.id}`, admin)).json()).toMatchObject({ name: 'Apagar' });
    expect((await inject('DELETE', `/api/tags/${tag.id}`, admin)).statusCode).toBe(204);
    expect((await inject('GET', `/api/tags/${tag.id}`, admin)).statusCode).toBe(404);
  });
});
