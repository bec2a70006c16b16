import { Autocomplete, Chip, Stack, TextField } from '@mui/material';
import type { Tag } from '@zapdesk/shared';
import { useTranslation } from 'react-i18next';

/** Props of SearchFilters: the options, the chosen ids and their setters. */
export interface SearchFiltersProps {
  tags: Tag[];
  tagIds: number[];
  onTagIds: (ids: number[]) => void;
  /** The users filter's options, or null when the user may not filter by user (admins only). */
  users: { id: number; name: string }[] | null;
  userIds: number[];
  onUserIds: (ids: number[]) => void;
}

/**
 * The search tab's filters (core section 2 "Tickets manager"): tags (coloured chips) and, for
 * admins, users. A lazy chunk of the tickets manager: MUI's Autocomplete is not needed before the
 * search tab opens.
 */
export function SearchFilters({ tags, tagIds, onTagIds, users, userIds, onUserIds }: SearchFiltersProps) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={1} sx={{ p: 1, borderBottom: 1, borderColor: 'divider' }}>
      <Autocomplete
        multiple
        size="small"
        fullWidth
        options={tags}
        getOptionLabel={(o) => o.name}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        value={tags.filter((tag) => tagIds.includes(tag.id))}
        onChange={(_e, value) => onTagIds(value.map((v) => v.id))}
        renderValue={(value, getItemProps) =>
          value.map((tag, index) => {
            const { key, ...props } = getItemProps({ index });
            return (
              <Chip
                key={key}
                size="small"
                label={tag.name}
                sx={{ bgcolor: tag.color, color: 'common.white' }}
                {...props}
              />
            );
          })
        }
        renderInput={(params) => (
          <TextField
            {...params}
            placeholder={t('tickets.search.tags')}
            slotProps={{
              htmlInput: { ...params.inputProps, 'data-testid': 'tickets-search-tags' },
            }}
          />
        )}
      />
      {users && (
        <Autocomplete
          multiple
          size="small"
          fullWidth
          options={users}
          getOptionLabel={(o) => o.name}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          value={users.filter((u) => userIds.includes(u.id))}
          onChange={(_e, value) => onUserIds(value.map((v) => v.id))}
          renderInput={(params) => (
            <TextField
              {...params}
              placeholder={t('tickets.search.users')}
              slotProps={{
                htmlInput: { ...params.inputProps, 'data-testid': 'tickets-search-users' },
              }}
            />
          )}
        />
      )}
    </Stack>
  );
}
