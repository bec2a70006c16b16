/**
 * Keeps the open ticket read: a customer message that arrives while the ticket is on screen is
 * marked read at once (POST /messages/:ticketId/read: read receipts, unread count zeroed, `ticket`
 * updateUnread for every list), so it leaves no unread badge. While the browser tab is hidden
 * nobody is reading: the ticket is read when the tab shows again.
 */
import { useEffect } from 'react';
import { api } from '../../lib/api';
import { onInboundMessage } from '../tickets/tickets-cache';

/**
 * Marks `ticketId` read whenever an inbound message reaches it while it is open and visible
 * (nothing before the ticket is loaded). A failed request is let go: opening the ticket reads it.
 */
export function useReadWhileOpen(ticketId: number | undefined): void {
  useEffect(() => {
    if (ticketId === undefined) return;
    let unread = false;
    let inFlight = false;
    const read = () => {
      if (document.visibilityState === 'hidden') return;
      if (inFlight) return;
      unread = false;
      inFlight = true;
      api
        .post(`/messages/${ticketId}/read`)
        .catch(() => {})
        .finally(() => {
          inFlight = false;
          // A message that arrived while the request ran is read by one more request.
          if (unread) read();
        });
    };
    const stop = onInboundMessage(({ ticket, isOpen }) => {
      if (!isOpen || ticket.id !== ticketId) return;
      unread = true;
      read();
    });
    const onVisible = () => {
      if (unread) read();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stop();
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [ticketId]);
}
