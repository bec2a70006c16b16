import { ZContactListImport, ZContactListItemsPage, ZContactListsPage } from '@zapdesk/shared';
import ExcelJS from 'exceljs';
import { describe, expect, it, vi } from 'vitest';
import { inject, t, useAppSuite } from '../../test/app-suite.js';
import {
  bearer,
  createCompanyAdmin,
  createSimulatorConnection,
  createTenant,
  type TestUser,
} from '../../test/factories.js';
import { fileUpload } from '../../test/multipart.js';

useAppSuite();

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function sheet(header: string[] | null, rows: (string | number | null)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const ws = workbook.addWorksheet('Lista');
  if (header) ws.addRow(header);
  for (const row of rows) ws.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function upload(user: TestUser, listId: number, data: Buffer, fileName = 'lista.xlsx') {
  const body = fileUpload(data, fileName, XLSX);
  return t.app.inject({
    method: 'POST',
    url: `/api/contact-lists/${listId}/upload`,
    headers: { ...bearer(user), ...body.headers },
    payload: body.payload,
  });
}

async function newList(user: TestUser, name = 'Clientes') {
  const res = await inject('POST', '/api/contact-lists', user, { name });
  expect(res.statusCode).toBe(201);
  return res.json().id as number;
}

const items = async (user: TestUser, listId: number, query = '') =>
  ZContactListItemsPage.parse(
    (await inject('GET', `/api/contact-list-items?contactListId=${listId}${query}`, user)).json(),
  );

describe('contact lists', () => {
  it('lists with contact counts, search and paging; edits and deletes', async () => {
    const { admin } = await createTenant(t.app);
    const other = await createTenant(t.app);
    const vip = await newList(admin, 'VIP');
    await newList(admin, 'Atacado');
    for (let i = 0; i < 20; i++) await newList(admin, `Zeta ${String(i).padStart(2, '0')}`);
    await newList(other.admin, 'VIP de fora');
    for (const number of ['5511999990001', '5511999990002'])
      expect(
        (
          await inject('POST', '/api/contact-list-items', admin, {
            contactListId: vip,
            name: 'Cliente',
            number,
          })
        ).statusCode,
      ).toBe(201);

    const first = ZContactListsPage.parse(
      (await inject('GET', '/api/contact-lists?pageNumber=1', admin)).json(),
    );
    expect(first.records).toHaveLength(20);
    expect(first.hasMore).toBe(true);
    expect(first.records.find((l) => l.name === 'VIP')?.contactsCount).toBe(2);
    expect(first.records.find((l) => l.name === 'Atacado')?.contactsCount).toBe(0);
    const second = ZContactListsPage.parse(
      (await inject('GET', '/api/contact-lists?pageNumber=2', admin)).json(),
    );
    expect(second).toMatchObject({ hasMore: false });
    expect(second.records).toHaveLength(2);
    const search = ZContactListsPage.parse(
      (await inject('GET', '/api/contact-lists?searchParam=vi', admin)).json(),
    );
    expect(search.records.map((l) => l.name)).toEqual(['VIP']);
    const all = (await inject('GET', '/api/contact-lists/list', admin)).json();
    expect(all).toHaveLength(22);

    const renamed = await inject('PUT', `/api/contact-lists/${vip}`, admin, { name: 'VIP Ouro' });
    expect(renamed.json()).toMatchObject({ name: 'VIP Ouro', contactsCount: 2 });
    expect((await inject('POST', '/api/contact-lists', admin, { name: 'a' })).json()).toMatchObject({
      error: 'ERR_VALIDATION',
      field: 'name',
      message: 'tooShort',
    });
    expect((await inject('DELETE', `/api/contact-lists/${vip}`, admin)).statusCode).toBe(204);
    expect((await inject('GET', `/api/contact-lists/${vip}`, admin)).statusCode).toBe(404);
  });

  it('needs the plan flag useCampaigns and an admin', async () => {
    const { admin, agent } = await createTenant(t.app);
    expect((await inject('GET', '/api/contact-lists', admin)).statusCode).toBe(200);
    expect((await inject('GET', '/api/contact-lists', agent)).statusCode).toBe(403);
    const noPlan = await createCompanyAdmin(t.app, { plan: { useCampaigns: false } });
    const refused = await inject('GET', '/api/contact-lists', noPlan);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('ERR_PLAN_FEATURE_DISABLED');
    expect((await inject('GET', '/api/contact-list-items?contactListId=1', noPlan)).statusCode).toBe(403);
  });

  it('adds, validates, searches, edits and deletes items; numbers are unique per list', async () => {
    const { admin } = await createTenant(t.app);
    const list = await newList(admin);
    const created = await inject('POST', '/api/contact-list-items', admin, {
      contactListId: list,
      name: 'Maria Silva',
      number: '+55 (11) 99999-0001',
      email: 'maria@exemplo.com.br',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      number: '5511999990001',
      isWhatsappValid: null,
      contactListId: list,
    });
    await inject('POST', '/api/contact-list-items', admin, {
      contactListId: list,
      name: 'João',
      number: '5521988880002',
    });
    const bad = [
      [{ name: 'M', number: '5511999990003' }, 'name', 'tooShort'],
      [{ name: 'Maria', number: '1234567' }, 'number', 'tooShort'],
      [{ name: 'Maria', number: 'abcdefghij' }, 'number', 'invalidPhone'],
      [{ name: 'Maria', number: '5511999990003', email: 'nope' }, 'email', 'invalidEmail'],
    ] as const;
    for (const [body, field, message] of bad) {
      const res = await inject('POST', '/api/contact-list-items', admin, { contactListId: list, ...body });
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field, message });
    }
    const dup = await inject('POST', '/api/contact-list-items', admin, {
      contactListId: list,
      name: 'Outra Maria',
      number: '5511999990001',
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ error: 'ERR_ALREADY_EXISTS', field: 'number' });

    expect((await items(admin, list)).contacts.map((c) => c.name)).toEqual(['João', 'Maria Silva']);
    expect((await items(admin, list, '&searchParam=exemplo')).contacts.map((c) => c.name)).toEqual([
      'Maria Silva',
    ]);
    expect((await items(admin, list, '&searchParam=2198')).contacts.map((c) => c.name)).toEqual(['João']);

    const id = created.json().id as number;
    const edited = await inject('PUT', `/api/contact-list-items/${id}`, admin, { name: 'Maria Souza' });
    expect(edited.json()).toMatchObject({
      name: 'Maria Souza',
      number: '5511999990001',
      email: 'maria@exemplo.com.br',
    });
    expect((await inject('DELETE', `/api/contact-list-items/${id}`, admin)).statusCode).toBe(204);
    expect((await items(admin, list)).contacts.map((c) => c.name)).toEqual(['João']);
    const otherTenant = await createTenant(t.app);
    expect(
      (await inject('GET', `/api/contact-list-items?contactListId=${list}`, otherTenant.admin)).statusCode,
    ).toBe(404);
  });

  it('imports an .xlsx as a job: per-row error bag, duplicates skipped, valid rows kept', async () => {
    const { admin, companyId } = await createTenant(t.app);
    const list = await newList(admin);
    await inject('POST', '/api/contact-list-items', admin, {
      contactListId: list,
      name: 'Já na lista',
      number: '5511900000001',
    });
    const data = await sheet(
      ['Nome', 'Numero', 'Email'],
      [
        ['Ana', 5511900000002, 'ana@exemplo.com'],
        ['Bia', '5511900000003', ''],
        ['Repetida', '5511900000002', ''],
        ['Existente', '5511900000001', ''],
        ['C', '5511900000004', ''],
        ['Duda', '123', ''],
        ['Eva', '5511900000005', 'sem-arroba'],
        [null, null, null],
        ['Fábio', '+55 11 90000-0006', null],
      ],
    );
    const events: unknown[] = [];
    t.app.ctx.realtime.subscribe((id, channel, payload) => {
      if (id === companyId && channel === 'ContactList') events.push(payload);
    });
    const res = await upload(admin, list, data);
    expect(res.statusCode).toBe(202);
    expect(ZContactListImport.parse(res.json())).toMatchObject({ status: 'pending', contactListId: list });
    await t.app.jobs.drain();
    const state = ZContactListImport.parse(
      (await inject('GET', `/api/contact-lists/${list}/import`, admin)).json(),
    );
    expect(state).toMatchObject({ status: 'done', total: 8, processed: 8, imported: 3, duplicates: 2 });
    expect(state.errors).toEqual([
      { row: 6, field: 'name', message: 'tooShort' },
      { row: 7, field: 'number', message: 'tooShort' },
      { row: 8, field: 'email', message: 'invalidEmail' },
    ]);
    const names = (await items(admin, list)).contacts.map((c) => `${c.name}:${c.number}`);
    expect(names).toEqual([
      'Ana:5511900000002',
      'Bia:5511900000003',
      'Fábio:5511900000006',
      'Já na lista:5511900000001',
    ]);
    expect(
      events.some((e) => (e as { action: string; import?: { status: string } }).import?.status === 'done'),
    ).toBe(true);
    expect((await inject('GET', `/api/contact-lists/${list}`, admin)).json().contactsCount).toBe(4);
  });

  it("answers null for a list without an import yet (no 404), and 404 for a list that is not the company's", async () => {
    const { admin } = await createTenant(t.app);
    const other = await createTenant(t.app);
    const list = await newList(admin);
    const none = await inject('GET', `/api/contact-lists/${list}/import`, admin);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toBeNull();
    expect((await inject('GET', `/api/contact-lists/${list}/import`, other.admin)).statusCode).toBe(404);
  });

  it('refuses .xls naming the format and other files; an empty sheet reports it', async () => {
    const { admin } = await createTenant(t.app);
    const list = await newList(admin);
    const ole2 = Buffer.concat([
      Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
      Buffer.alloc(512),
    ]);
    const xls = await upload(admin, list, ole2, 'lista.xls');
    expect(xls.statusCode).toBe(415);
    expect(xls.json()).toMatchObject({
      error: 'ERR_UNSUPPORTED_MEDIA_TYPE',
      message: 'xlsNotSupported',
      format: 'xls',
    });
    const text = await upload(admin, list, Buffer.from('nome;numero\nAna;5511900000002'), 'lista.csv');
    expect(text.json()).toMatchObject({ error: 'ERR_UNSUPPORTED_MEDIA_TYPE', message: 'notXlsx' });
    const brokenZip = await upload(admin, list, Buffer.from('PK\u0003\u0004 not really a workbook'));
    expect(brokenZip.statusCode).toBe(202);
    await t.app.jobs.drain();
    expect((await inject('GET', `/api/contact-lists/${list}/import`, admin)).json()).toMatchObject({
      status: 'failed',
      errors: [{ field: 'file', message: 'unreadable' }],
    });
    expect((await upload(admin, list, await sheet(['Nome', 'Numero'], []))).statusCode).toBe(202);
    await t.app.jobs.drain();
    expect((await inject('GET', `/api/contact-lists/${list}/import`, admin)).json()).toMatchObject({
      status: 'done',
      total: 0,
      errors: [{ field: 'file', message: 'empty' }],
    });
  });

  it('offers a sample sheet that imports as is (no header row needed either)', async () => {
    const { admin } = await createTenant(t.app);
    const list = await newList(admin);
    const sample = await inject('GET', '/api/contact-lists/sample', admin);
    expect(sample.statusCode).toBe(200);
    expect(sample.headers['content-type']).toContain('spreadsheetml');
    expect((await upload(admin, list, sample.rawPayload)).statusCode).toBe(202);
    await t.app.jobs.drain();
    expect((await items(admin, list)).contacts).toHaveLength(2);
    const headerless = await newList(admin, 'Sem cabeçalho');
    await upload(admin, headerless, await sheet(null, [['Ana', '5511900000002', '']]));
    await t.app.jobs.drain();
    expect((await items(admin, headerless)).contacts.map((c) => c.number)).toEqual(['5511900000002']);
  });

  it('imports 20,000 rows in chunks with progress while the server keeps answering', async () => {
    const { admin, companyId } = await createTenant(t.app);
    const list = await newList(admin);
    const rows = Array.from({ length: 20_000 }, (_, i) => [`Cliente ${i}`, String(5511900000000 + i), '']);
    const progress: number[] = [];
    t.app.ctx.realtime.subscribe((id, channel, payload) => {
      const p = payload as { action: string; import?: { processed: number } };
      if (id === companyId && channel === 'ContactList' && p.action === 'import')
        progress.push(p.import!.processed);
    });
    expect((await upload(admin, list, await sheet(['Nome', 'Numero'], rows))).statusCode).toBe(202);
    let finished = false;
    const draining = t.app.jobs.drain().then(() => {
      finished = true;
    });
    // A request made while the import runs is answered before the import ends.
    await new Promise((r) => setTimeout(r, 50));
    const during = await inject('GET', '/api/contact-lists', admin);
    expect(during.statusCode).toBe(200);
    expect(finished).toBe(false);
    await draining;
    expect((await inject('GET', `/api/contact-lists/${list}`, admin)).json().contactsCount).toBe(20_000);
    expect(progress.length).toBeGreaterThan(10);
    expect(progress.at(-1)).toBe(20_000);
  }, 120_000);

  it("checks numbers through the default connection's driver and lists valid recipients in pages", async () => {
    const { admin, companyId } = await createTenant(t.app);
    const list = await newList(admin);
    await upload(
      admin,
      list,
      await sheet(
        ['Nome', 'Numero'],
        Array.from({ length: 5 }, (_, i) => [`Cliente ${i}`, String(5511900000010 + i)]),
      ),
    );
    await t.app.jobs.drain();
    // No connection yet: the numbers stay unchecked.
    expect((await items(admin, list)).contacts.every((c) => c.isWhatsappValid === null)).toBe(true);
    expect(await t.app.contactLists.validRecipients(companyId, list)).toEqual([]);
    expect(
      await t.app.contactLists.validRecipients(companyId, list, { includeUnchecked: true }),
    ).toHaveLength(5);

    const whatsappId = await createSimulatorConnection(t.app, admin);
    await vi.waitFor(() => expect(t.app.sessions.ready(whatsappId)).toBeDefined());
    const driver = t.app.sessions.ready(whatsappId)!;
    const check = vi
      .spyOn(driver, 'checkNumber')
      .mockImplementation(async (n) => (n.endsWith('12') ? { exists: false } : { exists: true, number: n }));
    await t.app.contactLists.queueValidation(companyId, list);
    await t.app.jobs.drain();
    expect(check).toHaveBeenCalledTimes(5);
    const checked = (await items(admin, list)).contacts;
    expect(checked.filter((c) => c.isWhatsappValid === false).map((c) => c.number)).toEqual([
      '5511900000012',
    ]);
    expect(checked.filter((c) => c.isWhatsappValid === true)).toHaveLength(4);

    const page1 = await t.app.contactLists.validRecipients(companyId, list, { limit: 3 });
    const page2 = await t.app.contactLists.validRecipients(companyId, list, {
      limit: 3,
      afterId: page1.at(-1)!.id,
    });
    expect([...page1, ...page2].map((c) => c.number)).toEqual([
      '5511900000010',
      '5511900000011',
      '5511900000013',
      '5511900000014',
    ]);
    const other = await createTenant(t.app);
    await expect(t.app.contactLists.validRecipients(other.companyId, list)).rejects.toMatchObject({
      code: 'ERR_NOT_FOUND',
    });
    check.mockRestore();
  });
});
