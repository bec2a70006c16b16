import { Box } from '@mui/material';
import { can, type QueueRef, type SessionUser } from '@zapdesk/shared';
import { type KeyboardEvent, lazy, Suspense, useCallback, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readJson, writeJson } from '../../lib/storage';
import { OutlinedArrow, OutlinedFrame } from '../common/outlined-frame';
import { useQueueList } from '../queues/use-queues';
import type { QueueFilterProps } from './queue-select';

const loadQueueSelect = () => import('./queue-select');
/** The MUI select (TextField, Menu, Checkbox), loaded when the filter is first used. */
const QueueSelect = lazy(() => loadQueueSelect().then((m) => ({ default: m.QueueSelect })));
/** Starts fetching the select's code (a failed fetch is retried when the filter is used). */
const prefetchQueueSelect = () => void loadQueueSelect().catch(() => {});
/** The keys that open MUI's select from the keyboard. */
const OPEN_KEYS = new Set([' ', 'ArrowUp', 'ArrowDown', 'Enter']);

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

/**
 * The closed queue filter as MUI's small outlined select draws it (shrunk label in the outline's
 * notch, value, drop-down arrow), in plain elements styled by the theme, so the tickets manager's
 * first render carries no MUI input, select, menu or modal code. A press (mouse, touch or one of the
 * select's keys) swaps in the real select, open; the pointer or focus reaching it prefetches that.
 */
function ClosedQueueFilter({
  label,
  text,
  onOpen,
}: {
  label: string;
  text: string;
  onOpen: (by: 'pointer' | 'keyboard') => void;
}) {
  const labelId = useId();
  return (
    <OutlinedFrame
      label={label}
      labelId={labelId}
      testId="queue-filter"
      onPointerEnter={prefetchQueueSelect}
      sx={{ minWidth: 130, maxWidth: 200 }}
    >
      <Box
        role="combobox"
        tabIndex={0}
        aria-haspopup="listbox"
        aria-expanded="false"
        aria-labelledby={labelId}
        onFocus={prefetchQueueSelect}
        onMouseDown={(e) => {
          if (e.button === 0) {
            e.preventDefault();
            onOpen('pointer');
          }
        }}
        onKeyDown={(e: KeyboardEvent) => {
          if (OPEN_KEYS.has(e.key)) {
            e.preventDefault();
            onOpen('keyboard');
          }
        }}
        sx={{
          display: 'block',
          p: '8.5px 32px 8.5px 14px',
          minHeight: '1.4375em',
          whiteSpace: 'nowrap',
          overflow: 'hidden',
          textOverflow: 'ellipsis',
          userSelect: 'none',
          outline: 0,
        }}
      >
        {text}
      </Box>
      <OutlinedArrow />
    </OutlinedFrame>
  );
}

/**
 * The queue multi-select of the tickets manager header: drawn closed in plain elements until first
 * used, then MUI's select (a lazy chunk), opened by that first press.
 */
export function QueueFilter({ options, value, onChange }: QueueFilterProps) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState<'pointer' | 'keyboard' | null>(null);
  const count = value.filter((id) => options.some((q) => q.id === id)).length;
  const closed = (
    <ClosedQueueFilter
      label={t('tickets.manager.queues')}
      text={count === 0 ? t('tickets.manager.allQueues') : t('tickets.manager.queuesSelected', { count })}
      onOpen={setOpened}
    />
  );
  if (!opened) return closed;
  return (
    <Suspense fallback={closed}>
      <QueueSelect
        options={options}
        value={value}
        onChange={onChange}
        defaultOpen
        autoFocus={opened === 'keyboard'}
      />
    </Suspense>
  );
}
