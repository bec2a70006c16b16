import { TableCell } from '@mui/material';
import { RowActions, type RowActionsProps } from './row-actions';

/**
 * RowActions in a table row's last cell, centred: the actions column of a list page's table. A file
 * of its own, so pages without a table (the schedules calendar) do not load MUI's table cell.
 */
export function RowActionsCell(props: RowActionsProps) {
  return (
    <TableCell align="center">
      <RowActions {...props} />
    </TableCell>
  );
}
