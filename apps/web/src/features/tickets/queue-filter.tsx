import { Box, Checkbox, ListItemText, MenuItem, TextField } from '@mui/material';
import { can, type QueueRef, type SessionUser } from '@zapdesk/shared';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readJson, writeJson } from '../../lib/storage';
import { useQueueList } from '../queues/use-queues';

const storageKey = (userId: number) => `tickets.queueFilter.${userId}`;

/** The queues a user may filter by: its own, or every queue for admins. */
export function useQueueFilterOptions(user: SessionUser): QueueRef[] {
  const admin = can(user.profile, 'tickets-manager:showall');
  const all = useQueueList({ enabled: admin });
  return useMemo(() => (admin ? (all.data ?? user.queues) : user.queues), [admin, all.data, user.queues]);
}

/**
 * The selected queue ids, kept in local storage per user. Default: the user's queues (admins: none,
 * which means no narrowing).
 */
export function useSelectedQueues(user: SessionUser): [number[], (ids: number[]) => void] {
  const [selected, setSelected] = useState<number[]>(() => {
    const stored = readJson<unknown>(storageKey(user.id), null);
    if (Array.isArray(stored) && stored.every((v) => typeof v === 'number')) return stored as number[];
    return user.profile === 'admin' ? [] : user.queues.map((q) => q.id);
  });
  const update = useCallback(
    (ids: number[]) => {
      writeJson(storageKey(user.id), ids);
      setSelected(ids);
    },
    [user.id],
  );
  return [selected, update];
}

/** The queue multi-select of the tickets manager header. */
export function QueueFilter({
  options,
  value,
  onChange,
}: {
  options: QueueRef[];
  value: number[];
  onChange: (ids: number[]) => void;
}) {
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
