/**
 * The open ticket's header (core sections 2 and 4): contact avatar, name and number (a click opens the
 * contact drawer), assigned user and queue, the flow the conversation is in (FlowRunChip), and the
 * actions of its status: pending -> Accept; open -> Return, Resolve, Transfer; closed -> Reopen;
 * Delete for admins.
 */
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import {
  Avatar,
  Box,
  ButtonBase,
  Chip,
  CircularProgress,
  IconButton,
  Stack,
  Tooltip,
  Typography,
} from '@mui/material';
import { can, type Ticket, type UpdateTicketBody } from '@zapdesk/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCurrentUser } from '../auth/session-context';
import { ConfirmationDialog } from '../common/confirmation-dialog';
import { closeTicketBody, TicketActionButton } from '../tickets/ticket-actions';
import { FlowRunChip } from './flow-run-chip';
import { usePresence } from './presence-store';
import { TransferDialog } from './transfer-dialog';
import { useDeleteTicket, useUpdateTicket } from './use-ticket-view';

/** Read by screen readers, not drawn (clipped to nothing, out of the layout). */
const SCREEN_READER_ONLY = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
  p: 0,
  m: '-1px',
} as const;

interface TicketHeaderProps {
  ticket: Ticket;
  onToggleDrawer: () => void;
}

export function TicketHeader({ ticket, onToggleDrawer }: TicketHeaderProps) {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const navigate = useNavigate();
  const update = useUpdateTicket(ticket.id);
  const remove = useDeleteTicket(ticket.id);
  const [transferOpen, setTransferOpen] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const busy = update.isPending || remove.isPending;

  const run = (body: UpdateTicketBody, thenLeave: boolean) =>
    update.mutate(body, {
      onSuccess: () => {
        if (thenLeave) navigate('/tickets');
      },
    });

  const { contact } = ticket;
  return (
    <Stack
      direction="row"
      alignItems="center"
      spacing={1}
      data-testid="ticket-header"
      sx={{
        px: 1.5,
        py: 1,
        borderBottom: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
        flexWrap: 'wrap',
      }}
    >
      <ButtonBase
        onClick={onToggleDrawer}
        data-testid="contact-drawer-toggle"
        sx={{
          borderRadius: 1,
          justifyContent: 'flex-start',
          textAlign: 'left',
          minWidth: 0,
          flex: 1,
          p: 0.5,
        }}
      >
        <Avatar src={contact.profilePicUrl ?? undefined} alt={contact.name} sx={{ mr: 1.5 }} />
        <Box sx={{ minWidth: 0 }}>
          <Typography noWrap fontWeight={600} data-testid="ticket-contact-name">
            {contact.name}{' '}
            <Typography component="span" variant="caption" color="text.secondary">
              #{ticket.id}
            </Typography>
          </Typography>
          <PresenceLine ticketId={ticket.id} number={contact.number} />
          <Stack direction="row" spacing={0.5} sx={{ mt: 0.25 }}>
            {ticket.user && (
              <Typography variant="caption" color="text.secondary" data-testid="ticket-assigned-user">
                {t('ticketView.assignedTo', { name: ticket.user.name })}
              </Typography>
            )}
          </Stack>
        </Box>
        {/* Named by what it shows and then what it does (WCAG 2.5.3: the visible text in the name). */}
        <Box component="span" sx={SCREEN_READER_ONLY}>
          {t('ticketView.contactDetails')}
        </Box>
      </ButtonBase>
      <FlowRunChip ticket={ticket} />
      <Chip
        size="small"
        data-testid="ticket-queue"
        label={ticket.queue?.name ?? t('ticketView.noQueue')}
        sx={{ bgcolor: ticket.queue?.color ?? 'grey.500', color: '#fff' }}
      />
      <Stack direction="row" spacing={1} alignItems="center">
        {busy && <CircularProgress size={20} />}
        {ticket.status === 'pending' && (
          <TicketActionButton
            label={t('ticketView.accept')}
            testId="ticket-accept"
            onClick={() => run({ status: 'open', userId: me.id }, false)}
            busy={busy}
            variant="contained"
          />
        )}
        {ticket.status === 'open' && (
          <>
            <TicketActionButton
              label={t('ticketView.return')}
              testId="ticket-return"
              onClick={() => run({ status: 'pending', userId: null }, true)}
              busy={busy}
            />
            <TicketActionButton
              label={t('ticketView.resolve')}
              testId="ticket-resolve"
              onClick={() => run(closeTicketBody(ticket, me.id), true)}
              busy={busy}
              variant="contained"
            />
            <TicketActionButton
              label={t('ticketView.transfer')}
              testId="ticket-transfer"
              onClick={() => setTransferOpen(true)}
              busy={busy}
              variant="outlined"
            />
          </>
        )}
        {ticket.status === 'closed' && (
          <TicketActionButton
            label={t('ticketView.reopen')}
            testId="ticket-reopen"
            onClick={() => run({ status: 'open', userId: me.id, queueId: ticket.queueId }, false)}
            busy={busy}
            variant="contained"
          />
        )}
        {can(me.profile, 'ticket-options:deleteTicket') && (
          <Tooltip title={t('ticketView.deleteTicket')}>
            <span>
              <IconButton
                color="error"
                disabled={busy}
                aria-label={t('ticketView.deleteTicket')}
                data-testid="ticket-delete"
                onClick={() => setConfirmDelete(true)}
              >
                <DeleteOutlineIcon />
              </IconButton>
            </span>
          </Tooltip>
        )}
      </Stack>
      {transferOpen && (
        <TransferDialog
          open={transferOpen}
          ticket={ticket}
          onClose={() => setTransferOpen(false)}
          onTransfer={(body) =>
            update.mutate(body, {
              onSuccess: () => {
                setTransferOpen(false);
                navigate('/tickets');
              },
            })
          }
          saving={update.isPending}
        />
      )}
      <ConfirmationDialog
        open={confirmDelete}
        title={t('ticketView.deleteTicketTitle', { id: ticket.id })}
        message={t('ticketView.confirmDelete')}
        onClose={() => setConfirmDelete(false)}
        onConfirm={() => remove.mutate(undefined, { onSuccess: () => navigate('/tickets') })}
      />
    </Stack>
  );
}

/**
 * The contact's number, or what the customer is doing now ('digitando…', 'gravando áudio…') while
 * the `presence` events say so (docs/inbox.md "Presence"); announced politely to screen readers.
 */
function PresenceLine({ ticketId, number }: { ticketId: number; number: string }) {
  const { t } = useTranslation();
  const presence = usePresence(ticketId);
  return (
    <Typography
      noWrap
      variant="body2"
      color={presence ? 'success.main' : 'text.secondary'}
      aria-live="polite"
      data-testid="ticket-presence"
      sx={presence ? { fontStyle: 'italic' } : undefined}
    >
      {presence === 'composing'
        ? t('ticketView.presenceComposing')
        : presence === 'recording'
          ? t('ticketView.presenceRecording')
          : number}
    </Typography>
  );
}
