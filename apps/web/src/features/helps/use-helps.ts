/** Queries and mutations of helps (document 2 sections 2 and 7, document 3 Helps). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Help, HelpBody } from '@zapdesk/shared';
import { api } from '../../lib/api';

export const helpsKeys = { all: ['helps'] as const, list: () => ['helps', 'list'] as const };

/** The embedded player URL of a YouTube video id (privacy-enhanced host, allowed by the CSP). */
export const helpVideoUrl = (video: string) =>
  `https://www.youtube-nocookie.com/embed/${encodeURIComponent(video)}?autoplay=1`;

/** The thumbnail URL of a YouTube video id (host allowed by the CSP). */
export const helpThumbnailUrl = (video: string) =>
  `https://i.ytimg.com/vi/${encodeURIComponent(video)}/hqdefault.jpg`;

/** GET /helps/list: every help card. */
export function useHelpsList() {
  return useQuery({
    queryKey: helpsKeys.list(),
    queryFn: ({ signal }) => api.get<Help[]>('/helps/list', undefined, signal),
  });
}

/** POST /helps or PUT /helps/:id (super user). */
export function useSaveHelp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number | null; body: HelpBody }) =>
      typeof id === 'number' ? api.put<Help>(`/helps/${id}`, body) : api.post<Help>('/helps', body),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: helpsKeys.all }),
  });
}

/** DELETE /helps/:id (super user). */
export function useDeleteHelp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/helps/${id}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: helpsKeys.all }),
  });
}
