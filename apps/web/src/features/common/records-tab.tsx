import { Button, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';

export interface RecordsTabProps {
  /** The tab's data-testid. */
  testId: string;
  /** The add button: its text, data-testid and what it does. */
  add: { label: string; testId: string; onClick: () => void };
  /** The list came back empty: `emptyText` stands below it. */
  empty: boolean;
  emptyText: string;
  /** The list (a table or a List). */
  children: ReactNode;
  /** The open add/edit dialog, if any. */
  modal?: ReactNode;
  /** The delete confirmation, as `useConfirmDelete` gives it. */
  deleteDialog: ReactNode;
}

/**
 * A settings tab that keeps a short list of records (the super user's companies, plans, helps): the
 * add button above the list, the empty text below it, the add/edit dialog and the delete confirmation.
 */
export function RecordsTab({
  testId,
  add,
  empty,
  emptyText,
  children,
  modal,
  deleteDialog,
}: RecordsTabProps) {
  return (
    <Stack spacing={2} data-testid={testId}>
      <Stack direction="row" justifyContent="flex-end">
        <Button variant="contained" onClick={add.onClick} data-testid={add.testId}>
          {add.label}
        </Button>
      </Stack>
      {children}
      {empty && <Typography color="text.secondary">{emptyText}</Typography>}
      {modal}
      {deleteDialog}
    </Stack>
  );
}
