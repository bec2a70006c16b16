/** Queries and mutations of the outgoing webhooks tab. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Webhook,
  WebhookBody,
  WebhookDeliveriesPage,
  WebhookDelivery,
  WebhookWithSecret,
} from '@zapdesk/shared';
import { api } from '../../lib/api';
import { usePagedList } from '../../lib/record-queries';

export const webhooksKeys = {
  all: ['webhooks'] as const,
  list: () => ['webhooks', 'list'] as const,
  deliveries: (id: number) => ['webhooks', 'deliveries', id] as const,
};

/** GET /webhooks. */
export function useWebhooks() {
  return useQuery({
    queryKey: webhooksKeys.list(),
    queryFn: ({ signal }) => api.get<Webhook[]>('/webhooks', undefined, signal),
  });
}

/** POST /webhooks (answers the secret, once) or PUT /webhooks/:id. */
export function useSaveWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number | null; body: WebhookBody }) =>
      typeof id === 'number'
        ? api.put<Webhook>(`/webhooks/${id}`, body)
        : api.post<WebhookWithSecret>('/webhooks', body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: webhooksKeys.all }),
  });
}

/** POST /webhooks/:id/secret: a new secret, answered once. */
export function useRotateWebhookSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<WebhookWithSecret>(`/webhooks/${id}/secret`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: webhooksKeys.all }),
  });
}

/** DELETE /webhooks/:id. */
export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/webhooks/${id}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: webhooksKeys.all }),
  });
}

/** GET /webhooks/:id/deliveries as an infinite list, newest first. */
export function useWebhookDeliveries(id: number | null) {
  return usePagedList<WebhookDeliveriesPage>(
    webhooksKeys.deliveries(id ?? 0),
    `/webhooks/${id}/deliveries`,
    (pageNumber) => ({ pageNumber }),
    { enabled: typeof id === 'number' },
  );
}

/** POST /webhooks/:id/deliveries/:deliveryId/retry: a failed delivery tried again. */
export function useRetryDelivery(webhookId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: number) =>
      api.post<WebhookDelivery>(`/webhooks/${webhookId}/deliveries/${deliveryId}/retry`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: webhooksKeys.deliveries(webhookId) }),
  });
}
