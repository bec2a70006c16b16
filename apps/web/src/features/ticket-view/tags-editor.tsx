/** The ticket's tags (document 2 "Tags"): a multi-select of GET /tags/list saved by POST /tags/sync. */
import { Autocomplete, Box, Chip, TextField } from '@mui/material';
import type { Tag, Ticket } from '@zapdesk/shared';
import { useTranslation } from 'react-i18next';
import { useSyncTags, useTags } from './use-ticket-view';

type TagRef = Pick<Tag, 'id' | 'name' | 'color'>;

export function TagsEditor({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const tags = useTags();
  const sync = useSyncTags(ticket.id);
  const options: TagRef[] = tags.data ?? [];

  return (
    <Box sx={{ px: 1.5, py: 0.75, borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
      <Autocomplete<TagRef, true, false, false>
        multiple
        size="small"
        data-testid="ticket-tags"
        options={options}
        value={ticket.tags}
        loading={tags.isPending}
        disabled={sync.isPending}
        isOptionEqualToValue={(option, value) => option.id === value.id}
        getOptionLabel={(option) => option.name}
        onChange={(_e, value) => sync.mutate(value.map((tag) => tag.id))}
        renderOption={(props, option) => {
          const { key, ...rest } = props;
          return (
            <li key={key} {...rest} data-testid={`tag-option-${option.id}`}>
              <Box
                component="span"
                sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: option.color, mr: 1 }}
              />
              {option.name}
            </li>
          );
        }}
        renderValue={(value, getItemProps) =>
          value.map((option, index) => {
            const { key, ...itemProps } = getItemProps({ index });
            return (
              <Chip
                key={key}
                {...itemProps}
                size="small"
                label={option.name}
                sx={{ bgcolor: option.color, color: '#fff', '& .MuiChip-deleteIcon': { color: '#ffffffb3' } }}
              />
            );
          })
        }
        renderInput={(params) => (
          <TextField
            {...params}
            variant="standard"
            placeholder={ticket.tags.length ? '' : t('ticketView.tags')}
          />
        )}
      />
    </Box>
  );
}
