/**
 * Bad input answers a clear 4xx and loses nothing. Each refusal sits beside a
 * positive control: the same route with good input succeeds.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { clientErrorFromDatabase } from '../lib/db-errors.js';
import { a, t, useConnectionSuite, whatsappId } from './connection-suite.js';
import { bearer, customerNumber, injectAs, injectMessage } from './factories.js';

let ticketId: number;
let contactId: number;
useConnectionSuite();
const inject = injectAs(() => t.app);
beforeAll(async () => {
  const inbound = await injectMessage(t.app, a.admin, whatsappId, { from: customerNumber(), body: 'oi' });
  ticketId = inbound.ticketId;
  const ticket = await inject('GET', `/api/tickets/${ticketId}`, a.admin);
  contactId = ticket.json().contactId;
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: bearer(a.admin),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

describe('ids beyond what an int4 column holds', () => {
  it('answers 2^31 in a path id as a record that does not exist', async () => {
    const bad = await call('GET', '/api/tickets/2147483648');
    expect(bad.statusCode).toBe(404);
    expect(bad.json()).toMatchObject({ error: 'ERR_NOT_FOUND' });
    expect((await call('GET', `/api/tickets/${ticketId}`)).statusCode).toBe(200);
  });

  it('refuses 2^31 in a body id', async () => {
    const bad = await call('POST', '/api/tickets', { contactId: 2_147_483_648 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'contactId' });
    const transfer = await call('PUT', `/api/whatsapp/${whatsappId}`, { transferQueueId: 2_147_483_648 });
    expect(transfer.statusCode).toBe(400);
    expect(transfer.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'transferQueueId' });
    const good = await call('PUT', `/api/whatsapp/${whatsappId}`, { transferQueueId: a.queueId });
    expect(good.statusCode).toBe(200);
  });

  it('refuses 2^31 in a query id list', async () => {
    const bad = await call('GET', `/api/tickets?queueIds=${encodeURIComponent('[2147483648]')}`);
    expect(bad.statusCode).toBe(400);
    const good = await call('GET', `/api/tickets?queueIds=${encodeURIComponent(`[${a.queueId}]`)}`);
    expect(good.statusCode).toBe(200);
  });
});

describe('NUL bytes', () => {
  it('refuses a NUL byte in a body text field, naming it', async () => {
    const bad = await call('POST', '/api/tags', { name: 'a\u0000b' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'name', in: 'body' });
    expect((await call('POST', '/api/tags', { name: 'Sem nulo' })).statusCode).toBe(201);
  });

  it('refuses a NUL byte in a search', async () => {
    const bad = await call('GET', '/api/contacts?searchParam=%00');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'searchParam', in: 'query' });
    expect((await call('GET', '/api/contacts?searchParam=ab')).statusCode).toBe(200);
  });

  it('refuses a NUL byte in a nested field', async () => {
    const bad = await call('PUT', `/api/contacts/${contactId}`, {
      extraInfo: [{ name: 'x', value: '\u0000' }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'extraInfo.0.value' });
  });
});

describe('multipart', () => {
  it('refuses multipart/form-data without a boundary on upload routes', async () => {
    for (const url of ['/api/contacts/upload', `/api/messages/${ticketId}`]) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { ...bearer(a.admin), 'content-type': 'multipart/form-data' },
        payload: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n',
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'content-type' });
    }
  });

  it('refuses a multipart body cut short', async () => {
    const boundary = 'zapdesk-cut';
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/messages/${ticketId}`,
      headers: { ...bearer(a.admin), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhalf a fi`,
    });
    expect(res.statusCode).toBe(400);
    const good = await t.app.inject({
      method: 'POST',
      url: `/api/messages/${ticketId}`,
      headers: { ...bearer(a.admin), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="body"\r\n\r\nolá\r\n--${boundary}--\r\n`,
    });
    expect(good.statusCode).toBe(201);
  });
});

describe('database refusals become catalogue codes', () => {
  it('answers a reference to a record that does not exist as a validation error', async () => {
    const bad = await call('PUT', `/api/users/${a.agent.id}`, { whatsappId: 2_000_000_000 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'whatsappId' });
    const good = await call('PUT', `/api/users/${a.agent.id}`, { whatsappId });
    expect(good.statusCode).toBe(200);
  });

  it('answers a contact moved onto another contact number as ERR_DUPLICATED_CONTACT', async () => {
    const other = await call('POST', '/api/contacts', { name: 'Outro', number: customerNumber() });
    expect(other.statusCode).toBe(200);
    const current = await call('GET', `/api/contacts/${contactId}`);
    const bad = await call('PUT', `/api/contacts/${other.json().id}`, { number: current.json().number });
    expect(bad.statusCode).toBe(409);
    expect(bad.json()).toMatchObject({ error: 'ERR_DUPLICATED_CONTACT', field: 'number' });
    const good = await call('PUT', `/api/contacts/${other.json().id}`, { number: customerNumber() });
    expect(good.statusCode).toBe(200);
  });

  it('maps SQLSTATEs to codes in one place', () => {
    const wrapped = (cause: object) => Object.assign(new Error('query failed'), { cause });
    expect(
      clientErrorFromDatabase(
        wrapped({ code: '23505', detail: 'Key (company_id, name)=(1, x) already exists.' }),
      ),
    ).toMatchObject({ code: 'ERR_ALREADY_EXISTS', status: 409, extra: { field: 'name' } });
    expect(
      clientErrorFromDatabase(
        wrapped({ code: '23503', detail: 'Key (queue_id)=(9) is not present in table' }),
      ),
    ).toMatchObject({ code: 'ERR_VALIDATION', status: 400, extra: { field: 'queueId' } });
    expect(clientErrorFromDatabase(wrapped({ code: '22003' }))).toMatchObject({ status: 400 });
    expect(clientErrorFromDatabase(wrapped({ code: '22021' }))).toMatchObject({ status: 400 });
    expect(clientErrorFromDatabase(wrapped({ code: '57014' }))).toMatchObject({ status: 503 });
    expect(clientErrorFromDatabase(wrapped({ code: '08006' }))).toBeUndefined();
    expect(clientErrorFromDatabase(new Error('not a database error'))).toBeUndefined();
  });
});
