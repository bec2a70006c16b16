/** Queries and mutations of announcements (document 2 sections 2 and 7; core top bar). */
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Announcement, AnnouncementBody, AnnouncementsPage, ChannelPayloads } from '@zapdesk/shared';
import { api } from '../../lib/api';
import { API_BASE } from '../../lib/config';
import { useSearchedList } from '../../lib/record-queries';
import { type MediaSaveInput, saveWithMedia } from '../../lib/save-with-media';

export const announcementsKeys = {
  all: ['announcements'] as const,
  list: (search: string) => ['announcements', 'page', search] as const,
};

/** URL of an announcement's image (fetched with the token, see useMediaUrl). */
export const announcementMediaUrl = (id: number) => `${API_BASE}/announcements/${id}/media`;

/**
 * GET /announcements?searchParam=&pageNumber= as an infinite list: the active ones for users, all
 * for the super user; highest priority, then newest first.
 */
export function useAnnouncementsList(search: string) {
  return useSearchedList<AnnouncementsPage>(announcementsKeys.list(search), '/announcements', search);
}

/** Saves an announcement (POST or PUT), then uploads `file` or removes the image when `removeMedia`. */
export function useSaveAnnouncement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: MediaSaveInput<AnnouncementBody>) =>
      saveWithMedia<Announcement, AnnouncementBody>('/announcements', input),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: announcementsKeys.all }),
  });
}

/** DELETE /announcements/:id. */
export function useDeleteAnnouncement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/announcements/${id}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: announcementsKeys.all }),
  });
}

/** `company-{id}-announcement`: any change reloads the announcement lists (top bar and page). */
export function applyAnnouncementEvent(
  queryClient: QueryClient,
  _payload: ChannelPayloads['announcement'],
): void {
  void queryClient.invalidateQueries({ queryKey: announcementsKeys.all });
}

const READ_KEY = 'announcementsRead';

/** Ids of the announcements this browser's user has read (stored in localStorage per user). */
export function readAnnouncementIds(userId: number): Set<number> {
  try {
    const stored = JSON.parse(localStorage.getItem(`${READ_KEY}:${userId}`) ?? '[]');
    return new Set(Array.isArray(stored) ? stored.filter((id) => typeof id === 'number') : []);
  } catch {
    return new Set();
  }
}

/** Marks `ids` read for `userId`, keeping only ids still listed so the stored list stays small. */
export function markAnnouncementsRead(userId: number, ids: number[]): void {
  localStorage.setItem(`${READ_KEY}:${userId}`, JSON.stringify([...new Set(ids)]));
}
