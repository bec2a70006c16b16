/** Query keys and realtime handlers of the contact list pages (kept small: the app layout loads them). */
import type { QueryClient } from '@tanstack/react-query';
import type { ChannelPayloads } from '@zapdesk/shared';

export const contactListKeys = {
  all: ['contact-lists'] as const,
  list: (search: string) => ['contact-lists', 'list', search] as const,
  detail: (id: number) => ['contact-lists', id] as const,
  items: (listId: number) => ['contact-list-items', listId] as const,
  itemsSearch: (listId: number, search: string) => ['contact-list-items', listId, search] as const,
  item: (id: number) => ['contact-list-item', id] as const,
  import: (listId: number) => ['contact-list-import', listId] as const,
};

/** Realtime `company-{id}-ContactList`: lists reload; `import` progress goes to the import query. */
export function applyContactListsEvent(
  queryClient: QueryClient,
  payload: ChannelPayloads['ContactList'],
): void {
  if (payload.action === 'import') {
    queryClient.setQueryData(contactListKeys.import(payload.import.contactListId), payload.import);
    return;
  }
  void queryClient.invalidateQueries({ queryKey: contactListKeys.all });
}

/** Realtime `company-{id}-ContactListItem`: the items pages reload. */
export function applyContactListItemEvent(
  queryClient: QueryClient,
  payload: ChannelPayloads['ContactListItem'],
): void {
  if (payload.action === 'reload' || payload.action === 'create' || payload.action === 'update')
    void queryClient.invalidateQueries({
      queryKey: [
        'contact-list-items',
        payload.action === 'reload' ? payload.contactListId : payload.record.contactListId,
      ],
    });
  else void queryClient.invalidateQueries({ queryKey: ['contact-list-items'] });
}
