/** Queries, mutations, sheet upload and sample download of the contact list pages (document 2 section 4). */
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ContactListBody,
  ContactListEntry,
  ContactListImport,
  ContactListItemBody,
  ContactListItemsPage,
  ContactListsPage,
  ContactListWithCount,
} from '@zapdesk/shared';
import { ApiError, api, fetchWithSession } from '../../lib/api';
import { API_BASE } from '../../lib/config';
import { saveRecord, usePagedList, useRecordQuery, useSearchedList } from '../../lib/record-queries';

import { contactListKeys } from './contact-lists-live';

export { applyContactListItemEvent, applyContactListsEvent, contactListKeys } from './contact-lists-live';

/** GET /contact-lists?searchParam=&pageNumber= as an infinite list. */
export function useContactLists(search: string) {
  return useSearchedList<ContactListsPage>(contactListKeys.list(search), '/contact-lists', search);
}

/** GET /contact-lists/:id when `id` is set. */
export function useContactList(id: number | null | undefined) {
  return useRecordQuery<ContactListWithCount>(contactListKeys.detail(id ?? 0), '/contact-lists', id);
}

/** POST /contact-lists or PUT /contact-lists/:id. */
export function useSaveContactList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number | null; body: ContactListBody }) =>
      saveRecord<ContactListWithCount>('/contact-lists', id, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: contactListKeys.all }),
  });
}

/** DELETE /contact-lists/:id. */
export function useDeleteContactList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/contact-lists/${id}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: contactListKeys.all }),
  });
}

/** GET /contact-list-items?contactListId=&searchParam=&pageNumber= as an infinite list. */
export function useContactListItems(listId: number, search: string) {
  return usePagedList<ContactListItemsPage>(
    contactListKeys.itemsSearch(listId, search),
    '/contact-list-items',
    (pageNumber) => ({ contactListId: listId, searchParam: search, pageNumber }),
  );
}

/** GET /contact-list-items/:id when `id` is set. */
export function useContactListItem(id: number | null | undefined) {
  return useRecordQuery<ContactListEntry>(contactListKeys.item(id ?? 0), '/contact-list-items', id);
}

const refreshItems = (queryClient: QueryClient, listId: number) => {
  void queryClient.invalidateQueries({ queryKey: contactListKeys.items(listId) });
  void queryClient.invalidateQueries({ queryKey: contactListKeys.all });
};

/** POST /contact-list-items or PUT /contact-list-items/:id. */
export function useSaveContactListItem(listId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number | null; body: ContactListItemBody }) =>
      saveRecord<ContactListEntry>('/contact-list-items', id, body),
    onSuccess: () => refreshItems(queryClient, listId),
  });
}

/** DELETE /contact-list-items/:id. */
export function useDeleteContactListItem(listId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/contact-list-items/${id}`),
    onSuccess: () => refreshItems(queryClient, listId),
  });
}

/** The list's latest sheet import (GET /contact-lists/:id/import; null = none yet). */
export function useContactListImport(listId: number) {
  return useQuery({
    queryKey: contactListKeys.import(listId),
    queryFn: ({ signal }) =>
      api.get<ContactListImport | null>(`/contact-lists/${listId}/import`, undefined, signal),
  });
}

/**
 * POST /contact-lists/:id/upload with the .xlsx in the multipart field `file` (through
 * `fetchWithSession`). Resolves with the queued import; rejects with an ApiError (415 names the format).
 */
export async function uploadContactListSheet(listId: number, file: File): Promise<ContactListImport> {
  const form = new FormData();
  form.append('file', file);
  const response = await fetchWithSession(`${API_BASE}/contact-lists/${listId}/upload`, {
    method: 'POST',
    body: form,
  });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, body as ConstructorParameters<typeof ApiError>[1]);
  return body as ContactListImport;
}

/** Downloads the sample sheet (GET /contact-lists/sample) as `contact-list-sample.xlsx`. */
export async function downloadSampleSheet(): Promise<void> {
  const response = await fetchWithSession(`${API_BASE}/contact-lists/sample`);
  if (!response.ok) throw new ApiError(response.status, null);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = 'contact-list-sample.xlsx';
  link.click();
  URL.revokeObjectURL(url);
}
