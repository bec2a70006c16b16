/** Query keys and the realtime handler of the campaign pages (kept small: the app layout loads it). */
import type { QueryClient } from '@tanstack/react-query';
import type { CampaignDetail, ChannelPayloads } from '@zapdesk/shared';
import { replaceInLists } from '../common/live-lists';

export const campaignKeys = {
  all: ['campaigns'] as const,
  lists: ['campaigns', 'list'] as const,
  list: (search: string) => ['campaigns', 'list', search] as const,
  detail: (id: number) => ['campaigns', 'detail', id] as const,
  shippings: (id: number) => ['campaign-shippings', id] as const,
  shippingsPage: (id: number, search: string, status: string) =>
    ['campaign-shippings', id, search, status] as const,
  settings: ['campaign-settings'] as const,
};

/** A running campaign's recipients reload at most this often from its update events (ms). */
export const SHIPPINGS_RELOAD_MIN_MS = 5000;
const shippingsReloadedAt = new Map<number, number>();

/**
 * Realtime `company-{id}-campaign` (document 2 section 7). The server announces a running
 * campaign's progress at most once a second as `update` with its totals: the row in the cached
 * lists and the open report (totals, status) take it without a request, and the report's
 * recipients reload at most every 5 s (at once when the status changes). `create` and `delete`
 * reload the lists; `progress` carries only status and totals.
 */
export function applyCampaignEvent(
  queryClient: QueryClient,
  payload: ChannelPayloads['campaign'],
  now: number = Date.now(),
): void {
  if (payload.action === 'progress') {
    queryClient.setQueryData<CampaignDetail>(campaignKeys.detail(payload.id), (detail) =>
      detail ? { ...detail, status: payload.status, totals: payload.totals } : detail,
    );
    return;
  }
  if (payload.action !== 'update') {
    void queryClient.invalidateQueries({ queryKey: campaignKeys.lists });
    if (payload.action === 'delete') shippingsReloadedAt.delete(payload.id);
    return;
  }
  const { record, totals } = payload;
  replaceInLists(queryClient, campaignKeys.lists, 'records', record);
  const before = queryClient.getQueryData<CampaignDetail>(campaignKeys.detail(record.id));
  queryClient.setQueryData<CampaignDetail>(campaignKeys.detail(record.id), (detail) =>
    detail ? { ...detail, ...record, totals: totals ?? detail.totals } : detail,
  );
  const statusChanged = before !== undefined && before.status !== record.status;
  if (statusChanged || now - (shippingsReloadedAt.get(record.id) ?? 0) >= SHIPPINGS_RELOAD_MIN_MS) {
    shippingsReloadedAt.set(record.id, now);
    void queryClient.invalidateQueries({ queryKey: campaignKeys.shippings(record.id) });
  }
}
