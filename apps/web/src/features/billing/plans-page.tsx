import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import {
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type BillingPeriod,
  type BillingProfile,
  CANCELLED_SUFFIX,
  EMPTY_USER_BILLING,
  FREE_TRIAL_PLAN_NAME,
  type Invoice,
  isFreeTrialInvoice,
  type ListPlanResponse,
  PENDING_INVOICE_LIMIT,
  type Plan,
  planPrice,
  type SubscribeResponse,
  subscriptionState,
} from '@zapdesk/shared';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { ApiError, api } from '../../lib/api';
import { notifyError } from '../../lib/notify';
import { getToken } from '../../lib/storage';
import { useCurrentUser } from '../auth/session-context';
import { cancellationErrorKey, lookUpCrmCustomer, openPlanInvoice } from './crm-flow';
import { formatBRL } from './money';
import {
  billingKeys,
  companyPlanQuery,
  type UserBilling,
  useBillingInfo,
  useBillingProfile,
  useCancelInvoice,
  useCrmSubscribe,
  useInvoices,
  usePlans,
  userBillingQuery,
  useSaveBillingProfile,
  useSaveUserBilling,
  useSubscribe,
  withUserBilling,
} from './use-billing';

const BillingDialog = lazy(() => import('./billing-dialog'));
const PixDialog = lazy(() => import('./pix-dialog'));

const FLAGS = ['useCampaigns', 'useSchedules', 'useInternalChat', 'useExternalApi'] as const;

/** The plan button of section 4: label and whether it is disabled. */
export function planButton(
  plan: Plan,
  period: BillingPeriod,
  state: { subscribed: boolean; period: BillingPeriod | null },
  currentPlanId: number | null,
): { key: string; disabled: boolean } {
  if (!state.subscribed) return { key: 'subscribe', disabled: false };
  if (plan.id !== currentPlanId) return { key: 'changePlan', disabled: false };
  if (state.period === period) return { key: 'currentPlan', disabled: true };
  return { key: period === 'ANUAL' ? 'toAnnual' : 'toMonthly', disabled: false };
}

/**
 * /planos (document 3 sections 2, 4, 8 and 9): monthly/annual toggle, one card per plan ('Teste
 * Gratis' hidden) with limits and flags, prices in BRL (annual 12 × monthly × 0.8, 'Economize
 * 20%'), button states derived from the invoices, the billing-data dialog, the Pix checkout and
 * the cancellation of the current plan.
 */
