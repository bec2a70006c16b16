/** Query keys and the realtime handler of the campaign pages (kept small: the app layout loads it). */
import type { QueryClient } from '@tanstack/react-query';
import type { Socket } from '../../lib/socket';
import type { CampaignEvent, CampaignReport } from './campaign-types';

export const campaignKeys = {
  all: ['campaigns'] as const,
  list: (search: string) => ['campaigns', 'list', search] as const,
  detail: (id: number) => ['campaigns', 'detail', id] as const,
  report: (id: number) => ['campaign-report', id] as const,
  shippings: (id: number) => ['campaign-shippings', id] as const,
  settings: ['campaign-settings'] as const,
};

/**
 * Realtime `company-{id}-campaign`: lists reload on create/update/delete; a campaign's progress
 * (totals, status) goes straight into its report; an update reloads its report and recipients.
 */
export function applyCampaignEvent(queryClient: QueryClient, payload: CampaignEvent): void {
  if (payload.action === 'progress') {
    queryClient.setQueryData<CampaignReport>(campaignKeys.report(payload.campaignId), (report) =>
      report
        ? {
            ...report,
            totals: payload.totals,
            campaign: payload.status ? { ...report.campaign, status: payload.status } : report.campaign,
          }
        : report,
    );
    return;
  }
  void queryClient.invalidateQueries({ queryKey: campaignKeys.all });
  if (payload.action === 'delete') return;
  const id = payload.record.id;
  queryClient.setQueryData<CampaignReport>(campaignKeys.report(id), (report) =>
    report ? { ...report, campaign: payload.record, totals: payload.totals ?? report.totals } : report,
  );
  if (!payload.totals) void queryClient.invalidateQueries({ queryKey: campaignKeys.report(id) });
  void queryClient.invalidateQueries({ queryKey: campaignKeys.shippings(id) });
}

/**
 * Listens on `company-{companyId}-campaign` (document 2 section 7 "Realtime"); returns the function
 * that stops listening.
 */
export function onCampaignChannel(
  socket: Socket,
  companyId: number,
  handler: (payload: CampaignEvent) => void,
): () => void {
  const event = `company-${companyId}-campaign`;
  socket.on(event, handler);
  return () => {
    socket.off(event, handler);
  };
}
