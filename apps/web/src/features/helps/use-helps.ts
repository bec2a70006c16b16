/** Queries and mutations of helps (document 2 sections 2 and 7, document 3 Helps). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Help, HelpBody } from '@zapdesk/shared';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api';
import { showToast } from '../../lib/notify';
import { saveRecord } from '../../lib/record-queries';

export const helpsKeys = { all: ['helps'] as const, list: () => ['helps', 'list'] as const };

/** The embedded player URL of a YouTube video id (privacy-enhanced host, allowed by the CSP). */
export const helpVideoUrl = (video: string) =>
  `https://www.youtube-nocookie.com/embed/${encodeURIComponent(video)}?autoplay=1`;

/** The thumbnail URL of a YouTube video id (host allowed by the CSP). */
export const helpThumbnailUrl = (video: string) =>
  `https://i.ytimg.com/vi/${encodeURIComponent(video)}/hqdefault.jpg`;

/**
 * GET /helps/list: every help card. A failed load shows the helps' own error toast (document 3
 * "Helps": listing failures toast), whatever the answer carried.
 */
export function useHelpsList() {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: helpsKeys.list(),
    queryFn: ({ signal }) => api.get<Help[]>('/helps/list', undefined, signal),
    meta: { silent: true },
  });
  useEffect(() => {
    if (query.isError) showToast('error', t('helps.toasts.loadError'), { toastId: 'helps-load-error' });
  }, [query.isError, t]);
  return query;
}

/** POST /helps or PUT /helps/:id (super user). */
export function useSaveHelp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number | null; body: HelpBody }) =>
      saveRecord<Help>('/helps', id, body),
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
