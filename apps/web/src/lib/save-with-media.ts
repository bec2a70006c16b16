import { ApiError, api } from './api';

/**
 * A save whose record was stored but whose file the server refused (type, size): an ApiError with
 * the refusal's status and body, carrying the stored record in `saved`.
 */
export class MediaRefusedError<T> extends ApiError {
  readonly saved: T;

  constructor(saved: T, cause: ApiError) {
    super(cause.status, cause.body, cause.text);
    this.name = 'MediaRefusedError';
    this.saved = saved;
  }
}

/** What a record-with-media save takes: the record's id when editing, its body, its media change. */
export interface MediaSaveInput<B> {
  /** The record to edit; absent or null to create one. */
  id?: number | null;
  body: B;
  /** A file to upload after saving (replaces the stored one). */
  file?: File | null;
  /** Removes the stored media (when no `file` is given and the record has one). */
  removeMedia?: boolean;
}

/**
 * Saves a record that may carry one media file (announcements, schedules, campaigns, quick
 * messages): POST `base` (new) or PUT `base/:id`, then either POST the file to
 * `base/:id/media-upload` (multipart: `fields` first, then `file`) or, when `removeMedia` and the
 * record has a `mediaPath`, DELETE `base/:id/media-upload`. Answers the record as the last call
 * returned it. Throws the ApiError of the first call that fails; when the record was saved and only
 * the file's call failed, a {@link MediaRefusedError} carrying the saved record (which keeps its
 * previous file).
 */
export async function saveWithMedia<T extends { id: number; mediaPath?: string | null }, B>(
  base: string,
  { id, body, file, removeMedia }: MediaSaveInput<B>,
  fields: Record<string, string> = {},
): Promise<T> {
  const saved =
    typeof id === 'number' ? await api.put<T>(`${base}/${id}`, body) : await api.post<T>(base, body);
  const refused = (error: unknown) => {
    throw error instanceof ApiError ? new MediaRefusedError(saved, error) : error;
  };
  if (file) {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', file);
    return api.post<T>(`${base}/${saved.id}/media-upload`, form).catch(refused);
  }
  if (removeMedia && saved.mediaPath) return api.delete<T>(`${base}/${saved.id}/media-upload`).catch(refused);
  return saved;
}
