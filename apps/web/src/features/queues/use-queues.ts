/** Queries and mutations of the queues page (document 2 section 7 "Queues"). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CreateQueueOptionBody,
  Queue,
  QueueBody,
  QueueDetail,
  QueueOption,
  Setting,
  UpdateQueueOptionBody,
} from '@zapdesk/shared';
import { api } from '../../lib/api';
import { saveRecord, useRecordQuery } from '../../lib/record-queries';

export const queuesKeys = {
  list: () => ['queues'] as const,
  detail: (id: number) => ['queues', id] as const,
};

/**
 * GET /queue: the company's queues by order — one cache entry for the queues page and every queue
 * picker (user modal, connection modal, ticket filters, new ticket). `silent` leaves failures to the
 * caller instead of the global error toast.
 */
export function useQueueList(options: { enabled?: boolean; silent?: boolean } = {}) {
  return useQuery({
    queryKey: queuesKeys.list(),
    queryFn: ({ signal }) => api.get<Queue[]>('/queue', undefined, signal),
    enabled: options.enabled ?? true,
    ...(options.silent ? { meta: { silent: true } } : {}),
  });
}

/** GET /queue/:id (schedules and options tree), when `id` is set. */
export function useQueueDetail(id: number | null | undefined) {
  return useRecordQuery<QueueDetail>(queuesKeys.detail(id ?? 0), '/queue', id);
}

/** GET /settings, read for `scheduleType` (shares the settings page's cache entry). */
export function useScheduleType() {
  const query = useQuery({
    queryKey: ['settings'],
    queryFn: ({ signal }) => api.get<Setting[]>('/settings', undefined, signal),
  });
  return query.data?.find((s) => s.key === 'scheduleType')?.value;
}

/** POST /queue (no id) or PUT /queue/:id; refreshes the list and the detail. */
export function useSaveQueue() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number | null; body: QueueBody }) =>
      saveRecord<QueueDetail>('/queue', id, body),
    onSuccess: (queue) => {
      queryClient.setQueryData(queuesKeys.detail(queue.id), queue);
      void queryClient.invalidateQueries({ queryKey: queuesKeys.list(), exact: true });
    },
  });
}

/** DELETE /queue/:id. */
export function useDeleteQueue() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/queue/${id}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queuesKeys.list(), exact: true }),
  });
}

/** Option writes (POST, PUT, DELETE /queue-options); each refetches the queue's tree. */
export function useQueueOptionMutations(queueId: number) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: queuesKeys.detail(queueId) });
  const add = useMutation({
    mutationFn: (body: CreateQueueOptionBody) => api.post<QueueOption>('/queue-options', body),
    onSuccess: refresh,
  });
  const update = useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateQueueOptionBody }) =>
      api.put<QueueOption>(`/queue-options/${id}`, body),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: number) => api.delete(`/queue-options/${id}`),
    onSuccess: refresh,
  });
  return { add, update, remove };
}
