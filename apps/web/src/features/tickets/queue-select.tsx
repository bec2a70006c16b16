import { Box, Checkbox, ListItemText, MenuItem, TextField } from '@mui/material';
import type { QueueRef } from '@zapdesk/shared';
import { useTranslation } from 'react-i18next';

export interface QueueFilterProps {
  options: QueueRef[];
  value: number[];
  onChange: (ids: number[]) => void;
}

/**
 * The queue multi-select of the tickets manager header (MUI TextField select, Menu, Checkbox): a
 * chunk loaded when the filter is first used, then shown open (`defaultOpen`) or focused.
 */
export function QueueSelect({
  options,
  value,
  onChange,
  defaultOpen = false,
  autoFocus = false,
}: QueueFilterProps & { defaultOpen?: boolean; autoFocus?: boolean }) {
  const { t } = useTranslation();
  const known = value.filter((id) => options.some((q) => q.id === id));
  return (
    <TextField
      select
      size="small"
      label={t('tickets.manager.queues')}
      value={known}
      data-testid="queue-filter"
      sx={{ minWidth: 130, maxWidth: 200 }}
      onChange={(e) => {
        const v = e.target.value as unknown as number[] | string;
        onChange(typeof v === 'string' ? v.split(',').map(Number) : v);
      }}
      slotProps={{
        select: {
          multiple: true,
          defaultOpen,
          autoFocus,
          renderValue: (selected) => {
            const ids = selected as number[];
            if (ids.length === 0) return t('tickets.manager.allQueues');
            return (
              <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
                {t('tickets.manager.queuesSelected', { count: ids.length })}
              </Box>
            );
          },
          displayEmpty: true,
        },
        inputLabel: { shrink: true },
      }}
    >
      {options.map((queue) => (
        <MenuItem key={queue.id} value={queue.id} data-testid={`queue-filter-option-${queue.id}`}>
          <Checkbox size="small" checked={known.includes(queue.id)} sx={{ color: queue.color }} />
          <ListItemText primary={queue.name} />
        </MenuItem>
      ))}
    </TextField>
  );
}
