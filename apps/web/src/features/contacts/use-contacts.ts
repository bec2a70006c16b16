/** Queries, mutations and the spreadsheet upload of the contacts page (core section 7 Contacts). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Contact, ContactBody, ContactImportResult, ContactsPage } from '@zapdesk/shared';
import { ApiError, api, fetchWithSession } from '../../lib/api';
import { API_BASE } from '../../lib/config';
import { useRecordQuery, useSearchedList } from '../../lib/record-queries';

export const contactsKeys = {
  all: ['contacts'] as const,
  lists: () => [...contactsKeys.all, 'list'] as const,
  list: (search: string) => [...contactsKeys.lists(), search] as const,
  detail: (id: number) => [...contactsKeys.all, 'detail', id] as const,
};

/** GET /contacts?searchParam=&pageNumber= as an infinite list (`hasMore` drives the next page). */
export function useContactsList(search: string) {
  return useSearchedList<ContactsPage>(contactsKeys.list(search), '/contacts', search);
}

/** GET /contacts/:id (with extraInfo), when `id` is set. */
export function useContactDetail(id: number | null | undefined) {
  return useRecordQuery<Contact>(contactsKeys.detail(id ?? 0), '/contacts', id);
}

/** POST /contacts (no id) or PUT /contacts/:id; refreshes the lists. */
export function useSaveContactForm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: ContactBody }) =>
      id ? api.put<Contact>(`/contacts/${id}`, body) : api.post<Contact>('/contacts', body),
    onSuccess: (contact) => {
      queryClient.setQueryData(contactsKeys.detail(contact.id), contact);
      void queryClient.invalidateQueries({ queryKey: contactsKeys.lists() });
    },
  });
}

/** DELETE /contacts/:id (admins); refreshes the lists. */
export function useDeleteContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/contacts/${id}`),
    onSuccess: (_v, id) => {
      queryClient.removeQueries({ queryKey: contactsKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: contactsKeys.lists() });
    },
  });
}

/**
 * POST /contacts/upload with the .xlsx in the multipart field `file`, through `fetchWithSession`
 * (an expired token waits for the shared refresh and the upload is replayed once). Resolves with
 * `{ newContacts, errorBag }`; rejects with an ApiError carrying the answer's error code, or the
 * fetch error when the network fails.
 */
export async function uploadContactsSheet(file: File): Promise<ContactImportResult> {
  const form = new FormData();
  form.append('file', file);
  const response = await fetchWithSession(`${API_BASE}/contacts/upload`, { method: 'POST', body: form });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, body as ConstructorParameters<typeof ApiError>[1]);
  return body as ContactImportResult;
}
