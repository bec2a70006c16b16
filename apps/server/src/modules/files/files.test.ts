/**
 * File lists (document 2 sections 6 and 8): CRUD with the `{ files, hasMore }`
 * page, multipart uploads checked for type and size, files served only to the company's users,
 * realtime `company-{id}-file`, and getFileListFiles for campaigns.
 */
import path from 'node:path';
import { companyChannel, ZFileList, ZFileListsPage } from '@zapdesk/shared';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaStore } from '../../channels/media-store.js';
import { LocalStorage } from '../../lib/storage/local-storage.js';
import { bearer, injectAs, type TestUser } from '../../test/factories.js';
import { multipartBody, PNG } from '../../test/multipart.js';
import { collectUntilMarker, listenLocally, openSocket, socketReady } from '../../test/sockets.js';
import { a, b, t, useTenantPairSuite } from '../../test/tenant-pair-suite.js';
import { getFileListFiles } from './files-service.js';

useTenantPairSuite();
/** The app's media store (same folder as buildApp's). */
const media = () => new MediaStore(new LocalStorage(path.join(t.config.dataDir, 'media')));

const inject = injectAs(() => t.app);

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

interface Part {
  data: Buffer;
  fileName: string;
  mimetype: string;
  id?: number;
  name?: string;
}

/** The spec's client form: fileId, typeArch, then per file: files, mediaType, name, id. */
function multipart(fileId: number, parts: Part[]) {
  const field = (name: string, value: string) => ({ name, value });
  return multipartBody([
    field('fileId', String(fileId)),
    field('typeArch', 'fileList'),
    ...parts.flatMap((p) => [
      { name: 'files', value: p.data, filename: p.fileName, type: p.mimetype },
      field('mediaType', p.mimetype),
      field('name', p.name ?? ''),
      field('id', p.id === undefined ? '' : String(p.id)),
    ]),
  ]);
}

const upload = (user: TestUser, id: number, parts: Part[]) => {
  const body = multipart(id, parts);
  return t.app.inject({
    method: 'POST',
    url: `/api/files/uploadList/${id}`,
    headers: { ...bearer(user), ...body.headers },
    payload: body.payload,
  });
};

async function createList(user: TestUser, name: string, options: { name: string }[] = []) {
  const res = await inject('POST', '/api/files', user, { name, message: 'Segue a tabela', options });
  expect(res.statusCode).toBe(201);
  return ZFileList.parse(res.json());
}

