import { useEffect } from 'react';
import { api } from '../../lib/api';

/**
 * Tells the server which ticket is on screen (PUT /push/viewing), so Web Push spares it: `ticketId`
 * while the tab is visible, null when the tab hides or the ticket closes. Failures are let go: at
 * worst a push arrives for the ticket on screen.
 */
export function useReportViewing(ticketId: number | undefined): void {
  useEffect(() => {
    if (ticketId === undefined) return;
    const report = (id: number | null) => void api.put('/push/viewing', { ticketId: id }).catch(() => {});
    const onVisibility = () => report(document.visibilityState === 'hidden' ? null : ticketId);
    onVisibility();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      report(null);
    };
  }, [ticketId]);
}
