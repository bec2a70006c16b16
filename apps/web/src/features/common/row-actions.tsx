import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/Edit';
import { IconButton } from '@mui/material';
import type { ReactNode } from 'react';

export interface ActionIconButtonProps {
  /** The accessible name (aria-label). */
  label: string;
  testId: string;
  icon: ReactNode;
  onClick: () => void;
}

/** A small icon button of a list row's actions, named by its aria-label. */
export function ActionIconButton({ label, testId, icon, onClick }: ActionIconButtonProps) {
  return (
    <IconButton size="small" aria-label={label} data-testid={testId} onClick={onClick}>
      {icon}
    </IconButton>
  );
}

export interface RowActionsProps {
  /** The row's data-testid stem: the buttons are `${testIdPrefix}-edit-${id}` and `-delete-`. */
  testIdPrefix: string;
  id: number;
  editLabel: string;
  onEdit: () => void;
  deleteLabel: string;
  /** Absent to leave the delete button out. */
  onDelete?: () => void;
  /** More buttons, before the edit button. */
  children?: ReactNode;
}

/** The edit and delete icon buttons of a list row (users, contacts, connections, queues...). */
export function RowActions({
  testIdPrefix,
  id,
  editLabel,
  onEdit,
  deleteLabel,
  onDelete,
  children,
}: RowActionsProps) {
  return (
    <>
      {children}
      <ActionIconButton
        label={editLabel}
        testId={`${testIdPrefix}-edit-${id}`}
        icon={<EditIcon fontSize="small" />}
        onClick={onEdit}
      />
      {onDelete && (
        <ActionIconButton
          label={deleteLabel}
          testId={`${testIdPrefix}-delete-${id}`}
          icon={<DeleteOutlineIcon fontSize="small" />}
          onClick={onDelete}
        />
      )}
    </>
  );
}
