import type { Ticket } from '@zapdesk/shared';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';

/**
 * The ticket `step` places after (1) or before (-1) the open one (`selectedUuid`) in `tickets`,
 * skipping waiting tickets, which open only through Accept; null at either end or when the open
 * ticket is not in the list.
 */
export function steppedTicket(
  tickets: Ticket[],
  selectedUuid: string | undefined,
  step: 1 | -1,
): Ticket | null {
  const index = tickets.findIndex((ticket) => ticket.uuid === selectedUuid);
  if (index < 0) return null;
  for (let i = index + step; i >= 0 && i < tickets.length; i += step) {
    const ticket = tickets[i];
    if (ticket && ticket.status !== 'pending') return ticket;
  }
  return null;
}

/**
 * Alt+ArrowDown and Alt+ArrowUp open the next and the previous ticket of the shown list (the one
 * holding the open ticket), from anywhere on the page, the message box included.
 */
export function useTicketStepKeys(tickets: Ticket[], selectedUuid: string | undefined): void {
  const navigate = useNavigate();
  const latest = useRef({ tickets, selectedUuid });
  latest.current = { tickets, selectedUuid };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || event.defaultPrevented) return;
      if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
      const { tickets: list, selectedUuid: open } = latest.current;
      const next = steppedTicket(list, open, event.key === 'ArrowDown' ? 1 : -1);
      if (!next) return;
      event.preventDefault();
      navigate(`/tickets/${next.uuid}`);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate]);
}
