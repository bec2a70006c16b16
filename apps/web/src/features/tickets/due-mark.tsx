import AlarmIcon from '@mui/icons-material/Alarm';
import type { Ticket } from '@zapdesk/shared';
import { isValid, parseISO } from 'date-fns';
import { useEffect, useReducer } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyTooltip } from '../common/lazy-tooltip';
import { formatTicketTime } from './ticket-format';

/** What the mark says: the nearest pending due time of the ticket and whether it has passed. */
export interface DueState {
  target: 'firstResponse' | 'resolution';
  at: Date;
  overdue: boolean;
}

/**
 * The ticket's nearest due time still pending (service levels, docs/reports.md): the first response
 * when both are set and it comes first, else the resolution; undefined for a closed ticket or one
 * without due times.
 */
export function dueStateOf(
  ticket: Pick<Ticket, 'status' | 'firstResponseDueAt' | 'resolutionDueAt'>,
  now: Date,
) {
  if (ticket.status === 'closed') return undefined;
  const due = (['firstResponse', 'resolution'] as const)
    .map((target) => {
      const value = target === 'firstResponse' ? ticket.firstResponseDueAt : ticket.resolutionDueAt;
      const at = value ? parseISO(value) : null;
      return at && isValid(at) ? { target, at } : null;
    })
    .filter((x): x is { target: DueState['target']; at: Date } => x !== null)
    .sort((x, y) => x.at.getTime() - y.at.getTime())[0];
  return due ? ({ ...due, overdue: due.at.getTime() <= now.getTime() } satisfies DueState) : undefined;
}

/** The longest delay setTimeout keeps (about 24.8 days); a later due time re-arms after it. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * The small due/overdue mark of a ticket list item: an alarm icon, amber while due ("Responder até
 * 14:30", the time as the list shows times: HH:mm today, dd/MM/yyyy otherwise), red once overdue
 * ("Atrasado"), with the text as its accessible name and tooltip. Nothing without a pending due time.
 * Without a fixed `now` it reads the clock and re-renders when the due time passes while on screen.
 */
export function DueMark({
  ticket,
  now: fixedNow,
}: {
  ticket: Pick<Ticket, 'id' | 'status' | 'firstResponseDueAt' | 'resolutionDueAt'>;
  now?: Date;
}) {
  const { t } = useTranslation();
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const now = fixedNow ?? new Date();
  const due = dueStateOf(ticket, now);
  const pendingAt = fixedNow || !due || due.overdue ? null : due.at.getTime();
  useEffect(() => {
    if (pendingAt === null) return;
    const timer = setTimeout(rerender, Math.min(Math.max(pendingAt - Date.now(), 0), MAX_TIMER_MS));
    return () => clearTimeout(timer);
  }, [pendingAt]);
  if (!due) return null;
  const label = due.overdue
    ? t(`tickets.item.due.overdue.${due.target}`)
    : t(`tickets.item.due.until.${due.target}`, { time: formatTicketTime(due.at, now) });
  return (
    <LazyTooltip title={label}>
      <AlarmIcon
        role="img"
        aria-label={label}
        aria-hidden={false}
        fontSize="small"
        color={due.overdue ? 'error' : 'warning'}
        data-testid={`ticket-due-${ticket.id}`}
        data-overdue={due.overdue}
      />
    </LazyTooltip>
  );
}
