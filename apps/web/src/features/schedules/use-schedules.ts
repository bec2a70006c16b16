/** Queries and mutations of the schedules page (document 2 section 5 "Schedules"). */
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChannelPayloads, Schedule, ScheduleBody, SchedulesPage } from '@zapdesk/shared';
import { api } from '../../lib/api';
import { type MediaSaveInput, saveWithMedia } from '../../lib/save-with-media';

export const schedulesKeys = {
  all: ['schedules'] as const,
  list: (search: string) => ['schedules', 'list', search] as const,
};

/** How many pages of 20 the calendar loads at most (1,000 schedules). */
const MAX_PAGES = 50;

/** Every schedule matching `search` (GET /schedules page after page while `hasMore`), for the calendar. */
export function useSchedules(search: string) {
  return useQuery({
    queryKey: schedulesKeys.list(search),
    queryFn: async ({ signal }) => {
      const all: Schedule[] = [];
      for (let pageNumber = 1; pageNumber <= MAX_PAGES; pageNumber++) {
        const page = await api.get<SchedulesPage>('/schedules', { searchParam: search, pageNumber }, signal);
        all.push(...page.schedules);
        if (!page.hasMore) break;
      }
      return all;
    },
  });
}

/** Saves a schedule (POST or PUT), then uploads `file` or removes the media when `removeMedia`. */
export function useSaveSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: MediaSaveInput<ScheduleBody>) =>
      saveWithMedia<Schedule, ScheduleBody>('/schedules', input),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: schedulesKeys.all }),
  });
}

/** DELETE /schedules/:id. */
export function useDeleteSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/schedules/${id}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: schedulesKeys.all }),
  });
}

/** `company-{id}-schedule`: refetches the calendar (a schedule was saved, sent, failed or deleted). */
export function applyScheduleEvent(queryClient: QueryClient, _payload: ChannelPayloads['schedule']): void {
  void queryClient.invalidateQueries({ queryKey: schedulesKeys.all });
}
