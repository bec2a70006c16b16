import { DEFAULT_QUEUE_SCHEDULES, type QueueOption, ZQueueDetail } from '@zapdesk/shared';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queueOptions } from '../../db/schema/index.js';
import { inject, t, useAppSuite } from '../../test/app-suite.js';
import { createCompanyAdmin, createTenant } from '../../test/factories.js';

useAppSuite();

describe('queues CRUD', () => {
  it('creates with default hours, reads, updates schedules and deletes', async () => {
    const { admin } = await createTenant(t.app);
    const created = await inject('POST', '/api/queue', admin, {
      name: 'Vendas',
      color: '#FF0000',
      orderQueue: 2,
      greetingMessage: 'Olá',
    });
    expect(created.statusCode).toBe(201);
    const queue = ZQueueDetail.parse(created.json());
    expect(queue.schedules).toEqual(DEFAULT_QUEUE_SCHEDULES);
    expect(queue.schedules.find((s) => s.weekdayEn === 'saturday')).toMatchObject({
      startTime: '08:00',
      endTime: '12:00',
    });
    expect(queue.outOfHoursMessage).toBeNull();

    const schedules = DEFAULT_QUEUE_SCHEDULES.map((s) => ({ ...s, startTime: '09:00' }));
    const updated = await inject('PUT', `/api/queue/${queue.id}`, admin, {
      name: 'Vendas 2',
      color: '#FF0001',
      orderQueue: 1,
      outOfHoursMessage: 'Fechado',
      schedules,
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      name: 'Vendas 2',
      color: '#FF0001',
      outOfHoursMessage: 'Fechado',
    });
    const read = await inject('GET', `/api/queue/${queue.id}`, admin);
    expect(read.json().schedules[0].startTime).toBe('09:00');
    const list = await inject('GET', '/api/queue', admin);
    expect(list.json().map((q: { id: number }) => q.id)).toContain(queue.id);

    expect((await inject('DELETE', `/api/queue/${queue.id}`, admin)).statusCode).toBe(204);
    const gone = await inject('GET', `/api/queue/${queue.id}`, admin);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toBe('ERR_NO_QUEUE_FOUND');
  });

  it('validates name 2..50, colour 3..9 and schedule times', async () => {
    const { admin } = await createTenant(t.app);
    const short = await inject('POST', '/api/queue', admin, { name: 'V', color: '#123456' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'name', message: 'tooShort' });
    const long = await inject('POST', '/api/queue', admin, { name: 'V'.repeat(51), color: '#123456' });
    expect(long.json()).toMatchObject({ field: 'name', message: 'tooLong' });
    const color = await inject('POST', '/api/queue', admin, { name: 'Vendas', color: '#1' });
    expect(color.json()).toMatchObject({ field: 'color', message: 'tooShort' });
    const color2 = await inject('POST', '/api/queue', admin, { name: 'Vendas', color: '#1234567890' });
    expect(color2.json()).toMatchObject({ field: 'color', message: 'tooLong' });
    const time = await inject('POST', '/api/queue', admin, {
      name: 'Vendas',
      color: '#123456',
      schedules: [{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '25:00', endTime: '18:00' }],
    });
    expect(time.statusCode).toBe(400);
    expect(time.json().error).toBe('ERR_VALIDATION');
  });

  it('refuses a colour already used in the company, but not in another company', async () => {
    const { admin } = await createTenant(t.app);
    const other = await createTenant(t.app);
    expect((await inject('POST', '/api/queue', admin, { name: 'Um', color: '#ABCDEF' })).statusCode).toBe(
      201,
    );
    const dup = await inject('POST', '/api/queue', admin, { name: 'Dois', color: '#ABCDEF' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toBe('ERR_QUEUE_COLOR_ALREADY_EXISTS');
    const second = await inject('POST', '/api/queue', admin, { name: 'Dois', color: '#ABCDE0' });
    const clash = await inject('PUT', `/api/queue/${second.json().id}`, admin, {
      name: 'Dois',
      color: '#ABCDEF',
    });
    expect(clash.json().error).toBe('ERR_QUEUE_COLOR_ALREADY_EXISTS');
    expect(
      (await inject('POST', '/api/queue', other.admin, { name: 'Um', color: '#ABCDEF' })).statusCode,
    ).toBe(201);
  });

  it('stops at the plan queue limit', async () => {
    const admin = await createCompanyAdmin(t.app, { plan: { queues: 2 } });
    expect((await inject('POST', '/api/queue', admin, { name: 'Um', color: '#000001' })).statusCode).toBe(
      201,
    );
    expect((await inject('POST', '/api/queue', admin, { name: 'Dois', color: '#000002' })).statusCode).toBe(
      201,
    );
    const third = await inject('POST', '/api/queue', admin, { name: 'Três', color: '#000003' });
    expect(third.statusCode).toBe(403);
    expect(third.json()).toMatchObject({ error: 'ERR_QUEUE_LIMIT_REACHED', limit: 2 });
  });

  it('lets agents read but not write', async () => {
    const { agent, queueId } = await createTenant(t.app);
    expect((await inject('GET', `/api/queue/${queueId}`, agent)).statusCode).toBe(200);
    const res = await inject('PUT', `/api/queue/${queueId}`, agent, { name: 'Nope', color: '#000000' });
    expect(res.statusCode).toBe(403);
  });
});

describe('queue options tree', () => {
  it('adds options level by level, walks the tree and deletes a subtree', async () => {
    const { admin, agent, queueId } = await createTenant(t.app);
    const add = async (title: string, parentId: number | null) => {
      const res = await inject('POST', '/api/queue-options', admin, {
        queueId,
        parentId: parentId ?? -1,
        title,
      });
      expect(res.statusCode).toBe(201);
      return res.json() as QueueOption;
    };
    const sales = await add('Vendas', null);
    const support = await add('Suporte', null);
    expect([sales.option, support.option]).toEqual(['1', '2']);
    const phones = await add('Celulares', sales.id);
    const laptops = await add('Notebooks', sales.id);
    const used = await add('Usados', phones.id);
    expect([phones.option, laptops.option, used.option]).toEqual(['1', '2', '1']);

    const top = await inject('GET', `/api/queue-options?queueId=${queueId}&parentId=-1`, agent);
    expect(top.json().map((o: QueueOption) => o.title)).toEqual(['Vendas', 'Suporte']);
    const children = await inject('GET', `/api/queue-options?queueId=${queueId}&parentId=${sales.id}`, admin);
    expect(children.json().map((o: QueueOption) => o.title)).toEqual(['Celulares', 'Notebooks']);

    const edited = await inject('PUT', `/api/queue-options/${support.id}`, admin, {
      title: 'Suporte técnico',
      message: 'Descreva o problema',
      option: '10',
    });
    expect(edited.json()).toMatchObject({ title: 'Suporte técnico', option: '10' });
    await add('Financeiro', null); // option 3: numeric order puts it before 10

    const tree = ZQueueDetail.parse((await inject('GET', `/api/queue/${queueId}`, admin)).json()).options;
    expect(tree.map((o) => o.title)).toEqual(['Vendas', 'Financeiro', 'Suporte técnico']);
    expect(tree[0]!.children!.map((o) => o.title)).toEqual(['Celulares', 'Notebooks']);
    expect(tree[0]!.children![0]!.children!.map((o) => o.title)).toEqual(['Usados']);

    expect((await inject('DELETE', `/api/queue-options/${sales.id}`, admin)).statusCode).toBe(204);
    const left = await t.app.ctx.db
      .select({ id: queueOptions.id })
      .from(queueOptions)
      .where(eq(queueOptions.queueId, queueId));
    expect(left).toHaveLength(2);
    for (const id of [phones.id, laptops.id, used.id]) {
      expect((await inject('PUT', `/api/queue-options/${id}`, admin, { title: 'x' })).statusCode).toBe(404);
    }
  });

  it('refuses a parent from another queue and writes by agents', async () => {
    const { admin, agent, queueId, companyId } = await createTenant(t.app);
    const other = await inject('POST', '/api/queue', admin, { name: 'Outra', color: '#0F0F0F' });
    const parent = await inject('POST', '/api/queue-options', admin, {
      queueId: other.json().id,
      title: 'P',
    });
    const res = await inject('POST', '/api/queue-options', admin, {
      queueId,
      parentId: parent.json().id,
      title: 'C',
    });
    expect(res.statusCode).toBe(404);
    const denied = await inject('POST', '/api/queue-options', agent, { queueId, title: 'C' });
    expect(denied.statusCode).toBe(403);
    const empty = await inject('POST', '/api/queue-options', admin, { queueId, title: '' });
    expect(empty.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'title' });
    expect(companyId).toBeGreaterThan(0);
  });
});
