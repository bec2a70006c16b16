/** Queries and mutations of plans, invoices, subscription and billing settings (document 3 section 7). */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type AdminInvoice,
  type BillingInfo,
  type BillingProfile,
  INVOICES_PAGE_SIZE,
  type Invoice,
  type ListPlanResponse,
  type PaymentResult,
  type PixSettings,
  type Plan,
  type PublicUser,
  type SubscribeBody,
  type SubscribeResponse,
  USER_BILLING_FIELDS,
} from '@zapdesk/shared';
import { api, apiRequest } from '../../lib/api';
import { readSession } from '../../lib/storage';
import { runCrmCheckout } from './crm-flow';

export const billingKeys = {
  all: ['billing'] as const,
  plans: () => ['billing', 'plans'] as const,
  info: () => ['billing', 'info'] as const,
  profile: () => ['billing', 'profile'] as const,
  invoices: () => ['billing', 'invoices'] as const,
  admin: () => ['billing', 'admin-invoices'] as const,
  pix: () => ['billing', 'pix-settings'] as const,
  companyPlan: () => ['billing', 'company-plan'] as const,
  user: (id: number) => ['billing', 'user', id] as const,
};

/**
 * GET /companies/listPlan/{companyId}, never from the browser cache (the server allows a private
 * 5 s cache; a plan just changed must show at once).
 */
export const companyPlanQuery = (companyId: number) => ({
  queryKey: billingKeys.companyPlan(),
  queryFn: ({ signal }: { signal?: AbortSignal }) =>
    apiRequest<ListPlanResponse>(`/companies/listPlan/${companyId}`, { signal, cache: 'no-store' }),
  staleTime: 0,
});

/** GET /plans/list. */
export const usePlans = () =>
  useQuery({
    queryKey: billingKeys.plans(),
    queryFn: ({ signal }) => api.get<Plan[]>('/plans/list', undefined, signal),
  });

/** GET /billing/info: provider and whether the platform Pix key is set. */
export const useBillingInfo = () =>
  useQuery({
    queryKey: billingKeys.info(),
    queryFn: ({ signal }) => api.get<BillingInfo>('/billing/info', undefined, signal),
  });

/** GET /billing/profile (null when never saved). */
export const useBillingProfile = (enabled = true) =>
  useQuery({
    queryKey: billingKeys.profile(),
    queryFn: ({ signal }) => api.get<BillingProfile | null>('/billing/profile', undefined, signal),
    enabled,
  });

/** GET /invoices/all, 20 a page (infinite scroll). */
export function useInvoices() {
  return useInfiniteQuery({
    queryKey: billingKeys.invoices(),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      api.get<Invoice[]>(
        '/invoices/all',
        { companyId: readSession().companyId, pageNumber: pageParam },
        signal,
      ),
    getNextPageParam: (last, pages) => (last.length === INVOICES_PAGE_SIZE ? pages.length + 1 : undefined),
  });
}

/** GET /invoices/admin (super user): open invoices of every company. */
export const useAdminInvoices = (enabled: boolean) =>
  useQuery({
    queryKey: billingKeys.admin(),
    queryFn: ({ signal }) => api.get<AdminInvoice[]>('/invoices/admin', { status: 'open' }, signal),
    enabled,
  });

/** GET /billing/pix-settings (super user). */
export const usePixSettings = (enabled: boolean) =>
  useQuery({
    queryKey: billingKeys.pix(),
    queryFn: ({ signal }) => api.get<PixSettings>('/billing/pix-settings', undefined, signal),
    enabled,
  });

function useBillingMutation<TArgs, TResult>(fn: (args: TArgs) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => void queryClient.invalidateQueries({ queryKey: billingKeys.all }),
  });
}

/** POST /subscription: the Pix data of a new or open invoice. */
export const useSubscribe = () =>
  useBillingMutation((body: SubscribeBody) => api.post<SubscribeResponse>('/subscription', body));

/** PUT /billing/profile. */
export const useSaveBillingProfile = () =>
  useBillingMutation((body: BillingProfile) => api.put<BillingProfile>('/billing/profile', body));

/** The billing fields a user record carries (document 3: the billing profile is read from the user). */
export type UserBilling = Pick<PublicUser, (typeof USER_BILLING_FIELDS)[number]>;

/**
 * GET /users/{id}, read afresh when the billing dialog opens: the user's saved billing data. Silent:
 * without it the dialog starts from the company's billing profile.
 */
export const userBillingQuery = (userId: number) => ({
  queryKey: billingKeys.user(userId),
  queryFn: ({ signal }: { signal?: AbortSignal }) =>
    api.get<PublicUser>(`/users/${userId}`, undefined, signal),
  staleTime: 0,
  meta: { silent: true },
});

/** The billing profile the dialog starts from: the user's saved fields, else `base`'s. */
export function withUserBilling(base: BillingProfile, saved: UserBilling | null): BillingProfile {
  if (!saved) return base;
  const filled = { ...base };
  for (const field of USER_BILLING_FIELDS) if (saved[field]) Object.assign(filled, { [field]: saved[field] });
  return filled;
}

/** PUT /users/{id} with the billing fields of what the user typed in the dialog. */
export const useSaveUserBilling = (userId: number) =>
  useBillingMutation((profile: BillingProfile) =>
    api.put<PublicUser>(
      `/users/${userId}`,
      Object.fromEntries(USER_BILLING_FIELDS.map((field) => [field, profile[field]])),
    ),
  );

/** POST /invoices/:id/cancel. */
export const useCancelInvoice = () =>
  useBillingMutation((id: number) => api.post<Invoice>(`/invoices/${id}/cancel`));

/** POST /invoices/:id/pay (super user). */
export const useMarkPaid = () =>
  useBillingMutation((id: number) => api.post<PaymentResult>(`/invoices/${id}/pay`));

/** PUT /billing/pix-settings (super user). */
export const useSavePixSettings = () =>
  useBillingMutation((body: Partial<PixSettings>) => api.put<PixSettings>('/billing/pix-settings', body));

/** The CRM path of the plans page (crm-flow.ts); the invoices are read again when it settles. */
export const useCrmSubscribe = () => useBillingMutation(runCrmCheckout);
