/** Queries and mutations of the quick messages page (document 2 section 7 "Quick messages"). */
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { QuickMessage, QuickMessageBody, QuickMessagesPage } from '@zapdesk/shared';
import { api } from '../../lib/api';

export const quickMessagesKeys = {
  all: ['quick-messages'] as const,
  list: (search: string) => ['quick-messages', 'page', search] as const,
};

/** GET /quick-messages?searchParam=&pageNumber=&userId= as an infinite list. */
export function useQuickMessagesList(search: string, userId: number) {
  return useInfiniteQuery({
    queryKey: quickMessagesKeys.list(search),
    queryFn: ({ pageParam, signal }) =>
      api.get<QuickMessagesPage>(
        '/quick-messages',
        { searchParam: search, pageNumber: pageParam, userId },
        signal,
      ),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

/**
 * Saves a quick message (POST or PUT), then uploads `file` (POST /:id/media-upload, multipart
 * 'file' and typeArch 'quickMessage') or removes the media when `removeMedia`.
 */
export function useSaveQuickMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      id,
      body,
      file,
      removeMedia,
    }: {
      id?: number | null;
      body: QuickMessageBody;
      file?: File | null;
      removeMedia?: boolean;
    }) => {
      let saved =
        typeof id === 'number'
          ? await api.put<QuickMessage>(`/quick-messages/${id}`, body)
          : await api.post<QuickMessage>('/quick-messages', body);
      if (file) {
        const form = new FormData();
        form.append('typeArch', 'quickMessage');
        form.append('file', file);
        saved = await api.post<QuickMessage>(`/quick-messages/${saved.id}/media-upload`, form);
      } else if (removeMedia && saved.mediaPath) {
        saved = await api.delete<QuickMessage>(`/quick-messages/${saved.id}/media-upload`);
      }
      return saved;
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: quickMessagesKeys.all }),
  });
}

/** DELETE /quick-messages/:id. */
export function useDeleteQuickMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/quick-messages/${id}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: quickMessagesKeys.all }),
  });
}
