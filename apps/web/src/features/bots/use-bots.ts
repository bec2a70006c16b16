/** Queries and mutations of the prompts and queue integrations pages (document 2 section 7). */
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  PlanFlag,
  Prompt,
  PromptBody,
  QueueIntegration,
  QueueIntegrationBody,
  QueueIntegrationsPage,
  TestSessionBody,
  TestSessionResult,
} from '@zapdesk/shared';
import { api } from '../../lib/api';
import { saveRecord, usePagedList, useRecordQuery } from '../../lib/record-queries';
import { useCurrentUser } from '../auth/session-context';

export const botKeys = {
  prompts: ['prompts'] as const,
  prompt: (id: number) => ['prompts', id] as const,
  integrations: ['queue-integrations'] as const,
  integrationList: (search: string) => ['queue-integrations', 'list', search] as const,
  integration: (id: number) => ['queue-integrations', id] as const,
};

/** Whether the signed-in user's company plan has `flag`. */
export function usePlanFlag(flag: PlanFlag): boolean {
  return useCurrentUser().company.plan?.[flag] === true;
}

/** GET /prompt (only when the plan has useOpenAi, unless `enabled` says otherwise). */
export function usePrompts(enabled = true) {
  return useQuery({
    queryKey: botKeys.prompts,
    queryFn: ({ signal }) => api.get<{ prompts: Prompt[] }>('/prompt', undefined, signal),
    enabled,
    select: (data) => data.prompts,
  });
}

export function usePrompt(id: number | null | undefined) {
  return useRecordQuery<Prompt>(botKeys.prompt(id ?? 0), '/prompt', id);
}

export function useSavePrompt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number | null; body: Partial<PromptBody> }) =>
      saveRecord<Prompt>('/prompt', id, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: botKeys.prompts }),
  });
}

export function useDeletePrompt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/prompt/${id}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: botKeys.prompts }),
  });
}

/** GET /queueIntegration/?searchParam=&pageNumber= as an infinite list. */
export function useIntegrationsList(search: string, enabled = true) {
  return usePagedList<QueueIntegrationsPage>(
    botKeys.integrationList(search),
    '/queueIntegration/',
    (pageNumber) => ({ searchParam: search, pageNumber }),
    { enabled },
  );
}

export function useIntegration(id: number | null | undefined) {
  return useRecordQuery<QueueIntegration>(botKeys.integration(id ?? 0), '/queueIntegration', id);
}

export function useSaveIntegration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number | null; body: Partial<QueueIntegrationBody> }) =>
      saveRecord<QueueIntegration>('/queueIntegration', id, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: botKeys.integrations }),
  });
}

export function useDeleteIntegration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/queueIntegration/${id}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: botKeys.integrations }),
  });
}

/** POST /queueIntegration/testSession. */
export function useTestSession() {
  return useMutation({
    mutationFn: (body: TestSessionBody) => api.post<TestSessionResult>('/queueIntegration/testSession', body),
  });
}

/** `company-{id}-prompt` (create, update, delete): the prompt lists and pickers reload. */
export function applyPromptEvent(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: botKeys.prompts });
}

/** `company-{id}-queueIntegration`: the integration lists and pickers reload. */
export function applyIntegrationEvent(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: botKeys.integrations });
}
