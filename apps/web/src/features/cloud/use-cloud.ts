/** Queries and mutations of the WhatsApp Business Cloud API channel. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CloudConfig, CloudConfigBody, CloudTemplate, CloudWindow, Message } from '@zapdesk/shared';
import { api } from '../../lib/api';
import { API_BASE } from '../../lib/config';
import { connectionsKeys } from '../connections/connections-cache';
import { applyMessageAnswer, ticketViewKeys } from '../ticket-view/messages-cache';

export const cloudKeys = {
  all: ['cloud'] as const,
  config: (whatsappId: number) => ['cloud', 'config', whatsappId] as const,
  window: (ticketId: number) => ['cloud', 'window', ticketId] as const,
  templates: (ticketId: number) => ['cloud', 'templates', ticketId] as const,
};

/** The absolute webhook URL to paste into Meta's app settings. */
export function webhookUrl(path: string): string {
  return `${window.location.origin}${API_BASE}${path}`;
}

/** GET /whatsapp/:id/cloud (null before the first save), when `whatsappId` is set. */
export function useCloudConfig(whatsappId: number | null | undefined) {
  return useQuery({
    queryKey: cloudKeys.config(whatsappId ?? 0),
    queryFn: ({ signal }) => api.get<CloudConfig | null>(`/whatsapp/${whatsappId}/cloud`, undefined, signal),
    enabled: typeof whatsappId === 'number',
  });
}

/** PUT /whatsapp/:id/cloud: saves the settings (the session restarts and connects). */
export function useSaveCloudConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ whatsappId, body }: { whatsappId: number; body: Partial<CloudConfigBody> }) =>
      api.put<CloudConfig>(`/whatsapp/${whatsappId}/cloud`, body),
    onSuccess: (config) => {
      queryClient.setQueryData(cloudKeys.config(config.whatsappId), config);
      // The answer comes once the session restarted: the connection's status (CONNECTED or
      // DISCONNECTED with the reason) is read again now, which also drops a list refetch begun by
      // the connection's own save that could land after the status event and undo it.
      void queryClient.invalidateQueries({ queryKey: connectionsKeys.all });
    },
  });
}

/** GET /cloud/tickets/:ticketId/window; `version` (the ticket's last change) refreshes it. */
export function useCloudWindow(ticketId: number, version: string) {
  return useQuery({
    queryKey: [...cloudKeys.window(ticketId), version],
    queryFn: ({ signal }) => api.get<CloudWindow>(`/cloud/tickets/${ticketId}/window`, undefined, signal),
    meta: { silent: true },
  });
}

/** GET /cloud/tickets/:ticketId/templates (approved templates), when `enabled`. */
export function useCloudTemplates(ticketId: number, enabled: boolean) {
  return useQuery({
    queryKey: cloudKeys.templates(ticketId),
    queryFn: ({ signal }) =>
      api.get<CloudTemplate[]>(`/cloud/tickets/${ticketId}/templates`, undefined, signal),
    enabled,
  });
}

/** POST /cloud/tickets/:ticketId/template; the stored message joins the chat. */
export function useSendTemplate(ticketId: number, contactId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; language: string; parameters: string[] }) =>
      api.post<Message>(`/cloud/tickets/${ticketId}/template`, body),
    onSuccess: (message) =>
      applyMessageAnswer(queryClient, ticketViewKeys.messages(ticketId, contactId), message),
  });
}
