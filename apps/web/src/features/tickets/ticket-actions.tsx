import { Button, type ButtonProps } from '@mui/material';
import type { Ticket, UpdateTicketBody } from '@zapdesk/shared';
import type { MouseEvent } from 'react';

/**
 * The update that closes `ticket` as the user `userId` (core section 2, "Close"): it keeps its queue
 * and leaves any bot (integration, prompt) it was with.
 */
export function closeTicketBody(ticket: Pick<Ticket, 'queueId'>, userId: number): UpdateTicketBody {
  return {
    status: 'closed',
    userId,
    queueId: ticket.queueId,
    useIntegration: false,
    promptId: null,
    integrationId: null,
  };
}

export interface TicketActionButtonProps {
  label: string;
  testId: string;
  onClick: (event: MouseEvent) => void;
  /** An update of the ticket is under way: the button is disabled. */
  busy: boolean;
  /** MUI's variant (default text) and colour (default primary). */
  variant?: ButtonProps['variant'];
  color?: ButtonProps['color'];
}

/** A small button that changes a ticket's status (accept, close, reopen...), disabled while it changes. */
export function TicketActionButton({ label, testId, busy, ...button }: TicketActionButtonProps) {
  return (
    <Button size="small" disabled={busy} data-testid={testId} {...button}>
      {label}
    </Button>
  );
}
