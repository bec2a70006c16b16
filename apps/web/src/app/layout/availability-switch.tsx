import { Button } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { AvailabilityDot } from '../../features/users/availability-dot';
import { useAvailability } from './use-availability';

/**
 * The top bar's availability switch on wide screens: a small button showing the signed-in user's
 * status ('Disponível' or 'Ausente') that switches to the other one (docs/automation.md).
 */
export function AvailabilitySwitch() {
  const { t } = useTranslation();
  const { current, busy, toggle } = useAvailability();
  const status = t(`topbar.availability.${current}`);
  return (
    <Button
      color="inherit"
      size="small"
      data-testid="availability-switch"
      data-availability={current}
      aria-label={t('topbar.availability.switch', { status })}
      disabled={busy}
      onClick={toggle}
      startIcon={<AvailabilityDot availability={current} />}
      sx={{ textTransform: 'none', whiteSpace: 'nowrap', mx: 0.5 }}
    >
      {status}
    </Button>
  );
}
