/** Queries and mutations of the quick messages page (document 2 section 7 "Quick messages"). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { QuickMessage, QuickMessageBody, QuickMessagesPage } from '@zapdesk/shared';
import { api } from '../../lib/api';
import { usePagedList } from '../../lib/record-queries';
import { type MediaSaveInput, saveWithMedia } from '../../lib/save-with-media';

export const quickMessagesKeys = {
  all: ['quick-messages'] as const,
  list: (search: string) => ['quick-messages', 'page', search] as const,
};

/** GET /quick-messages?searchParam=&pageNumber=&userId= as an infinite list. */
export function useQuickMessagesList(search: string, userId: number) {
  return usePagedList<QuickMessagesPage>(quickMessagesKeys.list(search), '/quick-messages', (pageNumber) => ({
    searchParam: search,
    pageNumber,
    userId,
  }));
}

/**
 * Saves a quick message (POST or PUT), then uploads `file` (POST /:id/media-upload, multipart
 * 'file' and typeArch 'quickMessage') or removes the media when `removeMedia`.
 */
export function useSaveQuickMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: MediaSaveInput<QuickMessageBody>) =>
      saveWithMedia<QuickMessage, QuickMessageBody>('/quick-messages', input, { typeArch: 'quickMessage' }),
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
