import { Alert } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { usePlanFlag } from '../bots/use-bots';

/**
 * The flow screens need a plan with campaigns: the server gates every /flowbuilder and
 * /flowcampaign call by useCampaigns (docs/automation.md, "Flow builder screens"). Without it the
 * page explains why instead of failing call after call.
 */
export function FlowPlanGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const allowed = usePlanFlag('useCampaigns');
  if (!allowed)
    return (
      <Alert severity="info" data-testid="flows-no-plan">
        {t('flows.noPlan')}
      </Alert>
    );
  return <>{children}</>;
}
