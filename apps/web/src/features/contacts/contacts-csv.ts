import { ApiError, fetchWithSession } from '../../lib/api';
import { API_BASE } from '../../lib/config';

/**
 * The CSV export of the contacts page (core section 2: ';' separator, contatos.csv): the server
 * streams every contact of the company from GET /contacts/export in one answer; the browser saves
 * it as `contatos.csv`. @throws ApiError when the answer is not a success (network failures as
 * thrown by fetch).
 */
export async function downloadContactsCsv(): Promise<void> {
  const response = await fetchWithSession(`${API_BASE}/contacts/export`);
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => null);
    throw new ApiError(response.status, body as ConstructorParameters<typeof ApiError>[1]);
  }
  downloadBlob(await response.blob(), 'contatos.csv');
}

/** Makes the browser download `blob` as `fileName`. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}
