import { Dialog, DialogTitle } from '@mui/material';
import type { ReactNode } from 'react';

export interface DialogFrameProps {
  /** Defaults to true (dialogs mounted only while shown). */
  open?: boolean;
  onClose: () => void;
  title: ReactNode;
  /** The title's id, which then labels the dialog. */
  titleId?: string;
  /** MUI's default ('sm') when absent. */
  maxWidth?: 'xs' | 'sm' | 'md';
  fullWidth?: boolean;
  scroll?: 'paper' | 'body';
  /** The dialog's data-testid. */
  testId?: string;
  /** What follows the title: the content and actions. */
  children: ReactNode;
}

/** A modal dialog with its title (labelling it when `titleId` is given), then `children`. */
export function DialogFrame({ open = true, title, titleId, testId, children, ...dialog }: DialogFrameProps) {
  return (
    <Dialog open={open} {...dialog} aria-labelledby={titleId} data-testid={testId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      {children}
    </Dialog>
  );
}
