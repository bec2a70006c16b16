/**
 * Calls of the simulator page: inject a customer's message, read what the business
 * sent to that number (polled every SIMULATOR_POLL_MS) and mark it read. Only for connections whose
 * provider is 'simulator'; admins only (the server decides).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SimulatorInboundBody, ZSimulatorOutboxItem } from '@zapdesk/shared';
import type { z } from 'zod';
import { api } from '../../lib/api';

/** One message the business sent to the simulated phone (ack 0..5). */
export type OutboxItem = z.infer<typeof ZSimulatorOutboxItem>;

/** What POST /simulator/:whatsappId/messages answers. */
export interface InjectedMessage {
  id: number | string;
  ticketId: number;
}

/** The outbox is refreshed every 2 s. */
export const SIMULATOR_POLL_MS = 2_000;

export const simulatorKeys = {
  outbox: (whatsappId: number, number: string) => ['simulator', 'outbox', whatsappId, number] as const,
};

/** GET /simulator/:whatsappId/outbox?number=, polled while `number` is set. */
export function useOutbox(whatsappId: number | null, number: string) {
  return useQuery({
    queryKey: simulatorKeys.outbox(whatsappId ?? 0, number),
    queryFn: ({ signal }) => api.get<OutboxItem[]>(`/simulator/${whatsappId}/outbox`, { number }, signal),
    enabled: whatsappId !== null && number.length > 0,
    refetchInterval: SIMULATOR_POLL_MS,
    staleTime: 0,
    meta: { silent: true },
  });
}

/** POST /simulator/:whatsappId/messages. */
export function useSendAsCustomer() {
  return useMutation({
    mutationFn: ({ whatsappId, body }: { whatsappId: number; body: SimulatorInboundBody }) =>
      api.post<InjectedMessage>(`/simulator/${whatsappId}/messages`, body),
  });
}

/** POST /simulator/:whatsappId/read { number }: the phone reads the business's messages (ack 4). */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ whatsappId, number }: { whatsappId: number; number: string }) =>
      api.post<void>(`/simulator/${whatsappId}/read`, { number }),
    onSuccess: (_v, { whatsappId, number }) => {
      void queryClient.invalidateQueries({ queryKey: simulatorKeys.outbox(whatsappId, number) });
    },
  });
}
