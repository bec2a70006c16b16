import { Chip } from '@mui/material';
import type { CampaignStatus } from '@zapdesk/shared';
import { useTranslation } from 'react-i18next';

const COLORS: Record<CampaignStatus, 'default' | 'info' | 'warning' | 'error' | 'success'> = {
  INATIVA: 'default',
  PROGRAMADA: 'info',
  EM_ANDAMENTO: 'warning',
  CANCELADA: 'error',
  FINALIZADA: 'success',
};

/** A campaign's status with the spec's label (document 2 section 4). */
export function CampaignStatusChip({ status, testId }: { status: CampaignStatus; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      color={COLORS[status] ?? 'default'}
      label={t(`campaigns.status.${status}`, { defaultValue: status })}
      data-testid={testId}
    />
  );
}
