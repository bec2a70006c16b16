/** Queries and mutations of the super user's plans and companies administration (document 3 section 7). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CompanyBody, CompanyRow, Plan, PlanBody } from '@zapdesk/shared';
import { api } from '../../lib/api';
import { notifyError } from '../../lib/notify';

export const accountsKeys = {
  plans: ['plans', 'all'] as const,
  companies: ['companies', 'admin-list'] as const,
};

/** GET /plans/all: every plan. */
export function usePlans() {
  return useQuery({
    queryKey: accountsKeys.plans,
    queryFn: ({ signal }) => api.get<Plan[]>('/plans/all', undefined, signal),
  });
}

/** POST /plans or PUT /plans/:id (super user). */
export function useSavePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: PlanBody }) =>
      id ? api.put<Plan>(`/plans/${id}`, body) : api.post<Plan>('/plans', body),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['plans'] }),
  });
}

/** DELETE /plans/:id (super user); ERR_PLAN_IN_USE (its own toast) when companies use it. */
export function useDeletePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    onError: notifyError,
    mutationFn: (id: number) => api.delete(`/plans/${id}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['plans'] }),
  });
}

/** GET /companies/list: every company with its plan and number of users (super user). */
export function useCompanies() {
  return useQuery({
    queryKey: accountsKeys.companies,
    queryFn: ({ signal }) => api.get<CompanyRow[]>('/companies/list', undefined, signal),
  });
}

/** POST /companies or PUT /companies/:id (super user). */
export function useSaveCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: Partial<CompanyBody> }) =>
      id ? api.put<CompanyRow>(`/companies/${id}`, body) : api.post<CompanyRow>('/companies', body),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: accountsKeys.companies }),
  });
}

/** POST /companies/:id/extend: the Expire action (dueDate + the recurrence's months). */
export function useExtendCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<CompanyRow>(`/companies/${id}/extend`),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: accountsKeys.companies }),
  });
}

/** DELETE /companies/:id (super user). */
export function useDeleteCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/companies/${id}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: accountsKeys.companies }),
  });
}

/** BRL with a comma (document 3 section 9). */
export const formatBrl = (value: number) =>
  new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(value);
