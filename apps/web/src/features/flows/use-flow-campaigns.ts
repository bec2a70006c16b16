/** Queries and mutations of the flow campaigns page (document 3 section 7 "Flow campaigns"). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { usePagedList, useRecordQuery } from '../../lib/record-queries';
import type { FlowCampaign, FlowCampaignsPage } from './flow-types';
import { flowKeys } from './use-flows';

/** GET /flowcampaign?pageNumber= as an infinite list (`{ flow, hasMore }`, 20 a page). */
export function useFlowCampaigns() {
  return usePagedList<FlowCampaignsPage>(flowKeys.campaigns, '/flowcampaign', (pageNumber) => ({
    pageNumber,
  }));
}

/** GET /flowcampaign/:id when `id` is set. */
export function useFlowCampaign(id: number | null | undefined) {
  return useRecordQuery<FlowCampaign>(flowKeys.campaign(id ?? 0), '/flowcampaign', id);
}

export interface FlowCampaignBody {
  name: string;
  flowId: number;
  whatsappId: number;
  phrase: string;
  status?: boolean;
}

/** POST /flowcampaign, or PUT /flowcampaign with `id` in the body (the spec's calls). */
export function useSaveFlowCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number | null; body: FlowCampaignBody }) =>
      typeof id === 'number'
        ? api.put<FlowCampaign>('/flowcampaign', { id, ...body })
        : api.post<FlowCampaign>('/flowcampaign', body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: flowKeys.campaigns }),
  });
}

/** DELETE /flowcampaign/:id. */
export function useDeleteFlowCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/flowcampaign/${id}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: flowKeys.campaigns }),
  });
}
