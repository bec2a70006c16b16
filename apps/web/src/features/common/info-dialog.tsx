import { Button, DialogActions, DialogContent } from '@mui/material';
import type { SxProps, Theme } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogFrame, type DialogFrameProps } from './dialog-frame';

/** The frame's props (the dialog takes the full width up to `maxWidth` when given), then the content's. */
export interface InfoDialogProps extends Omit<DialogFrameProps, 'fullWidth' | 'scroll'> {
  /** The content between dividers, its sx and its data-testid. */
  dividers?: boolean;
  contentSx?: SxProps<Theme>;
  contentTestId?: string;
  /** Buttons before the close button. */
  actions?: ReactNode;
  /** The close button's label (defaults to 'close') and data-testid. */
  closeLabel?: ReactNode;
  closeTestId?: string;
}

/**
 * A dialog that shows something and only closes: title, content, and the actions row ending with the
 * close button (after any `actions`).
 */
export function InfoDialog({
  dividers,
  contentSx,
  contentTestId,
  actions,
  closeLabel,
  closeTestId,
  children,
  ...frame
}: InfoDialogProps) {
  const { t } = useTranslation();
  return (
    <DialogFrame {...frame} fullWidth={frame.maxWidth !== undefined}>
      <DialogContent dividers={dividers} sx={contentSx} data-testid={contentTestId}>
        {children}
      </DialogContent>
      <DialogActions>
        {actions}
        <Button onClick={frame.onClose} data-testid={closeTestId}>
          {closeLabel ?? t('common.close')}
        </Button>
      </DialogActions>
    </DialogFrame>
  );
}
