import AddIcon from '@mui/icons-material/Add';
import SearchIcon from '@mui/icons-material/Search';
import { Button, InputAdornment, Stack, TextField, Typography } from '@mui/material';

export interface ListPageHeaderProps {
  title: string;
  search: string;
  onSearch: (value: string) => void;
  searchLabel: string;
  searchTestId: string;
  addLabel: string;
  addTestId: string;
  onAdd: () => void;
}

/** The title, search box and add button above a searchable list page (tags, quick replies...). */
export function ListPageHeader(props: ListPageHeaderProps) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'center' }}>
      <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
        {props.title}
      </Typography>
      <TextField
        size="small"
        placeholder={props.searchLabel}
        value={props.search}
        onChange={(e) => props.onSearch(e.target.value)}
        slotProps={{
          htmlInput: { 'aria-label': props.searchLabel, 'data-testid': props.searchTestId },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon color="action" />
              </InputAdornment>
            ),
          },
        }}
      />
      <Button variant="contained" startIcon={<AddIcon />} onClick={props.onAdd} data-testid={props.addTestId}>
        {props.addLabel}
      </Button>
    </Stack>
  );
}
