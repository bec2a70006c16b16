import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json } from '../test/http';
import { ApiError } from './api';
import { MediaRefusedError, saveWithMedia } from './save-with-media';
import { writeSession } from './storage';

interface Row {
  id: number;
  name: string;
  mediaPath: string | null;
}

/** A fake server for /things: records each call as 'METHOD path' and answers the row it keeps. */
function server(start: Row | null, failUpload = false) {
  let row = start;
  const calls: string[] = [];
  const forms: FormData[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const path = String(input).replace(/^\/api/, '');
      calls.push(`${method} ${path}`);
      if (path.endsWith('/media-upload')) {
        if (method === 'DELETE') row = { ...row!, mediaPath: null };
        else {
          forms.push(init?.body as FormData);
          if (failUpload) return json(400, { error: 'ERR_VALIDATION' });
          row = { ...row!, mediaPath: 'stored.png' };
        }
        return json(200, row);
      }
      const body = JSON.parse(String(init?.body)) as { name: string };
      row = { id: row?.id ?? 5, mediaPath: row?.mediaPath ?? null, name: body.name };
      return json(method === 'POST' ? 201 : 200, row);
    }),
  );
  return { calls, forms };
}

describe('saveWithMedia', () => {
  beforeEach(() => writeSession('token', 1, 1));
  afterEach(() => vi.unstubAllGlobals());

  it('creates with POST, then uploads the file with the extra fields first', async () => {
    const { calls, forms } = server(null);
    const file = new File(['x'], 'a.png', { type: 'image/png' });
    const saved = await saveWithMedia<Row, { name: string }>(
      '/things',
      { body: { name: 'Novo' }, file },
      { typeArch: 'thing' },
    );
    expect(calls).toEqual(['POST /things', 'POST /things/5/media-upload']);
    expect([...forms[0]!.keys()]).toEqual(['typeArch', 'file']);
    expect(forms[0]!.get('typeArch')).toBe('thing');
    expect((forms[0]!.get('file') as File).name).toBe('a.png');
    expect(saved).toEqual({ id: 5, name: 'Novo', mediaPath: 'stored.png' });
  });

  it('edits with PUT and removes the media only when asked and present', async () => {
    const withMedia = server({ id: 7, name: 'Antigo', mediaPath: 'old.png' });
    const saved = await saveWithMedia<Row, { name: string }>('/things', {
      id: 7,
      body: { name: 'Editado' },
      removeMedia: true,
    });
    expect(withMedia.calls).toEqual(['PUT /things/7', 'DELETE /things/7/media-upload']);
    expect(saved).toEqual({ id: 7, name: 'Editado', mediaPath: null });

    const without = server({ id: 7, name: 'Antigo', mediaPath: null });
    await saveWithMedia<Row, { name: string }>('/things', { id: 7, body: { name: 'X' }, removeMedia: true });
    expect(without.calls).toEqual(['PUT /things/7']);

    const untouched = server({ id: 7, name: 'Antigo', mediaPath: 'old.png' });
    expect(await saveWithMedia<Row, { name: string }>('/things', { id: 7, body: { name: 'Y' } })).toEqual({
      id: 7,
      name: 'Y',
      mediaPath: 'old.png',
    });
    expect(untouched.calls).toEqual(['PUT /things/7']);
  });

  it("throws the failing upload's error after the record was saved", async () => {
    const { calls } = server(null, true);
    const file = new File(['x'], 'a.png', { type: 'image/png' });
    await expect(
      saveWithMedia<Row, { name: string }>('/things', { body: { name: 'Novo' }, file }),
    ).rejects.toBeInstanceOf(ApiError);
    expect(calls).toEqual(['POST /things', 'POST /things/5/media-upload']);
  });

  it('names the saved record in the error when only the file was refused', async () => {
    server(null, true);
    const file = new File(['x'], 'a.png', { type: 'image/png' });
    const error = await saveWithMedia<Row, { name: string }>('/things', {
      body: { name: 'Novo' },
      file,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaRefusedError);
    expect((error as MediaRefusedError<Row>).saved).toEqual({ id: 5, name: 'Novo', mediaPath: null });
    expect((error as MediaRefusedError<Row>).code).toBe('ERR_VALIDATION');
  });
});
