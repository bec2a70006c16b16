/** Queries and mutations of the tags page (document 2 section 7 "Tags and kanban"). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Tag, TagBody, TagsPage } from '@zapdesk/shared';
import { api } from '../../lib/api';
import { saveRecord, useRecordQuery, useSearchedList } from '../../lib/record-queries';

export const tagsKeys = {
  all: ['tags-admin'] as const,
  list: (search: string) => ['tags-admin', 'list', search] as const,
  detail: (id: number) => ['tags-admin', id] as const,
};

/** GET /tags/?searchParam=&pageNumber= as an infinite list. */
export function useTagsList(search: string) {
  return useSearchedList<TagsPage>(tagsKeys.list(search), '/tags/', search);
}

/** GET /tags/:id when `id` is set. */
export function useTag(id: number | null | undefined) {
  return useRecordQuery<Tag>(tagsKeys.detail(id ?? 0), '/tags', id);
}

/** POST /tags or PUT /tags/:id; refreshes the lists (also the inbox's /tags/list). */
export function useSaveTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number | null; body: TagBody }) => saveRecord<Tag>('/tags', id, body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: tagsKeys.all });
      void queryClient.invalidateQueries({ queryKey: ['tags'] });
    },
  });
}

/** DELETE /tags/:id. */
export function useDeleteTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/tags/${id}`),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: tagsKeys.all });
      void queryClient.invalidateQueries({ queryKey: ['tags'] });
    },
  });
}
