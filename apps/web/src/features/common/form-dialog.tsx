import { Box, Button, CircularProgress, DialogActions, DialogContent } from '@mui/material';
import type { SxProps, Theme } from '@mui/material/styles';
import type { FormEventHandler, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogFrame } from './dialog-frame';

export interface FormDialogProps {
  /** Defaults to true (dialogs mounted only while shown). */
  open?: boolean;
  onClose: () => void;
  title: string;
  /** The title's id, which labels the dialog. */
  titleId: string;
  maxWidth: 'xs' | 'sm' | 'md';
  scroll?: 'paper' | 'body';
  /** While true, a spinner stands in for the form (the record to edit is loading). */
  loading?: boolean;
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** The form's data-testid. */
  formTestId: string;
  formSx?: SxProps<Theme>;
  /** Above the content, inside the form (e.g. tabs). */
  header?: ReactNode;
  /** The save button: its label ('save' when editing, 'add' otherwise, unless given) and data-testid. */
  editing?: boolean;
  submitLabel?: ReactNode;
  submitTestId: string;
  /** The form is being submitted: the save button is disabled. */
  pending: boolean;
  /** Also disable the cancel button while pending. */
  lockCancel?: boolean;
  /** Nothing may be changed: no save button, and the cancel button reads 'close'. */
  readOnly?: boolean;
  /** The fields, inside the dialog content (with dividers). */
  children: ReactNode;
}

/**
 * An add/edit modal: Dialog with title, a form holding the content and the cancel / save actions
 * (save disabled while the form submits; no save when read-only), or a spinner while the record to
 * edit loads.
 */
export function FormDialog({
  onClose,
  loading = false,
  onSubmit,
  formTestId,
  formSx,
  header,
  editing,
  submitLabel,
  submitTestId,
  pending,
  lockCancel = false,
  readOnly = false,
  children,
  ...frame
}: FormDialogProps) {
  const { t } = useTranslation();
  return (
    <DialogFrame {...frame} onClose={onClose} fullWidth>
      {loading ? (
        <Box sx={{ display: 'grid', placeItems: 'center', p: 4 }}>
          <CircularProgress />
        </Box>
      ) : (
        <Box component="form" noValidate onSubmit={onSubmit} data-testid={formTestId} sx={formSx}>
          {header}
          <DialogContent dividers>{children}</DialogContent>
          <DialogActions>
            <Button onClick={onClose} disabled={lockCancel ? pending : undefined}>
              {readOnly ? t('common.close') : t('common.cancel')}
            </Button>
            {!readOnly && (
              <Button type="submit" variant="contained" disabled={pending} data-testid={submitTestId}>
                {submitLabel ?? (editing ? t('common.save') : t('common.add'))}
              </Button>
            )}
          </DialogActions>
        </Box>
      )}
    </DialogFrame>
  );
}