export function PlansPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = useCurrentUser();
  const [period, setPeriod] = useState<BillingPeriod>('MENSAL');
  const [chosen, setChosen] = useState<Plan | null>(null);
  const [checkout, setCheckout] = useState<SubscribeResponse | null>(null);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [replaced, setReplaced] = useState<Invoice | null>(null);
  const [crm, setCrm] = useState<{ customerId: string | null; open: Invoice | null }>({
    customerId: null,
    open: null,
  });
  const plans = usePlans();
  const invoices = useInvoices();
  const profile = useBillingProfile();
  const saveProfile = useSaveBillingProfile();
  const saveUserBilling = useSaveUserBilling(user.id);
  const [ownBilling, setOwnBilling] = useState<UserBilling | null>(null);
  const subscribe = useSubscribe();
  const crmSubscribe = useCrmSubscribe();
  const info = useBillingInfo();
  const cancel = useCancelInvoice();
  const all = useMemo(() => invoices.data?.pages.flat() ?? [], [invoices.data]);
  const companyPlan = useQuery(companyPlanQuery(user.companyId));
  const currentPlanId = companyPlan.data?.plan.id ?? user.company.plan?.id ?? null;
  const state = subscriptionState(all, currentPlanId);
  const open = all.filter((i) => i.status === 'open');
  const visiblePlans = (plans.data ?? []).filter((p) => p.name !== FREE_TRIAL_PLAN_NAME);

  const isCrm = info.data?.provider === 'crm';

  // The inconsistency is shown as soon as the invoices tell it, not only after a click.
  useEffect(() => {
    if (state.inconsistent) toast.error(t('billing.inconsistent'), { toastId: 'billing-inconsistent' });
  }, [state.inconsistent, t]);

  /** Steps 1 and 2 of the subscribe flow: pending invoices read again, then the CRM customer. */
  const start = async (plan: Plan) => {
    // The session's token went away meanwhile (signed out in another tab): nothing is sent.
    if (!getToken()) {
      toast.error(t('billing.notAuthenticated'), { toastId: 'billing-not-authenticated' });
      return;
    }
    if (state.inconsistent) {
      toast.error(t('billing.inconsistent'), { toastId: 'billing-inconsistent' });
      return;
    }
    // The company's plan and due date, read again (section 8: lookup errors, no due date).
    let lookup: ListPlanResponse;
    try {
      lookup = await queryClient.fetchQuery(companyPlanQuery(user.companyId));
    } catch (err) {
      const noPlan = err instanceof ApiError && err.code === 'ERR_NO_PLAN_FOUND';
      toast.error(t(noPlan ? 'billing.planNotVerified' : 'billing.planLookupFailed'));
      return;
    }
    if (!lookup.plan?.id) {
      toast.error(t('billing.planNotVerified'));
      return;
    }
    if (!lookup.dueDate) {
      toast.error(t('billing.noUserFound'));
      return;
    }
    let fresh: Invoice[];
    try {
      fresh = await api.get<Invoice[]>('/invoices/all', { companyId: user.companyId, pagenumber: 1 });
    } catch {
      toast.error(t('billing.pendingCheckFailed'));
      return;
    }
    if (fresh.filter((i) => i.status === 'open').length >= PENDING_INVOICE_LIMIT) {
      toast.error(`${t('billing.pendingTitle')} ${t('billing.pendingText')}`);
      return;
    }
    if (isCrm) {
      try {
        const customerId = await lookUpCrmCustomer(profile.data?.name ?? user.company.name);
        setCrm({ customerId, open: openPlanInvoice(fresh) });
      } catch (err) {
        if (err instanceof ApiError && err.code && err.code.startsWith('ERR_CRM_')) notifyError(err);
        else toast.error(t('errors.ERR_CRM_VERIFY'));
        return;
      }
    }
    // The dialog starts from what the user saved (GET /users/{id}), read again now.
    setOwnBilling(await queryClient.fetchQuery(userBillingQuery(user.id)).catch(() => null));
    setReplaced(isCrm ? null : openPlanInvoice(fresh, 'manual'));
    setChosen(plan);
  };

  const confirm = async (data: BillingProfile) => {
    if (!chosen) return;
    try {
      // What the user typed is theirs to keep (PUT /users/{id}) and the invoice's (the profile).
      await saveUserBilling.mutateAsync(data);
      await saveProfile.mutateAsync(data);
      if (isCrm) {
        const created = await crmSubscribe.mutateAsync({
          profile: data,
          plan: chosen,
          period,
          customerId: crm.customerId,
          open: crm.open,
          company: { id: user.companyId, name: user.company.name, dueDate: user.company.dueDate ?? null },
          onStep: ({ kind, key }) => toast[kind](t(key)),
        });
        setChosen(null);
        navigate('/financeiro');
        if (created.link) window.open(created.link, '_blank', 'noopener');
        return;
      }
      const answer = await subscribe.mutateAsync({ planId: chosen.id, period });
      // A plan or period change replaces the open manual invoice: it is cancelled once the new one
      // exists, so the change never leaves two open invoices behind.
      const changed = replaced !== null && replaced.id !== answer.invoice.id;
      if (changed) await cancel.mutateAsync(replaced.id);
      toast.success(changed || state.subscribed ? t('billing.planUpdated') : t('billing.invoiceCreated'));
      setChosen(null);
      setCheckout(answer);
    } catch (err) {
      // An API error shows its own message; anything else is the process's generic one.
      if (err instanceof ApiError) notifyError(err);
      else toast.error(t('billing.processError'));
    }
  };

  /** 'Sim, Cancelar Assinatura': the open invoices cancelled (a CRM one by the CANCELADO suffix). */
  const cancelCurrent = async () => {
    setConfirmCancel(false);
    if (!currentPlanId) {
      toast.error(t('billing.cancelNoPlan'));
      return;
    }
    const targets = open.filter((i) => !isFreeTrialInvoice(i));
    if (targets.length === 0) {
      toast.error(t('billing.cancelNoInvoice'));
      return;
    }
    toast.info(t('billing.cancelling'));
    try {
      for (const invoice of targets) {
        if (invoice.provider === 'crm') {
          await api.put('/crm-update-invoice', {
            invoiceData: { status: 'open', detail: `${invoice.detail} ${CANCELLED_SUFFIX}` },
          });
        } else await cancel.mutateAsync(invoice.id);
      }
      toast.success(t('billing.cancelled'));
      navigate('/financeiro');
    } catch (err) {
      toast.error(t(cancellationErrorKey(err)));
    } finally {
      void queryClient.invalidateQueries({ queryKey: billingKeys.all });
    }
  };

  const companyProfile: BillingProfile = profile.data ?? {
    name: user.company.name,
    email: user.email,
    ...EMPTY_USER_BILLING,
    country: 'BR',
  };

  return (
    <Stack spacing={2} data-testid="plans-page">
      <Stack direction="row" alignItems="center" spacing={2} flexWrap="wrap">
        <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }}>
          {t('billing.plansTitle')}
        </Typography>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={period}
          onChange={(_e, value: BillingPeriod | null) => value && setPeriod(value)}
        >
          <ToggleButton value="MENSAL" data-testid="period-monthly">
            {t('billing.monthly')}
          </ToggleButton>
          <ToggleButton value="ANUAL" data-testid="period-annual">
            {t('billing.annual')}
          </ToggleButton>
        </ToggleButtonGroup>
        {period === 'ANUAL' && <Chip color="success" label={t('billing.save20')} data-testid="save-chip" />}
        {state.subscribed && (
          <Button color="error" variant="outlined" onClick={() => setConfirmCancel(true)}>
            {t('billing.cancelCurrent')}
          </Button>
        )}
      </Stack>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))' }}>
        {visiblePlans.map((plan) => {
          const button = planButton(plan, period, state, currentPlanId);
          return (
            <Card key={plan.id} variant="outlined" data-testid={`plan-card-${plan.name}`}>
              <CardContent>
                <Typography variant="h6">{plan.name}</Typography>
                <Typography variant="h5" data-testid="plan-price">
                  {formatBRL(planPrice(plan.value, period))}
                  <Typography component="span" variant="body2" color="text.secondary">
                    {period === 'ANUAL' ? t('billing.perYear') : t('billing.perMonth')}
                  </Typography>
                </Typography>
                <Typography variant="body2">{t('billing.users', { count: plan.users })}</Typography>
                <Typography variant="body2">
                  {t('billing.connections', { count: plan.connections })}
                </Typography>
                <Typography variant="body2">{t('billing.queues', { count: plan.queues })}</Typography>
                {FLAGS.map((flag) => (
                  <Stack key={flag} direction="row" spacing={0.5} alignItems="center">
                    {plan[flag] ? (
                      <CheckIcon fontSize="small" color="success" />
                    ) : (
                      <CloseIcon fontSize="small" color="disabled" />
                    )}
                    <Typography variant="body2">{t(`billing.flags.${flag}`)}</Typography>
                  </Stack>
                ))}
              </CardContent>
              <CardActions>
                <Button
                  variant="contained"
                  fullWidth
                  disabled={button.disabled}
                  onClick={() => void start(plan)}
                  data-testid={`plan-button-${plan.name}`}
                >
                  {t(`billing.buttons.${button.key}`)}
                </Button>
              </CardActions>
            </Card>
          );
        })}
      </Box>
      <Suspense fallback={null}>
        {chosen && (
          <BillingDialog
            open
            initial={withUserBilling(companyProfile, ownBilling)}
            busy={
              saveUserBilling.isPending ||
              saveProfile.isPending ||
              subscribe.isPending ||
              crmSubscribe.isPending
            }
            onClose={() => setChosen(null)}
            onConfirm={(data) => void confirm(data)}
          />
        )}
        {checkout && <PixDialog data={checkout} onClose={() => setCheckout(null)} />}
      </Suspense>
      <Dialog open={confirmCancel} onClose={() => setConfirmCancel(false)}>
        <DialogTitle>{t('billing.cancelCurrent')}</DialogTitle>
        <DialogContent>{t('billing.cancelConfirm')}</DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirmCancel(false)}>{t('billing.back')}</Button>
          <Button color="error" variant="contained" onClick={() => void cancelCurrent()}>
            {t('billing.cancelYes')}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
