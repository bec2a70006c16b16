import AddIcon from '@mui/icons-material/Add';
import SearchIcon from '@mui/icons-material/Search';
import { Button, InputAdornment, Stack, TextField, Typography } from '@mui/material';
import type { ReactNode } from 'react';

export interface ListPageHeaderProps {
  title: string;
  /** The search box; absent on pages without search. */
  search?: {
    value: string;
    onChange: (value: string) => void;
    label: string;
    testId: string;
  };
  /** The contained add button; absent (e.g. for lack of permission) to leave it out. */
  add?: {
    label: string;
    testId: string;
    onClick: () => void;
    /** Defaults to a plus sign. */
    icon?: ReactNode;
  };
  /** More buttons, before the add button. */
  before?: ReactNode;
  /** More buttons, after the add button. */
  after?: ReactNode;
  /** From which breakpoint the header lays out in a row (a column below it); 'xs' for always. */
  rowFrom?: 'xs' | 'sm' | 'md';
}

/**
 * The title, search box and add button (with optional extra buttons) above a list page: users,
 * contacts, connections, queues, tags, quick replies.
 */
export function ListPageHeader({ title, search, add, before, after, rowFrom = 'sm' }: ListPageHeaderProps) {
  return (
    <Stack
      direction={rowFrom === 'xs' ? 'row' : { xs: 'column', [rowFrom]: 'row' }}
      spacing={2}
      alignItems={rowFrom === 'xs' ? 'center' : { [rowFrom]: 'center' }}
    >
      <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
        {title}
      </Typography>
      {search && (
        <TextField
          size="small"
          placeholder={search.label}
          value={search.value}
          onChange={(e) => search.onChange(e.target.value)}
          slotProps={{
            htmlInput: { 'aria-label': search.label, 'data-testid': search.testId },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon color="action" />
                </InputAdornment>
              ),
            },
          }}
        />
      )}
      {before}
      {add && (
        <Button
          variant="contained"
          startIcon={add.icon ?? <AddIcon />}
          onClick={add.onClick}
          data-testid={add.testId}
        >
          {add.label}
        </Button>
      )}
      {after}
    </Stack>
  );
}
