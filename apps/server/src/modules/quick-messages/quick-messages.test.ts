import { ZQuickMessagesPage } from '@zapdesk/shared';
import { describe, expect, it } from 'vitest';
import { inject, t, useAppSuite } from '../../test/app-suite.js';
import { bearer, createTenant, createUser } from '../../test/factories.js';
import { multipartBody, PNG } from '../../test/multipart.js';

useAppSuite();

/** A multipart body with one file part and the spec's typeArch field. */
const multipart = (data: Buffer, fileName: string, mimetype: string) =>
  multipartBody([
    { name: 'typeArch', value: 'quickMessage' },
    { name: 'file', value: data, filename: fileName, type: mimetype },
  ]);

describe('quick messages', () => {
  it('creates, lists company-wide and own ones, searches and pages', async () => {
    const { admin, agent, companyId } = await createTenant(t.app);
    const colleague = await createUser(t.app, companyId);
    await inject('POST', '/api/quick-messages', admin, { shortcode: 'ola', message: 'Olá!', geral: true });
    await inject('POST', '/api/quick-messages', agent, { shortcode: 'meu', message: 'Só meu' });
    await inject('POST', '/api/quick-messages', colleague, { shortcode: 'dele', message: 'Do colega' });
    const mine = ZQuickMessagesPage.parse((await inject('GET', '/api/quick-messages', agent)).json());
    expect(mine.records.map((r) => r.shortcode)).toEqual(['meu', 'ola']);
    expect(mine.hasMore).toBe(false);
    const all = ZQuickMessagesPage.parse((await inject('GET', '/api/quick-messages', admin)).json());
    expect(all.records.map((r) => r.shortcode)).toEqual(['dele', 'meu', 'ola']);
    const search = ZQuickMessagesPage.parse(
      (await inject('GET', '/api/quick-messages?searchParam=s%C3%B3', agent)).json(),
    );
    expect(search.records.map((r) => r.shortcode)).toEqual(['meu']);
    for (let i = 0; i < 21; i++) await inject('POST', '/api/quick-messages', agent, { shortcode: `z${i}` });
    const page = ZQuickMessagesPage.parse(
      (await inject('GET', '/api/quick-messages?pageNumber=1', agent)).json(),
    );
    expect(page.records).toHaveLength(20);
    expect(page.hasMore).toBe(true);
  });

  it('requires a shortcode unique per user', async () => {
    const { admin, agent } = await createTenant(t.app);
    const empty = await inject('POST', '/api/quick-messages', agent, { shortcode: ' ', message: 'x' });
    expect(empty.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'shortcode', message: 'required' });
    expect((await inject('POST', '/api/quick-messages', agent, { shortcode: 'oi' })).statusCode).toBe(201);
    const dup = await inject('POST', '/api/quick-messages', agent, { shortcode: 'oi' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ error: 'ERR_NAME_ALREADY_EXISTS', field: 'shortcode' });
    expect((await inject('POST', '/api/quick-messages', admin, { shortcode: 'oi' })).statusCode).toBe(201);
  });

  it('lets a user change only its own; admins change any', async () => {
    const { admin, agent, companyId } = await createTenant(t.app);
    const colleague = await createUser(t.app, companyId);
    const shared = (
      await inject('POST', '/api/quick-messages', colleague, { shortcode: 'geral', geral: true })
    ).json();
    const hidden = (await inject('POST', '/api/quick-messages', colleague, { shortcode: 'privado' })).json();
    expect((await inject('GET', `/api/quick-messages/${shared.id}`, agent)).statusCode).toBe(200);
    expect((await inject('GET', `/api/quick-messages/${hidden.id}`, agent)).statusCode).toBe(404);
    const edit = await inject('PUT', `/api/quick-messages/${shared.id}`, agent, { shortcode: 'x' });
    expect(edit.statusCode).toBe(403);
    expect(edit.json().error).toBe('ERR_NO_PERMISSION');
    expect((await inject('DELETE', `/api/quick-messages/${shared.id}`, agent)).statusCode).toBe(403);
    const own = await inject('PUT', `/api/quick-messages/${shared.id}`, colleague, {
      shortcode: 'g2',
      message: 'm',
      geral: true,
    });
    expect(own.json()).toMatchObject({ shortcode: 'g2', message: 'm', geral: true, userId: colleague.id });
    const byAdmin = await inject('PUT', `/api/quick-messages/${hidden.id}`, admin, { shortcode: 'p2' });
    expect(byAdmin.json()).toMatchObject({ shortcode: 'p2', userId: colleague.id });
    expect((await inject('DELETE', `/api/quick-messages/${hidden.id}`, admin)).statusCode).toBe(204);
  });

  it('uploads, serves and removes media, refusing unknown types', async () => {
    const { agent } = await createTenant(t.app);
    const quick = (await inject('POST', '/api/quick-messages', agent, { shortcode: 'foto' })).json();
    expect(quick.isMedia).toBe(false);
    const upload = await t.app.inject({
      method: 'POST',
      url: `/api/quick-messages/${quick.id}/media-upload`,
      ...(() => {
        const m = multipart(PNG, 'pixel.png', 'image/png');
        return { payload: m.payload, headers: { ...m.headers, ...bearer(agent) } };
      })(),
    });
    expect(upload.statusCode).toBe(200);
    expect(upload.json()).toMatchObject({ mediaName: 'pixel.png', isMedia: true });
    const listed = (await inject('GET', '/api/quick-messages?searchParam=foto', agent)).json();
    expect(listed.records).toMatchObject([{ id: quick.id, isMedia: true, mediaName: 'pixel.png' }]);
    const name = upload.json().mediaPath as string;
    expect(name).toMatch(/^[0-9a-f]{32}\.png$/);
    expect((await inject('GET', `/api/public/${name}`, agent)).statusCode).toBe(200);
    const part = await t.app.inject({
      method: 'GET',
      url: `/api/public/${name}`,
      headers: { ...bearer(agent), range: 'bytes=0-7' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-7/${PNG.length}`);
    expect(part.rawPayload.equals(PNG.subarray(0, 8))).toBe(true);

    const bad = multipart(Buffer.from([0, 1, 2, 3, 4, 5]), 'x.bin', 'application/octet-stream');
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/quick-messages/${quick.id}/media-upload`,
      payload: bad.payload,
      headers: { ...bad.headers, ...bearer(agent) },
    });
    expect(refused.statusCode).toBe(415);

    const removed = await inject('DELETE', `/api/quick-messages/${quick.id}/media-upload`, agent);
    expect(removed.json()).toMatchObject({ mediaPath: null, mediaName: null, isMedia: false });
    expect((await inject('GET', `/api/public/${name}`, agent)).statusCode).toBe(404);
  });
});
