import type { PlanFlag } from '@zapdesk/shared';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { usePlanFlag } from './use-bots';

/**
 * Plan gating of the prompts and integrations pages (document 2 section 2): without the flag, an
 * error toast that the company has no permission, then a redirect to / after 1 second.
 * @returns whether the page may show.
 */
export function usePlanGate(flag: PlanFlag): boolean {
  const allowed = usePlanFlag(flag);
  const navigate = useNavigate();
  const { t } = useTranslation();
  useEffect(() => {
    if (allowed) return;
    toast.error(t('bots.noPlan'));
    const timer = setTimeout(() => navigate('/'), 1000);
    return () => clearTimeout(timer);
  }, [allowed, navigate, t]);
  return allowed;
}
