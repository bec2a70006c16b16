/** Queries and mutations of the settings page (document 2 sections 2 and 7 "Settings"). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Company, CompanySchedule, Setting } from '@zapdesk/shared';
import { api } from '../../lib/api';

export const settingsKeys = {
  list: () => ['settings'] as const,
  company: (id: number) => ['companies', id] as const,
};

/** GET /settings: the company's `{ key, value }` list. */
export function useSettings() {
  return useQuery({
    queryKey: settingsKeys.list(),
    queryFn: ({ signal }) => api.get<Setting[]>('/settings', undefined, signal),
  });
}

/** PUT /settings/:key; the answer replaces the key's value in the cached list. */
export function useUpdateSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, value }: Setting) => api.put<Setting>(`/settings/${key}`, { key, value }),
    onSuccess: (setting) =>
      queryClient.setQueryData<Setting[]>(settingsKeys.list(), (list) => {
        const rest = (list ?? []).filter((s) => s.key !== setting.key);
        return [...rest, setting];
      }),
  });
}

/** GET /companies/:id (its `schedules` are the company working hours). */
export function useCompany(id: number, enabled = true) {
  return useQuery({
    queryKey: settingsKeys.company(id),
    queryFn: ({ signal }) => api.get<Company>(`/companies/${id}`, undefined, signal),
    enabled,
  });
}

/** PUT /companies/:id/schedules; the answer goes into the cached company. */
export function useSaveSchedules(companyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (schedules: CompanySchedule[]) =>
      api.put<{ schedules: CompanySchedule[] }>(`/companies/${companyId}/schedules`, { schedules }),
    onSuccess: ({ schedules }) =>
      queryClient.setQueryData<Company>(settingsKeys.company(companyId), (company) =>
        company ? { ...company, schedules } : company,
      ),
  });
}
