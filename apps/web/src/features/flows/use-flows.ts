/** Queries and mutations of the flows list and the flow builder (document 3 section 7 "Flow builder"). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { useSearchedList } from '../../lib/record-queries';
import type { Flow, FlowConnection, FlowNode, FlowsPage, FlowWithGraph } from './flow-types';

export const flowKeys = {
  all: ['flows'] as const,
  list: (search: string) => ['flows', 'list', search] as const,
  graph: (id: number) => ['flows', 'graph', id] as const,
  campaigns: ['flow-campaigns'] as const,
  campaign: (id: number) => ['flow-campaigns', id] as const,
};

/** GET /flowbuilder?searchParam=&pageNumber= as an infinite list (`{ flows, hasMore }`). */
export function useFlows(search: string) {
  return useSearchedList<FlowsPage>(flowKeys.list(search), '/flowbuilder', search);
}

/**
 * Every flow (first pages of GET /flowbuilder, at most 500), for the flow campaign's flow picker and
 * the connection's welcome flow. `silent`: a refusal (a plan without flows) shows no toast.
 */
export function useFlowOptions({ silent = false }: { silent?: boolean } = {}) {
  return useQuery({
    meta: { silent },
    retry: silent ? false : undefined,
    queryKey: [...flowKeys.all, 'options'],
    queryFn: async ({ signal }) => {
      const all: Flow[] = [];
      for (let pageNumber = 1; pageNumber <= 25; pageNumber++) {
        const page = await api.get<FlowsPage>('/flowbuilder', { searchParam: '', pageNumber }, signal);
        all.push(...page.flows);
        if (!page.hasMore) break;
      }
      return all;
    },
  });
}

/** POST /flowbuilder { name } (create) or PUT /flowbuilder { name, flowId } (rename). */
export function useSaveFlowName() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ flowId, name }: { flowId?: number | null; name: string }) =>
      typeof flowId === 'number'
        ? api.put<Flow>('/flowbuilder', { name, flowId })
        : api.post<Flow>('/flowbuilder', { name }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: flowKeys.all }),
  });
}

/** PUT /flowbuilder { flowId, active }: turns a flow on or off. */
export function useSetFlowActive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ flowId, active }: { flowId: number; active: boolean }) =>
      api.put<Flow>('/flowbuilder', { flowId, active }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: flowKeys.all }),
  });
}

/** POST /flowbuilder/duplicate { flowId }. */
export function useDuplicateFlow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (flowId: number) => api.post<Flow>('/flowbuilder/duplicate', { flowId }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: flowKeys.all }),
  });
}

/** DELETE /flowbuilder/:id. */
export function useDeleteFlow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/flowbuilder/${id}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: flowKeys.all }),
  });
}

/**
 * GET /flowbuilder/flow/:id once `enabled` (the screen asks 500 ms after it opens, document 3
 * section 4 "Flow load"): the flow with its graph, `flow.flow` null when nothing was saved yet.
 */
export function useFlowGraph(id: number, enabled: boolean) {
  return useQuery({
    queryKey: flowKeys.graph(id),
    queryFn: ({ signal }) => api.get<FlowWithGraph>(`/flowbuilder/flow/${id}`, undefined, signal),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
}

/** POST /flowbuilder/flow { idFlow, nodes, connections }: saves the whole graph. */
export function useSaveFlowGraph() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { idFlow: number; nodes: FlowNode[]; connections: FlowConnection[] }) =>
      api.post<unknown>('/flowbuilder/flow', body),
    // The editor explains a refused graph itself (ERR_FLOW_INVALID names the node).
    meta: { silent: true },
    onSuccess: (_data, body) => void queryClient.invalidateQueries({ queryKey: flowKeys.graph(body.idFlow) }),
  });
}

/** The upload endpoint of a media kind: images to /img, audio and video to /audio (document 3 section 7). */
export function uploadPathOf(kind: 'img' | 'audio' | 'video'): string {
  return kind === 'img' ? '/flowbuilder/img' : '/flowbuilder/audio';
}

/**
 * Uploads one file in the multipart field `medias` and resolves with the stored name (the server
 * answers a name or a list of names). Rejects with an ApiError on a refusal (size, type).
 */
export async function uploadFlowMedia(kind: 'img' | 'audio' | 'video', file: File): Promise<string> {
  const form = new FormData();
  form.append('medias', file, file.name);
  const answer = await api.post<unknown>(uploadPathOf(kind), form);
  return storedNameOf(answer);
}

/** The stored file name in an upload answer: a string, the first of a list, or `{ name }`-like objects. */
export function storedNameOf(answer: unknown): string {
  if (typeof answer === 'string') return answer;
  if (Array.isArray(answer)) return storedNameOf(answer[0]);
  if (answer && typeof answer === 'object') {
    const record = answer as Record<string, unknown>;
    for (const key of ['name', 'filename', 'fileName', 'path', 'medias', 'names']) {
      if (key in record) return storedNameOf(record[key]);
    }
  }
  return '';
}