describe('file lists', () => {
  it('creates, reads, searches and pages with the spec shape', async () => {
    const list = await createList(a.agent, 'Tabela de preços', [{ name: 'Preços' }]);
    expect(list).toMatchObject({ name: 'Tabela de preços', message: 'Segue a tabela', userId: a.agent.id });
    expect(list.options).toEqual([{ id: expect.any(Number), name: 'Preços', path: null, mediaType: null }]);
    expect(ZFileList.parse((await inject('GET', `/api/files/${list.id}`, a.admin)).json()).name).toBe(
      'Tabela de preços',
    );
    for (let i = 0; i < 21; i++) await createList(a.admin, `Lista ${String(i).padStart(2, '0')}`);
    const first = ZFileListsPage.parse((await inject('GET', '/api/files', a.agent)).json());
    expect(first.files).toHaveLength(20);
    expect(first.hasMore).toBe(true);
    const second = ZFileListsPage.parse((await inject('GET', '/api/files?pageNumber=2', a.agent)).json());
    expect(second.hasMore).toBe(false);
    expect(first.files.length + second.files.length).toBe(22);
    const search = ZFileListsPage.parse(
      (await inject('GET', '/api/files?searchParam=pre%C3%A7', a.agent)).json(),
    );
    expect(search.files.map((f) => f.name)).toEqual(['Tabela de preços']);
    // Company B sees none of A's lists.
    expect(ZFileListsPage.parse((await inject('GET', '/api/files', b.admin)).json()).files).toEqual([]);
  });

  it('validates the name (min 3) and the message (required)', async () => {
    const short = await inject('POST', '/api/files', a.agent, { name: 'ab', message: 'x' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    const noMessage = await inject('POST', '/api/files', a.agent, { name: 'Lista', message: ' ' });
    expect(noMessage.statusCode).toBe(400);
    expect((await inject('POST', '/api/files', a.agent, { name: 'abc', message: 'x' })).statusCode).toBe(201);
  });

  it('uploads files into the slots, checks type and size, serves them only to the company', async () => {
    const list = await createList(a.agent, 'Catálogo', [{ name: 'Foto' }]);
    const slot = list.options[0]!.id;
    const res = await upload(a.agent, list.id, [
      { data: PNG, fileName: 'foto.png', mimetype: 'image/png', id: slot, name: 'Foto' },
      { data: PDF, fileName: 'tabela.pdf', mimetype: 'application/pdf', name: 'Tabela' },
    ]);
    expect(res.statusCode).toBe(200);
    const after = ZFileList.parse(res.json());
    expect(after.options).toEqual([
      { id: slot, name: 'Foto', path: expect.stringMatching(/^[0-9a-f]{32}\.png$/), mediaType: 'image/png' },
      {
        id: expect.any(Number),
        name: 'Tabela',
        path: expect.stringMatching(/\.pdf$/),
        mediaType: 'application/pdf',
      },
    ]);
    const path = after.options[0]!.path!;
    const own = await inject('GET', `/api/public/${path}`, a.admin);
    expect(own.statusCode).toBe(200);
    expect(own.rawPayload.equals(PNG)).toBe(true);
    expect((await inject('GET', `/api/public/${path}`, b.admin)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/public/${path}` })).statusCode).toBe(401);

    // Content decides the type: a script named .png is refused, and nothing is stored.
    const script = await upload(a.agent, list.id, [
      { data: Buffer.from('#!/bin/sh\necho hi\n'), fileName: 'x.png', mimetype: 'image/png' },
    ]);
    expect(script.statusCode).toBe(415);
    expect(script.json()).toMatchObject({ error: 'ERR_UNSUPPORTED_MEDIA_TYPE' });
    // An image above WhatsApp's 16 MB image limit is refused.
    const big = Buffer.concat([PNG, Buffer.alloc(16 * 1024 * 1024)]);
    const tooBig = await upload(a.agent, list.id, [
      { data: big, fileName: 'big.png', mimetype: 'image/png' },
    ]);
    expect(tooBig.statusCode).toBe(413);
    expect(
      ZFileList.parse((await inject('GET', `/api/files/${list.id}`, a.agent)).json()).options,
    ).toHaveLength(2);
    // No file at all.
    expect((await upload(a.agent, list.id, [])).statusCode).toBe(400);

    // Replacing a slot's file removes the old one from the store.
    const replaced = await upload(a.agent, list.id, [
      { data: PDF, fileName: 'novo.pdf', mimetype: 'application/pdf', id: slot },
    ]);
    expect(replaced.statusCode).toBe(200);
    expect((await inject('GET', `/api/public/${path}`, a.admin)).statusCode).toBe(404);

    // Campaigns read the list's files.
    const files = await getFileListFiles(t.app.ctx, media(), a.companyId, list.id);
    expect(files.map((f) => [f.name, f.mediaType])).toEqual([
      ['Foto', 'application/pdf'],
      ['Tabela', 'application/pdf'],
    ]);
    expect(files[0]!.size).toBe(PDF.length);
    await expect(getFileListFiles(t.app.ctx, media(), b.companyId, list.id)).rejects.toThrow();

    // Deleting the list removes its files.
    expect((await inject('DELETE', `/api/files/${list.id}`, a.agent)).statusCode).toBe(204);
    expect((await inject('GET', `/api/public/${files[1]!.storedName}`, a.admin)).statusCode).toBe(404);
    expect((await inject('GET', `/api/files/${list.id}`, a.agent)).statusCode).toBe(404);
  });

  it('PUT replaces the options: kept ids stay, new ones are added, missing ones go with their files', async () => {
    const list = await createList(a.agent, 'Editável', [{ name: 'Um' }, { name: 'Dois' }]);
    const [one, two] = list.options;
    const up = await upload(a.agent, list.id, [
      { data: PNG, fileName: 'a.png', mimetype: 'image/png', id: two!.id },
    ]);
    const stored = ZFileList.parse(up.json()).options[1]!.path!;
    const res = await inject('PUT', `/api/files/${list.id}`, a.agent, {
      options: [{ id: one!.id, name: 'Um renomeado' }, { name: 'Três' }],
    });
    expect(res.statusCode).toBe(200);
    const after = ZFileList.parse(res.json());
    expect(after.name).toBe('Editável');
    expect(after.options.map((o) => o.name)).toEqual(['Um renomeado', 'Três']);
    expect((await inject('GET', `/api/public/${stored}`, a.agent)).statusCode).toBe(404);
    // Another list's option id is refused.
    const other = await createList(a.agent, 'Outra', [{ name: 'X' }]);
    const bad = await inject('PUT', `/api/files/${list.id}`, a.agent, {
      options: [{ id: other.options[0]!.id }],
    });
    expect(bad.statusCode).toBe(400);
  });

  it('refuses more than 20 files in a list', async () => {
    const list = await createList(a.agent, 'Muitos');
    const parts = Array.from({ length: 20 }, (_, i) => ({
      data: PNG,
      fileName: `f${i}.png`,
      mimetype: 'image/png',
    }));
    expect((await upload(a.agent, list.id, parts)).statusCode).toBe(200);
    const more = await upload(a.agent, list.id, [{ data: PNG, fileName: 'x.png', mimetype: 'image/png' }]);
    expect(more.statusCode).toBe(400);
    expect(
      ZFileList.parse((await inject('GET', `/api/files/${list.id}`, a.agent)).json()).options,
    ).toHaveLength(20);
  });

  it("answers 404 for another company's list on every route", async () => {
    const list = await createList(a.agent, 'Privada', [{ name: 'Slot' }]);
    expect((await inject('GET', `/api/files/${list.id}`, b.admin)).statusCode).toBe(404);
    expect((await inject('PUT', `/api/files/${list.id}`, b.admin, { name: 'Roubada' })).statusCode).toBe(404);
    expect((await inject('DELETE', `/api/files/${list.id}`, b.admin)).statusCode).toBe(404);
    expect(
      (await upload(b.admin, list.id, [{ data: PNG, fileName: 'a.png', mimetype: 'image/png' }])).statusCode,
    ).toBe(404);
    expect(ZFileList.parse((await inject('GET', `/api/files/${list.id}`, a.agent)).json())).toMatchObject({
      name: 'Privada',
      options: [{ path: null }],
    });
  });
});

describe('file lists live', () => {
  let colleague: Socket;
  let other: Socket;
  beforeAll(async () => {
    const url = await listenLocally(t.app);
    colleague = openSocket(url, a.admin.token);
    other = openSocket(url, b.admin.token);
    await Promise.all([colleague, other].map(socketReady));
  });
  afterAll(() => {
    colleague.close();
    other.close();
  });

  it('create, update (upload included) and delete reach the company on company-{id}-file', async () => {
    let id = 0;
    const [got, otherGot] = await collectUntilMarker<{
      action: string;
      fileList?: { id: number };
      fileListId?: number;
    }>(t.app, [colleague, other], companyChannel(a.companyId, 'file'), async () => {
      id = (await createList(a.agent, 'Ao vivo')).id;
      await inject('PUT', `/api/files/${id}`, a.agent, { name: 'Ao vivo 2' });
      await upload(a.agent, id, [{ data: PNG, fileName: 'a.png', mimetype: 'image/png' }]);
      await inject('DELETE', `/api/files/${id}`, a.agent);
    });
    expect(got!.map((e) => e.action)).toEqual(['create', 'update', 'update', 'delete']);
    expect(got![1]).toMatchObject({ fileList: { id, name: 'Ao vivo 2' } });
    expect(got![3]).toEqual({ action: 'delete', fileListId: id });
    expect(otherGot).toEqual([]);
  });
});
