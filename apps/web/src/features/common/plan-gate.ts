import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { showToast } from '../../lib/notify';

/** How long the 'no permission' toast shows before the page goes to / (ms). */
export const PLAN_GATE_REDIRECT_MS = 1000;

/**
 * Plan gating of a page (document 2 sections 2 and 8): when `allowed` is false, an error toast that
 * the company has no permission to access the page, then a redirect to / after 1 second.
 */
export function usePlanGateRedirect(allowed: boolean): void {
  const navigate = useNavigate();
  const { t } = useTranslation();
  useEffect(() => {
    if (allowed) return;
    showToast('error', t('pages.noPlan'), { toastId: 'plan-gate' });
    const timer = setTimeout(() => navigate('/'), PLAN_GATE_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [allowed, navigate, t]);
}
