/** Query keys and the realtime handler of the campaign pages (kept small: the app layout loads it). */
import type { QueryClient } from '@tanstack/react-query';
import type { CampaignDetail, ChannelPayloads } from '@zapdesk/shared';

export const campaignKeys = {
  all: ['campaigns'] as const,
  list: (search: string) => ['campaigns', 'list', search] as const,
  detail: (id: number) => ['campaigns', 'detail', id] as const,
  shippings: (id: number) => ['campaign-shippings', id] as const,
  shippingsPage: (id: number, search: string, status: string) =>
    ['campaign-shippings', id, search, status] as const,
  settings: ['campaign-settings'] as const,
};

/**
 * Realtime `company-{id}-campaign` (document 2 section 7): a `progress` event moves the open
 * report's totals and status without a request; create, update and delete reload the lists, and an
 * update also refreshes the campaign's report and recipients.
 */
export function applyCampaignEvent(queryClient: QueryClient, payload: ChannelPayloads['campaign']): void {
  if (payload.action === 'progress') {
    queryClient.setQueryData<CampaignDetail>(campaignKeys.detail(payload.id), (detail) =>
      detail ? { ...detail, status: payload.status, totals: payload.totals } : detail,
    );
    return;
  }
  void queryClient.invalidateQueries({ queryKey: ['campaigns', 'list'] });
  if (payload.action === 'delete') return;
  const { record, totals } = payload;
  queryClient.setQueryData<CampaignDetail>(campaignKeys.detail(record.id), (detail) =>
    detail ? { ...detail, ...record, totals: totals ?? detail.totals } : detail,
  );
  void queryClient.invalidateQueries({ queryKey: campaignKeys.shippings(record.id) });
}
