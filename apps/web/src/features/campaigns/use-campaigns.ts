/** Queries and mutations of the campaign pages (document 2 section 7 "Campaigns"). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Campaign,
  CampaignBody,
  CampaignDetail,
  CampaignSettings,
  CampaignShippingStatus,
  CampaignShippingsPage,
  CampaignsPage,
  FileListsPage,
  Tag,
} from '@zapdesk/shared';
import { api } from '../../lib/api';
import { usePagedList, useRecordQuery, useSearchedList } from '../../lib/record-queries';
import { type MediaSaveInput, saveWithMedia } from '../../lib/save-with-media';
import { campaignKeys } from './campaigns-live';

export { applyCampaignEvent, campaignKeys } from './campaigns-live';

/** GET /campaigns?searchParam=&pageNumber= as an infinite list. */
export function useCampaigns(search: string) {
  return useSearchedList<CampaignsPage>(campaignKeys.list(search), '/campaigns', search);
}

/** GET /campaigns/:id (the campaign with its report totals) when `id` is set. */
export function useCampaign(id: number | null | undefined) {
  return useRecordQuery<CampaignDetail>(campaignKeys.detail(id ?? 0), '/campaigns', id);
}

/** Replaces spaces in a media file's name by underscores (document 2 section 5). */
export function campaignMediaFile(file: File): File {
  const name = file.name.replace(/\s+/g, '_');
  return name === file.name ? file : new File([file], name, { type: file.type });
}

/**
 * Saves a campaign (POST or PUT), then uploads `file` (POST /campaigns/:id/media-upload, field
 * `file`) or removes the stored media (DELETE …/media-upload) when `removeMedia`.
 */
export function useSaveCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, ...input }: MediaSaveInput<CampaignBody>) =>
      saveWithMedia<Campaign, CampaignBody>('/campaigns', {
        ...input,
        file: file && campaignMediaFile(file),
      }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: campaignKeys.all }),
  });
}

/** DELETE /campaigns/:id. */
export function useDeleteCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/campaigns/${id}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: campaignKeys.all }),
  });
}

/**
 * POST /campaigns/:id/cancel or /restart (document 2 section 4; restarting an INATIVA campaign
 * starts it). Silent: the page shows the
 * failure's message in an error toast itself (section 8).
 */
export function useCampaignCommand() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, command }: { id: number; command: 'cancel' | 'restart' }) =>
      api.post<unknown>(`/campaigns/${id}/${command}`),
    meta: { silent: true },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: campaignKeys.all }),
  });
}

/** GET /campaign-settings: the company's settings (`{ settings }`, defaults where never saved). */
export function useCampaignSettings() {
  return useQuery({
    queryKey: campaignKeys.settings,
    queryFn: async ({ signal }) =>
      (await api.get<{ settings: CampaignSettings }>('/campaign-settings', undefined, signal)).settings,
  });
}

/** POST /campaign-settings with `{ settings }`; the answer's settings replace the cached ones. */
export function useSaveCampaignSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (settings: CampaignSettings) =>
      (await api.post<{ settings: CampaignSettings }>('/campaign-settings', { settings })).settings,
    onSuccess: (saved) => queryClient.setQueryData(campaignKeys.settings, saved),
  });
}

/**
 * GET /campaigns/:id/shippings?searchParam=&status=&pageNumber= as an infinite list (the report's
 * recipients, searched by name or number; `status` '' for all).
 */
export function useCampaignShippings(id: number, search: string, status: CampaignShippingStatus | '') {
  return usePagedList<CampaignShippingsPage>(
    campaignKeys.shippingsPage(id, search, status),
    `/campaigns/${id}/shippings`,
    (pageNumber) => ({ searchParam: search, pageNumber, status: status || undefined }),
  );
}

/** The contact lists of the dialog's picker (GET /contact-lists/list). */
export function useContactListOptions() {
  return useQuery({
    queryKey: ['contact-lists', 'options'],
    queryFn: ({ signal }) =>
      api.get<{ id: number; name: string }[]>('/contact-lists/list', undefined, signal),
  });
}

/** The company's tags (GET /tags/list): the dialog's picker and the table's tag names. */
export function useTagOptions() {
  return useQuery({
    queryKey: ['tags', 'options'],
    queryFn: ({ signal }) => api.get<Tag[]>('/tags/list', undefined, signal),
  });
}

/** How many pages of 20 file lists the picker loads at most. */
const FILE_LIST_PAGES = 10;

/** The file lists of the dialog's picker (GET /files, page after page, at most 200). */
export function useFileListOptions() {
  return useQuery({
    queryKey: ['file-lists', 'options'],
    queryFn: async ({ signal }) => {
      const all: { id: number; name: string }[] = [];
      for (let pageNumber = 1; pageNumber <= FILE_LIST_PAGES; pageNumber++) {
        const page = await api.get<FileListsPage>('/files', { pageNumber }, signal);
        all.push(...page.files.map((f) => ({ id: f.id, name: f.name })));
        if (!page.hasMore) break;
      }
      return all;
    },
  });
}
