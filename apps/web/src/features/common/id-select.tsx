import { Box, Chip, MenuItem, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** A record offered by a select: its id and name (queues also have a colour). */
export interface IdOption {
  id: number;
  name: string;
  color?: string;
}

interface QueueMultiSelectProps {
  label: string;
  /** The queues offered; undefined while they load. */
  queues: IdOption[] | undefined;
  value: number[];
  onChange: (ids: number[]) => void;
}

/** A multiple select of queues, the chosen ones shown as chips in their colours (user, connection). */
export function QueueMultiSelect({ label, queues, value, onChange }: QueueMultiSelectProps) {
  return (
    <TextField
      select
      label={label}
      fullWidth
      value={value}
      onChange={(e) => {
        const next = e.target.value as unknown as number[] | string;
        onChange(typeof next === 'string' ? next.split(',').map(Number) : next);
      }}
      slotProps={{
        select: {
          multiple: true,
          renderValue: (selected) => (
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
              {(selected as number[]).map((id) => {
                const queue = queues?.find((q) => q.id === id);
                return (
                  <Chip
                    key={id}
                    size="small"
                    label={queue?.name ?? id}
                    sx={{ bgcolor: queue?.color, color: queue ? 'common.white' : undefined }}
                  />
                );
              })}
            </Box>
          ),
        },
      }}
    >
      {(queues ?? []).map((queue) => (
        <MenuItem key={queue.id} value={queue.id}>
          {queue.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

interface OptionalIdSelectProps {
  label: string;
  /** The records offered; undefined while they load. */
  options: IdOption[] | undefined;
  value: number | null;
  onChange: (id: number | null) => void;
  disabled?: boolean;
  /** The translated error, shown as helper text. */
  error?: string;
  /** data-testid of the select's hidden input. */
  testId?: string;
}

/** A select of one record by id, or 'none' (null) first (default connection, transfer queue). */
export function OptionalIdSelect({
  label,
  options,
  value,
  onChange,
  disabled,
  error,
  testId,
}: OptionalIdSelectProps) {
  const { t } = useTranslation();
  return (
    <TextField
      select
      label={label}
      fullWidth
      disabled={disabled}
      error={!!error}
      helperText={error}
      value={value ?? ''}
      onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))}
      slotProps={testId ? { htmlInput: { 'data-testid': testId } } : undefined}
    >
      <MenuItem value="">{t('common.none')}</MenuItem>
      {(options ?? []).map((option) => (
        <MenuItem key={option.id} value={option.id}>
          {option.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
