/**
 * Calls of the flow editor's test panel ("test this flow"): start a test run on a
 * simulator phone, follow the run's node. The conversation itself is the ticket's message history
 * (`useMessages` of the ticket view), kept live by the app's realtime events.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import type { FlowTestBody, FlowTestRun, TicketFlowRun } from '@zapdesk/shared';
import { api } from '../../lib/api';
import { ticketViewKeys } from '../ticket-view/messages-cache';

/** While a test run is live its node is asked again every 2 s (steps that send nothing move it too). */
export const FLOW_TEST_POLL_MS = 2_000;

/** POST /flowbuilder/:id/test { whatsappId, number }: answers the ticket the run started on. */
export function useStartFlowTest(flowId: number) {
  return useMutation({
    mutationFn: (body: FlowTestBody) => api.post<FlowTestRun>(`/flowbuilder/${flowId}/test`, body),
  });
}

/**
 * GET /tickets/:id/flow-run for the test ticket: asked again when the newest message changes
 * (`newestMessageId`) and every FLOW_TEST_POLL_MS while the run is live; null once it has ended.
 * `startedAt` (the start's time) keeps answers of an earlier run apart.
 */
export function useTestRunNode(ticketId: number | null, startedAt: number, newestMessageId: number) {
  return useQuery({
    queryKey: [...ticketViewKeys.flowRun(ticketId ?? 0), 'test', startedAt, newestMessageId],
    queryFn: ({ signal }) => api.get<TicketFlowRun>(`/tickets/${ticketId}/flow-run`, undefined, signal),
    enabled: ticketId !== null,
    retry: false,
    placeholderData: (previous) => previous,
    refetchInterval: (query) => (query.state.data ? FLOW_TEST_POLL_MS : false),
    meta: { silent: true },
  });
}
