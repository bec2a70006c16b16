/** Multipart bodies and small sample files for upload tests. */

/** A 1×1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** One part of a multipart body: a text field, or a file when `filename` is given. */
export interface FormPart {
  name: string;
  value: string | Buffer;
  filename?: string;
  /** The part's Content-Type; none when absent. */
  type?: string;
}

/** A multipart/form-data upload as `app.inject` takes it. */
export interface MultipartUpload {
  payload: Buffer;
  headers: { 'content-type': string };
}

/** Encodes `parts`, in order, as a multipart/form-data body with its content-type header. */
export function multipartBody(parts: FormPart[], boundary = '----zapdesk-test'): MultipartUpload {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`;
    chunks.push(
      Buffer.from(head),
      Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** A multipart body with one file part named `field` (default "file"). */
export function fileUpload(
  data: Buffer,
  fileName: string,
  mimetype: string,
  field = 'file',
): MultipartUpload {
  return multipartBody([{ name: field, value: data, filename: fileName, type: mimetype }]);
}
