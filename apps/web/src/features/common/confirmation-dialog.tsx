import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';

interface ConfirmationDialogProps {
  open: boolean;
  title: string;
  message: string;
  onClose: () => void;
  onConfirm: () => void;
}

/** A yes/no dialog; `onConfirm` runs and the dialog closes when the user confirms. */
export function ConfirmationDialog({ open, title, message, onClose, onConfirm }: ConfirmationDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="confirmation-dialog-title">
      <DialogTitle id="confirmation-dialog-title">{title}</DialogTitle>
      <DialogContent>
        <DialogContentText>{message}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.no')}</Button>
        <Button
          variant="contained"
          color="error"
          data-testid="confirm-button"
          onClick={() => {
            onClose();
            onConfirm();
          }}
        >
          {t('common.yes')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

interface ConfirmDeleteDialogProps<T extends { id: number }> {
  /** The record to delete; the dialog is open while it is set. */
  target: T | null;
  title: string;
  message: string;
  /** The toast shown once the record is deleted. */
  deletedMessage: string;
  /** The delete mutation, called with the record's id. */
  remove: { mutate: (id: number, options: { onSuccess: () => void }) => void };
  onClose: () => void;
}

/** The ConfirmationDialog of a list page's delete: on yes, deletes `target` and toasts on success. */
export function ConfirmDeleteDialog<T extends { id: number }>({
  target,
  title,
  message,
  deletedMessage,
  remove,
  onClose,
}: ConfirmDeleteDialogProps<T>) {
  return (
    <ConfirmationDialog
      open={target !== null}
      title={title}
      message={message}
      onClose={onClose}
      onConfirm={() => {
        if (target) remove.mutate(target.id, { onSuccess: () => toast.success(deletedMessage) });
      }}
    />
  );
}
