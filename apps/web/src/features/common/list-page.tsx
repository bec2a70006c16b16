import { Stack } from '@mui/material';
import { type ReactNode, Suspense, useState } from 'react';
import { ConfirmDeleteDialog } from './confirmation-dialog';
import { ListPageHeader, type ListPageHeaderProps } from './list-page-header';

export interface ListPageProps extends ListPageHeaderProps {
  /** The page fills the window's height below the top bar (for a scrolling list); default false. */
  fill?: boolean;
  /** The page's body: its table or list. */
  children: ReactNode;
  /** The open add/edit form (usually lazy); rendered inside a Suspense with no fallback. */
  modal?: ReactNode;
  /** The delete confirmation, as `useConfirmDelete` gives it. */
  deleteDialog?: ReactNode;
  /** The page's data-testid. */
  testId?: string;
}

/**
 * A list page's frame: the header (title, search, add), the body, the lazily loaded add/edit form
 * and the delete confirmation, in a column.
 */
export function ListPage({ fill = false, children, modal, deleteDialog, testId, ...header }: ListPageProps) {
  return (
    <Stack spacing={2} sx={fill ? { height: 'calc(100vh - 112px)' } : undefined} data-testid={testId}>
      <ListPageHeader {...header} />
      {children}
      {modal && <Suspense fallback={null}>{modal}</Suspense>}
      {deleteDialog}
    </Stack>
  );
}

export interface ConfirmDeleteOptions<T> {
  /** The dialog's title for the record (null while the dialog closes). */
  title: (record: T | null) => string;
  message: string;
  /** The toast shown once the record is deleted. */
  deletedMessage: string;
  /** The delete mutation, called with the record's id. */
  remove: { mutate: (id: number, options: { onSuccess: () => void }) => void };
}

/**
 * "Delete with confirmation and toast" for a list page: `ask(record)` opens the yes/no dialog,
 * `dialog` is the element to render; on yes the record is deleted and `deletedMessage` toasted.
 */
export function useConfirmDelete<T extends { id: number }>({
  title,
  message,
  deletedMessage,
  remove,
}: ConfirmDeleteOptions<T>) {
  const [target, setTarget] = useState<T | null>(null);
  const dialog = (
    <ConfirmDeleteDialog
      target={target}
      title={title(target)}
      message={message}
      deletedMessage={deletedMessage}
      remove={remove}
      onClose={() => setTarget(null)}
    />
  );
  return { ask: setTarget as (record: T) => void, dialog };
}
