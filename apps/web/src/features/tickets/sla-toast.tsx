import type { ChannelPayloads } from '@zapdesk/shared';
import i18n from '../../lib/i18n';
import { showToast } from '../../lib/notify';

/**
 * Shows a service-level alert of `company-{id}-sla` (docs/reports.md "Service levels"), which the
 * server sends only to the ticket's agent and the company's admins: amber "Atendimento de {name}
 * perto do prazo" for a `warning`, red "Atendimento de {name} atrasado" for a `breach`. The toast's
 * text is a button that opens the ticket through `open(path)` (`/tickets/{uuid}`); one toast per
 * ticket and kind, so a repeated event does not stack.
 */
export function showSlaToast(payload: ChannelPayloads['sla'], open: (path: string) => void): void {
  const message = i18n.t(`sla.toast.${payload.action}`, { name: payload.contactName });
  const path = `/tickets/${payload.ticketUuid}`;
  const content = ({ closeToast }: { closeToast?: () => void }) => (
    <button
      type="button"
      data-testid={`sla-toast-${payload.ticketId}`}
      onClick={() => {
        closeToast?.();
        open(path);
      }}
      style={{
        background: 'none',
        border: 0,
        padding: 0,
        font: 'inherit',
        color: 'inherit',
        textAlign: 'left',
        cursor: 'pointer',
      }}
    >
      {message}
    </button>
  );
  const options = { toastId: `sla-${payload.action}-${payload.ticketId}` };
  showToast(payload.action === 'breach' ? 'error' : 'warning', content, options);
}
