import SearchIcon from '@mui/icons-material/Search';
import { InputAdornment, TextField } from '@mui/material';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

interface SearchBoxProps {
  value: string;
  onChange: (value: string) => void;
}

/**
 * The search tab's text box (MUI TextField): a chunk loaded with the search tab. It takes the focus
 * when it first shows, as the tab is opened to type in it.
 */
export function SearchBox({ value, onChange }: SearchBoxProps) {
  const { t } = useTranslation();
  const own = useRef<HTMLInputElement>(null);
  useEffect(() => own.current?.focus(), []);
  return (
    <TextField
      size="small"
      fullWidth
      placeholder={t('tickets.search.placeholder')}
      value={value}
      inputRef={own}
      onChange={(e) => onChange(e.target.value)}
      sx={{ flex: 1, minWidth: 160 }}
      slotProps={{
        htmlInput: { 'aria-label': t('tickets.search.placeholder'), 'data-testid': 'tickets-search' },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon color="action" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
