import { Button, DialogActions } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A dialog's actions row: the cancel button (`onCancel`; 'cancel' unless `cancelLabel` is given),
 * then the contained main action (`onAction`, `actionLabel`, disabled while `disabled`; `actionTestId`
 * is its data-testid).
 */
export function DialogActionButtons({
  onCancel,
  cancelLabel,
  onAction,
  actionLabel,
  actionTestId,
  disabled,
}: {
  onCancel: () => void;
  cancelLabel?: ReactNode;
  onAction: () => void;
  actionLabel: ReactNode;
  actionTestId: string;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  return (
    <DialogActions>
      <Button onClick={onCancel}>{cancelLabel ?? t('common.cancel')}</Button>
      <Button variant="contained" disabled={disabled} onClick={onAction} data-testid={actionTestId}>
        {actionLabel}
      </Button>
    </DialogActions>
  );
}
