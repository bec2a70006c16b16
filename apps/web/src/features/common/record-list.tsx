import { List, ListItem, ListItemText, Paper, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { loadMoreOnScroll, type PagedList } from '../../lib/load-more-on-scroll';
import { RowActions, type RowActionsProps } from './row-actions';

export interface RecordListProps {
  /** The paged query of the rows: scrolling within 100 px of the bottom loads its next page. */
  list: PagedList & { isSuccess: boolean };
  /** The list's data-testid. */
  testId: string;
  /** Shown under the list once the query answered no rows. */
  empty: string | false;
  children: ReactNode;
}

/**
 * The body of a list page that shows its records as a list rather than a table: a scrolling
 * outlined box that fills the page's height and loads more near its bottom, and the empty text.
 */
export function RecordList({ list, testId, empty, children }: RecordListProps) {
  return (
    <Paper variant="outlined" sx={{ flex: 1, overflow: 'auto' }} onScroll={loadMoreOnScroll(list)}>
      <List data-testid={testId}>{children}</List>
      {list.isSuccess && empty !== false && (
        <Typography color="text.secondary" sx={{ p: 2 }}>
          {empty}
        </Typography>
      )}
    </Paper>
  );
}

export interface RecordListItemProps {
  /** The row's data-testid. */
  testId: string;
  /** Its edit and delete buttons (RowActions' props), or null for a record the user may not change. */
  actions: RowActionsProps | null;
  /** The first line's parts, in a row: the record's name and its chips. */
  title: ReactNode;
  /** The second line, cut to one line. */
  text: string;
}

/** One record of a {@link RecordList}: its title row, one line of text and its row actions at the end. */
export function RecordListItem({ testId, actions, title, text }: RecordListItemProps) {
  return (
    <ListItem divider data-testid={testId} secondaryAction={actions && <RowActions {...actions} />}>
      <ListItemText
        primary={
          <Stack direction="row" spacing={1} alignItems="center">
            {title}
          </Stack>
        }
        secondary={text}
        slotProps={{ secondary: { noWrap: true } }}
        sx={{ pr: 10 }}
      />
    </ListItem>
  );
}
