/** Queries and mutations of the flow campaigns page (document 3 section 7 "Flow campaigns"). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import type { FlowCampaign } from './flow-types';
import { flowKeys } from './use-flows';

/** The campaigns of a GET /flowcampaign answer: a list, or the list under `flow` (the spec's "flow list"). */
export function campaignsOf(answer: unknown): FlowCampaign[] {
  if (Array.isArray(answer)) return answer as FlowCampaign[];
  if (answer && typeof answer === 'object') {
    for (const value of Object.values(answer as Record<string, unknown>))
      if (Array.isArray(value)) return value as FlowCampaign[];
  }
  return [];
}

/** GET /flowcampaign: the company's flow campaigns. */
export function useFlowCampaigns() {
  return useQuery({
    queryKey: flowKeys.campaigns,
    queryFn: ({ signal }) => api.get<unknown>('/flowcampaign', undefined, signal),
    select: campaignsOf,
  });
}

/** GET /flowcampaign/:id when `id` is set. */
export function useFlowCampaign(id: number | null | undefined) {
  return useQuery({
    queryKey: flowKeys.campaign(id ?? 0),
    queryFn: ({ signal }) => api.get<FlowCampaign>(`/flowcampaign/${id}`, undefined, signal),
    enabled: typeof id === 'number',
  });
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
