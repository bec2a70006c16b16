import { ZContact, ZContactImportResult, ZContactsPage } from '@zapdesk/shared';
import { and, count, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { contactCustomFields, contacts, messages, tickets } from '../../db/schema/index.js';
import { inject, t, useAppSuite } from '../../test/app-suite.js';
import {
  bearer,
  createSimulatorConnection,
  createTenant,
  customerNumber,
  injectMessage,
  type TenantFixture,
  type TestUser,
} from '../../test/factories.js';
import { fileUpload } from '../../test/multipart.js';

useAppSuite();
let a: TenantFixture;
beforeAll(async () => {
  a = await createTenant(t.app);
});

const post = (user: TestUser, payload: object) => inject('POST', '/api/contacts', user, payload);
const put = (user: TestUser, id: number, payload: object) =>
  inject('PUT', `/api/contacts/${id}`, user, payload);
const list = async (user: TestUser, query = '') =>
  ZContactsPage.parse((await inject('GET', `/api/contacts?${query}`, user)).json());

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function sheet(header: string[], rows: (string | number | null)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const ws = workbook.addWorksheet('Contatos');
  ws.addRow(header);
  for (const row of rows) ws.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
const upload = (user: TestUser, data: Buffer, fileName = 'contatos.xlsx', mimetype = XLSX) => {
  const body = fileUpload(data, fileName, mimetype);
  return t.app.inject({
    method: 'POST',
    url: '/api/contacts/upload',
    headers: { ...bearer(user), ...body.headers },
    payload: body.payload,
  });
};

describe('contacts CRUD', () => {
  it('creates a contact with extra info, reads and lists it with its rows', async () => {
    const res = await post(a.agent, {
      name: 'Maria Silva',
      number: '+55 (21) 98765-4321',
      email: 'maria@example.com',
      extraInfo: [
        { name: 'CPF', value: '123' },
        { name: 'Cidade', value: 'Rio' },
      ],
    });
    expect(res.statusCode).toBe(200);
    const contact = ZContact.parse(res.json());
    expect(contact.number).toBe('5521987654321');
    expect(contact.extraInfo?.map((e) => [e.name, e.value])).toEqual([
      ['CPF', '123'],
      ['Cidade', 'Rio'],
    ]);
    const got = await inject('GET', `/api/contacts/${contact.id}`, a.agent);
    expect(got.json().extraInfo).toHaveLength(2);
    const page = await list(a.agent, 'searchParam=maria');
    expect(page.contacts.map((c) => c.id)).toEqual([contact.id]);
    expect(page.contacts[0]!.extraInfo).toHaveLength(2);
    expect((await list(a.agent, 'searchParam=98765')).contacts.map((c) => c.id)).toEqual([contact.id]);
    expect((await list(a.agent, 'searchParam=MARIA@EXAMPLE')).contacts.map((c) => c.id)).toEqual([
      contact.id,
    ]);
  });

  it('replaces extra info rows on update and keeps them when omitted', async () => {
    const created = ZContact.parse(
      (
        await post(a.agent, {
          name: 'Joao',
          number: customerNumber(),
          extraInfo: [{ name: 'a', value: '1' }],
        })
      ).json(),
    );
    const updated = await put(a.agent, created.id, {
      name: 'João',
      number: created.number,
      extraInfo: [{ name: 'b', value: '2' }],
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().extraInfo.map((e: { name: string }) => e.name)).toEqual(['b']);
    const kept = await put(a.agent, created.id, { name: 'João 2', number: created.number });
    expect(kept.json().extraInfo.map((e: { name: string }) => e.name)).toEqual(['b']);
    const [rows] = await t.app.ctx.db
      .select({ n: count() })
      .from(contactCustomFields)
      .where(eq(contactCustomFields.contactId, created.id));
    expect(rows!.n).toBe(1);
  });

  it('validates name, number and e-mail with the field named', async () => {
    const cases: [object, string, string][] = [
      [{ name: 'A', number: '11999998888' }, 'name', 'tooShort'],
      [{ name: 'x'.repeat(51), number: '11999998888' }, 'name', 'tooLong'],
      [{ name: 'Ana', number: '1234-567' }, 'number', 'tooShort'],
      [{ name: 'Ana', number: '11999998888', email: 'nope' }, 'email', 'invalidEmail'],
    ];
    for (const [payload, field, message] of cases) {
      const res = await post(a.agent, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field, message });
    }
  });

  it('refuses a duplicate number, with or without the ninth digit', async () => {
    expect((await post(a.agent, { name: 'Nove', number: '5531988887777' })).statusCode).toBe(200);
    for (const number of ['5531988887777', '553188887777', '+55 31 8888-7777']) {
      const res = await post(a.agent, { name: 'Outro', number });
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toBe('ERR_DUPLICATED_CONTACT');
    }
    const other = ZContact.parse((await post(a.agent, { name: 'Outro', number: '5531977776666' })).json());
    const clash = await put(a.agent, other.id, { name: 'Outro', number: '553188887777' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().error).toBe('ERR_DUPLICATED_CONTACT');
  });

  it('lists id, name and number for pickers, ignoring companyId', async () => {
    const other = await createTenant(t.app);
    await post(other.admin, { name: 'De outra', number: customerNumber() });
    const res = await inject('GET', `/api/contacts/list?companyId=${other.companyId}`, a.agent);
    expect(res.statusCode).toBe(200);
    const rows = res.json() as { id: number; name: string; number: string }[];
    expect(rows.length).toBeGreaterThan(0);
    expect(Object.keys(rows[0]!).sort()).toEqual(['id', 'name', 'number']);
    expect(rows.some((r) => r.name === 'De outra')).toBe(false);
  });

  it('pages by 20 with count and hasMore', async () => {
    const before = await list(a.agent);
    const page2 = await list(a.agent, 'pageNumber=2');
    expect(before.count).toBeGreaterThan(0);
    expect(before.hasMore).toBe(before.count > 20);
    expect(page2.contacts.length).toBe(Math.max(0, Math.min(20, before.count - 20)));
  });

  it('filters by creation day (date) and by a range (dateStart, dateEnd) in local days', async () => {
    const fresh = await createTenant(t.app);
    let made = 0;
    // Local (America/Sao_Paulo, UTC-3) days: 23:30 local on the 9th is 02:30 UTC on the 10th.
    for (const [name, at] of [
      ['Antes', '2026-03-09T02:30:00Z'],
      ['Dia nove tarde', '2026-03-10T02:30:00Z'],
      ['Dia dez', '2026-03-10T15:00:00Z'],
      ['Dia doze', '2026-03-12T12:00:00Z'],
    ] as const) {
      const res = await post(fresh.admin, {
        name,
        number: `55219${String(made++).padStart(8, '7')}`,
      });
      expect(res.statusCode).toBe(200);
      const id: number = res.json().id;
      await t.app.ctx.db
        .update(contacts)
        .set({ createdAt: new Date(at) })
        .where(eq(contacts.id, id));
    }
    const names = async (query: string) =>
      (await list(fresh.admin, query)).contacts.map((c) => c.name).sort();
    expect(await names('date=2026-03-09')).toEqual(['Dia nove tarde']);
    expect(await names('date=2026-03-10')).toEqual(['Dia dez']);
    expect(await names('dateStart=2026-03-09&dateEnd=2026-03-10')).toEqual(['Dia dez', 'Dia nove tarde']);
    expect(await names('dateStart=2026-03-11')).toEqual(['Dia doze']);
    expect(await names('dateEnd=2026-03-08')).toEqual(['Antes']);
    expect((await list(fresh.admin, 'dateStart=2026-03-01&dateEnd=2026-03-31')).count).toBe(4);
    const bad = await inject('GET', '/api/contacts?dateStart=2026-03-10&dateEnd=2026-03-09', fresh.admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'dateEnd' });
    const notADate = await inject('GET', '/api/contacts?date=2026-02-30', fresh.admin);
    expect(notADate.statusCode).toBe(400);
    expect(notADate.json()).toMatchObject({ field: 'date' });
  });

  it("answers the contact's connection as whatsapp{name} in the page and by id (core section 3)", async () => {
    const fresh = await createTenant(t.app);
    const whatsappId = await createSimulatorConnection(t.app, fresh.admin, 'Linha Vendas');
    const from = customerNumber();
    const inbound = await injectMessage(t.app, fresh.admin, whatsappId, {
      from,
      body: 'oi',
      name: 'Aaa Cliente',
    });
    const [ticket] = await t.app.ctx.db
      .select({ contactId: tickets.contactId })
      .from(tickets)
      .where(eq(tickets.id, inbound.ticketId));
    const manual = ZContact.parse(
      (await post(fresh.admin, { name: 'Zzz Manual', number: customerNumber() })).json(),
    );
    expect(manual.whatsapp).toBeNull();

    const page = await list(fresh.admin);
    const byId = new Map(page.contacts.map((c) => [c.id, c]));
    expect(byId.get(ticket!.contactId)?.whatsapp).toEqual({ id: whatsappId, name: 'Linha Vendas' });
    expect(byId.get(manual.id)?.whatsapp).toBeNull();
    const one = await inject('GET', `/api/contacts/${ticket!.contactId}`, fresh.agent);
    expect(ZContact.parse(one.json()).whatsapp).toEqual({ id: whatsappId, name: 'Linha Vendas' });
  });

  it('lets only admins delete; deleting removes the tickets and messages', async () => {
    const whatsappId = await createSimulatorConnection(t.app, a.admin);
    const from = customerNumber();
    const inbound = await injectMessage(t.app, a.admin, whatsappId, { from, body: 'oi' });
    const [ticket] = await t.app.ctx.db
      .select({ contactId: tickets.contactId })
      .from(tickets)
      .where(eq(tickets.id, inbound.ticketId));
    const url = `/api/contacts/${ticket!.contactId}`;
    const refused = await inject('DELETE', url, a.agent);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('ERR_NO_PERMISSION');
    const done = await inject('DELETE', url, a.admin);
    expect(done.statusCode).toBe(204);
    expect((await inject('GET', url, a.admin)).statusCode).toBe(404);
    expect(await t.app.ctx.db.select().from(tickets).where(eq(tickets.id, inbound.ticketId))).toEqual([]);
    expect(await t.app.ctx.db.select().from(messages).where(eq(messages.id, inbound.id))).toEqual([]);
    const again = await inject('DELETE', url, a.admin);
    expect(again.statusCode).toBe(404);
  });
});

describe('contacts CSV export', () => {
  it('streams every contact as name;number;email by name, formulas neutralised, in batches', async () => {
    const fresh = await createTenant(t.app);
    const values = Array.from({ length: 2503 }, (_, i) => ({
      companyId: fresh.companyId,
      name: `Cliente ${String(i).padStart(4, '0')}`,
      number: `5511${String(900000000 + i)}`,
      email: i === 7 ? 'sete@example.com' : '',
    }));
    values.push({
      companyId: fresh.companyId,
      name: '=HYPERLINK("http://x")',
      number: '5511800000000',
      email: '',
    });
    await t.app.ctx.db.insert(contacts).values(values);
    const res = await inject('GET', '/api/contacts/export', fresh.agent);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toContain('contatos.csv');
    const lines = res.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('name;number;email');
    expect(lines).toHaveLength(1 + 2504);
    const sorted = values.map((v) => v.name).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    expect(
      new Set(
        lines.slice(1).map((l) =>
          l
            .split(';')[0]!
            .replace(/^"'?|"$/g, '')
            .replace(/""/g, '"'),
        ),
      ),
    ).toEqual(new Set(sorted));
    expect(lines).toContain('Cliente 0007;5511900000007;sete@example.com');
    expect(lines.find((l) => l.includes('HYPERLINK'))).toMatch(/^"'=HYPERLINK/);
  });
});

describe('contacts import', () => {
  it('imports good rows and answers one error per bad row', async () => {
    const existing = ZContact.parse(
      (await post(a.agent, { name: 'Já existe', number: '5541988880000' })).json(),
    );
    const data = await sheet(
      ['Nome', 'Número', 'E-mail'],
      [
        ['Ana Import', '5541977770001', 'ana@example.com'],
        ['Bia Import', 5541977770002, ''],
        ['', '5541977770003', ''],
        ['Sem numero', '12', ''],
        ['Email ruim', '5541977770004', 'bad'],
        ['Repetida', '554188880000', ''],
        ['Ana de novo', '554177770001', ''],
      ],
    );
    const res = await upload(a.agent, data);
    expect(res.statusCode).toBe(200);
    const result = ZContactImportResult.parse(res.json());
    expect(result.newContacts.map((c) => c.contactName)).toEqual(['Ana Import', 'Bia Import']);
    expect(result.errorBag).toEqual([
      { contactName: '5541977770003', error: 'ERR_MISSING_NAME' },
      { contactName: 'Sem numero', error: 'ERR_INVALID_NUMBER' },
      { contactName: 'Email ruim', error: 'ERR_INVALID_EMAIL' },
      { contactName: 'Repetida', error: 'ERR_DUPLICATED_CONTACT' },
      { contactName: 'Ana de novo', error: 'ERR_DUPLICATED_CONTACT' },
    ]);
    const bia = await inject('GET', `/api/contacts/${result.newContacts[1]!.contactId}`, a.agent);
    expect(bia.json()).toMatchObject({ name: 'Bia Import', number: '5541977770002', email: '' });
    expect(existing.id).toBeGreaterThan(0);
  });

  it('reads lower-case English headers in any order', async () => {
    const res = await upload(
      a.agent,
      await sheet(['email', 'NUMBER', 'name'], [['', '5542977770009', 'Eng']]),
    );
    expect(res.json().newContacts.map((c: { contactName: string }) => c.contactName)).toEqual(['Eng']);
  });

  it('refuses other file types with ERR_UNSUPPORTED_MEDIA_TYPE', async () => {
    const csv = await upload(a.agent, Buffer.from('name;number\nA;123'), 'contatos.csv', 'text/csv');
    expect(csv.statusCode).toBe(415);
    expect(csv.json().error).toBe('ERR_UNSUPPORTED_MEDIA_TYPE');
    const fake = await upload(a.agent, Buffer.from('not a zip'), 'contatos.xlsx');
    expect(fake.statusCode).toBe(415);
    const json = await inject('POST', '/api/contacts/upload', a.agent, {});
    expect(json.statusCode).toBe(415);
  });

  it('imports 10,000 rows in batches', async () => {
    const tenant = await createTenant(t.app);
    const rows = Array.from({ length: 10_000 }, (_, i) => [
      `Contato ${i}`,
      `55119${String(i).padStart(8, '0')}`,
      i % 2 ? `c${i}@example.com` : '',
    ]);
    rows.push(['Duplicado', '5511900000007', '']);
    const res = await upload(tenant.agent, await sheet(['name', 'number', 'email'], rows));
    expect(res.statusCode).toBe(200);
    const result = ZContactImportResult.parse(res.json());
    expect(result.newContacts).toHaveLength(10_000);
    expect(result.errorBag).toEqual([{ contactName: 'Duplicado', error: 'ERR_DUPLICATED_CONTACT' }]);
    const [stored] = await t.app.ctx.db
      .select({ n: count() })
      .from(contacts)
      .where(and(eq(contacts.companyId, tenant.companyId)));
    expect(stored!.n).toBe(10_000);
    expect((await list(tenant.agent)).count).toBe(10_000);
  }, 60_000);
});
