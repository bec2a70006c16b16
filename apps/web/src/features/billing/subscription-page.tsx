import { Paper, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { daysUntil, formatDate } from '../../lib/format';
import { useCurrentUser } from '../auth/session-context';

/**
 * /subscription (document 3 section 2): the trial period (the company's due date) and the days
 * left, from the company's trial expiration.
 */
export function SubscriptionPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const dueDate = user.company.dueDate;
  const days = dueDate ? Math.max(0, daysUntil(dueDate)) : null;
  return (
    <Stack spacing={2} data-testid="subscription-page">
      <Typography variant="h5" component="h1">
        {t('billing.subscriptionTitle')}
      </Typography>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography>{t('billing.plan', { name: user.company.plan?.name ?? '-' })}</Typography>
        {dueDate ? (
          <>
            <Typography data-testid="trial-until">
              {t('billing.trialUntil', { date: formatDate(dueDate) })}
            </Typography>
            <Typography data-testid="trial-days">{t('billing.trialDays', { count: days ?? 0 })}</Typography>
          </>
        ) : (
          <Typography>{t('billing.noDueDate')}</Typography>
        )}
      </Paper>
    </Stack>
  );
}
