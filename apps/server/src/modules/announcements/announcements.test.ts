/**
 * Announcements and helps (document 2 sections 2, 3, 5 and 7): super-only
 * writes, active-only reads for others, image validation and safe serving, platform-wide realtime.
 */
import {
  ANNOUNCEMENT_MEDIA_MAX_BYTES,
  companyChannel,
  ZAnnouncementsPage,
  ZHelpsPage,
} from '@zapdesk/shared';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, injectAs, type TestUser } from '../../test/factories.js';
import { fileUpload, PNG } from '../../test/multipart.js';
import { collectUntilMarker, listenLocally, openSocket, socketReady } from '../../test/sockets.js';
import { a, b, t, useTenantPairSuite } from '../../test/tenant-pair-suite.js';

let superUser: TestUser;
useTenantPairSuite();
beforeAll(async () => {
  superUser = await createUser(t.app, a.companyId, { profile: 'admin', super: true });
});

const inject = injectAs(() => t.app);

const upload = (id: number, user: TestUser, data: Buffer, fileName: string, mimetype: string) => {
  const body = fileUpload(data, fileName, mimetype);
  return t.app.inject({
    method: 'POST',
    url: `/api/announcements/${id}/media-upload`,
    headers: { ...bearer(user), ...body.headers },
    payload: body.payload,
  });
};

describe('announcements', () => {
  it('only the super user writes (403 for admins and agents)', async () => {
    for (const user of [a.admin, a.agent]) {
      const res = await inject('POST', '/api/announcements', user, { title: 'x', text: 'y' });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('ERR_NO_PERMISSION');
    }
    const ok = await inject('POST', '/api/announcements', superUser, { title: 'Manutenção', text: 'Hoje' });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({ title: 'Manutenção', text: 'Hoje', priority: 3, status: true });
    expect(
      (await inject('PUT', `/api/announcements/${ok.json().id}`, a.admin, { title: 'z' })).statusCode,
    ).toBe(403);
    expect((await inject('DELETE', `/api/announcements/${ok.json().id}`, a.admin)).statusCode).toBe(403);
    expect((await inject('DELETE', `/api/announcements/${ok.json().id}`, superUser)).statusCode).toBe(204);
  });

  it('requires title and text, and a priority of 1 to 3', async () => {
    const empty = await inject('POST', '/api/announcements', superUser, { title: ' ', text: 'x' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'title' });
    expect((await inject('POST', '/api/announcements', superUser, { title: 'x' })).statusCode).toBe(400);
    const bad = await inject('POST', '/api/announcements', superUser, { title: 'x', text: 'y', priority: 4 });
    expect(bad.statusCode).toBe(400);
  });

  it('shows others only the active ones, highest priority then newest first; the super user all', async () => {
    const tag = `lista-${Date.now()}`;
    const make = async (title: string, priority: number, status = true) =>
      (await inject('POST', '/api/announcements', superUser, { title, text: tag, priority, status })).json();
    const low = await make('baixa', 3);
    const high = await make('alta', 1);
    const inactive = await make('inativa', 1, false);
    const highNewer = await make('alta nova', 1);
    const seen = ZAnnouncementsPage.parse(
      (await inject('GET', `/api/announcements?searchParam=${tag}`, b.agent)).json(),
    );
    expect(seen.records.map((r) => r.id)).toEqual([highNewer.id, high.id, low.id]);
    expect((await inject('GET', `/api/announcements/${inactive.id}`, b.agent)).statusCode).toBe(404);
    const all = ZAnnouncementsPage.parse(
      (await inject('GET', `/api/announcements?searchParam=${tag}`, superUser)).json(),
    );
    expect(all.records.map((r) => r.id)).toEqual([highNewer.id, inactive.id, high.id, low.id]);
  });

  it('accepts a png or jpeg image, refuses other files and oversized ones, and serves it to readers', async () => {
    const { id } = (
      await inject('POST', '/api/announcements', superUser, { title: 'Foto', text: 'x' })
    ).json();
    const denied = await upload(id, a.admin, PNG, 'a.png', 'image/png');
    expect(denied.statusCode).toBe(403);
    const text = await upload(id, superUser, Buffer.from('not an image'), 'fake.png', 'image/png');
    expect(text.statusCode).toBe(415);
    expect(text.json()).toMatchObject({ error: 'ERR_UNSUPPORTED_MEDIA_TYPE', field: 'file' });
    const gif = Buffer.from('R0lGODlhAQABAAAAACw=', 'base64');
    expect((await upload(id, superUser, gif, 'a.gif', 'image/gif')).statusCode).toBe(415);
    const big = Buffer.concat([PNG, Buffer.alloc(ANNOUNCEMENT_MEDIA_MAX_BYTES)]);
    const tooBig = await upload(id, superUser, big, 'big.png', 'image/png');
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().error).toBe('ERR_PAYLOAD_TOO_LARGE');
    const ok = await upload(id, superUser, PNG, 'foto.png', 'image/png');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ mediaName: 'foto.png', mediaPath: expect.stringMatching(/\.png$/) });
    const served = await inject('GET', `/api/announcements/${id}/media`, b.agent);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(PNG)).toBe(true);
    const removed = await inject('DELETE', `/api/announcements/${id}/media-upload`, superUser);
    expect(removed.json()).toMatchObject({ mediaPath: null, mediaName: null });
    expect((await inject('GET', `/api/announcements/${id}/media`, b.agent)).statusCode).toBe(404);
  });
});

