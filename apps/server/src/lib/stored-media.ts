/** A record's stored media, as its table keeps it: the stored file's name and the name shown. */
export interface MediaFields {
  mediaPath: string | null;
  mediaName: string | null;
}

/** What swapStoredMedia needs of the media store (channels/media-store's MediaStore). */
export interface MediaFiles {
  save(companyId: number, data: Buffer, extension: string): Promise<string>;
  remove(companyId: number, name: string | null): Promise<void>;
}

/**
 * Puts `next` in place of a record's stored media, or takes the media away when `next` is null
 * (POST and DELETE /…/:id/media-upload): stores the new file first, writes the record's
 * `mediaPath`/`mediaName` (the shown name cut to 255 characters) with `write`, and only then removes
 * the `previous` file, so a failed write never leaves the record naming a removed file. Answers what
 * `write` answers.
 */
export async function swapStoredMedia<T>(
  media: MediaFiles,
  companyId: number,
  previous: string | null,
  next: { data: Buffer; extension: string; name: string } | null,
  write: (fields: MediaFields) => Promise<T>,
): Promise<T> {
  const fields: MediaFields = next
    ? {
        mediaPath: await media.save(companyId, next.data, next.extension),
        mediaName: next.name.slice(0, 255),
      }
    : { mediaPath: null, mediaName: null };
  const answer = await write(fields);
  await media.remove(companyId, previous);
  return answer;
}
