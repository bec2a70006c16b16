/**
 * Lists live (document 2 section 4 "Lists"): socket events of the company's records applied to the
 * TanStack Query caches of their lists. An `update` replaces the record where a cached page shows it
 * (its other fields, such as a tag's ticketsCount, stay); a `delete` removes it and a page's `count`
 * follows; a `create` refetches the lists on screen, because only the server knows where the new
 * record falls in a searched, sorted and paged list.
 */
import type { InfiniteData, QueryClient, QueryKey } from '@tanstack/react-query';
import type { ChannelPayloads } from '@zapdesk/shared';
import { contactsKeys } from '../contacts/use-contacts';
import { queuesKeys } from '../queues/use-queues';
import { quickMessagesKeys } from '../quick-messages/use-quick-messages';
import { tagsKeys } from '../tags/use-tags';
import { ticketViewKeys } from '../ticket-view/messages-cache';

type Row = { id: number };
type Page = Record<string, unknown> & { count?: number };

/** A cached list: an infinite query's pages holding rows under `itemsKey`, or a plain array. */
function mapRows(data: unknown, itemsKey: string, change: (rows: Row[]) => Row[]): unknown {
  if (Array.isArray(data)) return change(data as Row[]);
  const pages = (data as InfiniteData<Page> | undefined)?.pages;
  if (!pages) return data;
  return {
    ...(data as InfiniteData<Page>),
    pages: pages.map((page) => {
      const rows = page[itemsKey];
      if (!Array.isArray(rows)) return page;
      const next = change(rows as Row[]);
      if (next === rows) return page;
      const removed = rows.length - next.length;
      return {
        ...page,
        [itemsKey]: next,
        ...(typeof page.count === 'number' ? { count: page.count - removed } : {}),
      };
    }),
  };
}

/** Replaces the row with `record`'s id in every list under `queryKey`, keeping fields it lacks. */
export function replaceInLists(queryClient: QueryClient, queryKey: QueryKey, itemsKey: string, record: Row) {
  queryClient.setQueriesData({ queryKey }, (data: unknown) =>
    mapRows(data, itemsKey, (rows) =>
      rows.some((r) => r.id === record.id)
        ? rows.map((r) => (r.id === record.id ? { ...r, ...record } : r))
        : rows,
    ),
  );
}

/** Removes the row `id` from every list under `queryKey`. */
export function removeFromLists(queryClient: QueryClient, queryKey: QueryKey, itemsKey: string, id: number) {
  queryClient.setQueriesData({ queryKey }, (data: unknown) =>
    mapRows(data, itemsKey, (rows) =>
      rows.some((r) => r.id === id) ? rows.filter((r) => r.id !== id) : rows,
    ),
  );
}

/** `company-{id}-tag`: the tags page and the inbox's tag pickers. */
export function applyTagEvent(queryClient: QueryClient, payload: ChannelPayloads['tag']): void {
  if (payload.action === 'delete') {
    removeFromLists(queryClient, tagsKeys.all, 'tags', payload.tagId);
    removeFromLists(queryClient, ['tags'], 'tags', payload.tagId);
    queryClient.removeQueries({ queryKey: tagsKeys.detail(payload.tagId) });
    return;
  }
  if (payload.action === 'create') {
    void queryClient.invalidateQueries({ queryKey: tagsKeys.all });
    void queryClient.invalidateQueries({ queryKey: ['tags'] });
    return;
  }
  replaceInLists(queryClient, tagsKeys.all, 'tags', payload.tag);
  replaceInLists(queryClient, ['tags'], 'tags', payload.tag);
}

/** `company-{id}-queue`: the queues list shared by the queues page and every queue picker. */
export function applyQueueEvent(queryClient: QueryClient, payload: ChannelPayloads['queue']): void {
  if (payload.action === 'delete') {
    removeFromLists(queryClient, queuesKeys.list(), 'queues', payload.queueId);
    queryClient.removeQueries({ queryKey: queuesKeys.detail(payload.queueId) });
    return;
  }
  const queue = payload.queue as Row;
  // The list is sorted by order on the server; a new queue or a changed order refetches it.
  void queryClient.invalidateQueries({ queryKey: queuesKeys.list(), exact: true });
  if (payload.action === 'update')
    void queryClient.invalidateQueries({ queryKey: queuesKeys.detail(queue.id) });
}

/** `company-{id}-quickmessage`: the quick messages page and the composer's suggestions. */
export function applyQuickMessageEvent(
  queryClient: QueryClient,
  payload: ChannelPayloads['quickmessage'],
): void {
  if (payload.action === 'delete') {
    removeFromLists(queryClient, quickMessagesKeys.all, 'records', payload.id);
    removeFromLists(queryClient, ticketViewKeys.quickMessages(), 'records', payload.id);
    return;
  }
  if (payload.action === 'create') {
    void queryClient.invalidateQueries({ queryKey: quickMessagesKeys.all });
    void queryClient.invalidateQueries({ queryKey: ticketViewKeys.quickMessages() });
    return;
  }
  replaceInLists(queryClient, quickMessagesKeys.all, 'records', payload.record);
  replaceInLists(queryClient, ticketViewKeys.quickMessages(), 'records', payload.record);
}

/** `company-{id}-contact`: the contacts page lists and a contact's cached detail. */
export function applyContactListEvent(queryClient: QueryClient, payload: ChannelPayloads['contact']): void {
  if (payload.action === 'delete' && typeof payload.contactId === 'number') {
    removeFromLists(queryClient, contactsKeys.lists(), 'contacts', payload.contactId);
    queryClient.removeQueries({ queryKey: contactsKeys.detail(payload.contactId) });
    return;
  }
  const contact = payload.contact as Row | undefined;
  if (!contact || typeof contact.id !== 'number') return;
  if (payload.action === 'create') {
    void queryClient.invalidateQueries({ queryKey: contactsKeys.lists() });
    return;
  }
  replaceInLists(queryClient, contactsKeys.lists(), 'contacts', contact);
  queryClient.setQueryData(contactsKeys.detail(contact.id), (old: Row | undefined) =>
    old ? { ...old, ...contact } : old,
  );
}