describe('announcements live', () => {
  let otherCompany: Socket;
  beforeAll(async () => {
    const url = await listenLocally(t.app);
    otherCompany = openSocket(url, b.agent.token);
    await socketReady(otherCompany);
  });
  afterAll(() => otherCompany.close());

  it("reaches another company's users: active ones as records, inactive and deleted ones as delete", async () => {
    let id = 0;
    const [got] = await collectUntilMarker<{ action: string; record?: { id: number }; id?: number }>(
      t.app,
      [otherCompany],
      companyChannel(b.companyId, 'announcement'),
      async () => {
        id = (await inject('POST', '/api/announcements', superUser, { title: 'Ao vivo', text: 'x' })).json()
          .id;
        await inject('PUT', `/api/announcements/${id}`, superUser, { status: false });
        await inject('DELETE', `/api/announcements/${id}`, superUser);
      },
    );
    expect(got).toEqual([
      { action: 'create', record: expect.objectContaining({ id, title: 'Ao vivo' }) },
      { action: 'delete', id },
      { action: 'delete', id },
    ]);
  });
});

describe('helps', () => {
  it('every user reads; only the super user writes; the video id is checked', async () => {
    const denied = await inject('POST', '/api/helps', a.admin, { title: 'x', video: 'abc' });
    expect(denied.statusCode).toBe(403);
    const bad = await inject('POST', '/api/helps', superUser, { title: 'x', video: 'a"><script>' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'video' });
    const created = await inject('POST', '/api/helps', superUser, {
      title: 'Primeiros passos',
      description: 'Conectar',
      video: 'dQw4w9WgXcQ',
    });
    expect(created.statusCode).toBe(201);
    const help = created.json();
    expect((await inject('GET', '/api/helps/list', b.agent)).json()).toContainEqual(help);
    const page = ZHelpsPage.parse((await inject('GET', '/api/helps?searchParam=passos', b.agent)).json());
    expect(page.records).toEqual([help]);
    expect((await inject('PUT', `/api/helps/${help.id}`, a.agent, { title: 'y' })).statusCode).toBe(403);
    const edited = await inject('PUT', `/api/helps/${help.id}`, superUser, { title: 'Passo a passo' });
    expect(edited.json()).toEqual({ ...help, title: 'Passo a passo' });
    expect((await inject('DELETE', `/api/helps/${help.id}`, superUser)).statusCode).toBe(204);
    expect((await inject('DELETE', `/api/helps/${help.id}`, superUser)).statusCode).toBe(404);
  });
});

describe('content security policy', () => {
  it('allows framing only the youtube-nocookie player and its thumbnail host', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    const directives = Object.fromEntries(
      String(res.headers['content-security-policy'])
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values]),
    );
    expect(directives['frame-src']).toEqual(['https://www.youtube-nocookie.com']);
    expect(directives['img-src']).toEqual(["'self'", 'data:', 'blob:', 'https://i.ytimg.com']);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
  });
});
