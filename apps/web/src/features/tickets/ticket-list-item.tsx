import SmartToyIcon from '@mui/icons-material/SmartToy';
import VisibilityIcon from '@mui/icons-material/Visibility';
import { Avatar, Badge, Box, IconButton, Stack, Typography, useMediaQuery } from '@mui/material';
import { useTheme } from '@mui/material/styles';
import { can, type Ticket, type UpdateTicketBody } from '@zapdesk/shared';
import { lazy, type MouseEvent, memo, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { WhatsAppText } from '../../lib/whatsapp-text';
import { useCurrentUser } from '../auth/session-context';
import { LazyTooltip } from '../common/lazy-tooltip';
import { DueMark } from './due-mark';
import { closeTicketBody, TicketActionButton } from './ticket-actions';
import { displayName, formatTicketTime, NO_QUEUE_COLOR } from './ticket-format';
import { useUpdateTicket, viewerOf } from './use-tickets';

/** The read-only preview (a dialog with the ticket's messages), loaded when an admin first opens one. */
const PeekDialog = lazy(() => import('./peek-dialog').then((m) => ({ default: m.PeekDialog })));

/**
 * A small coloured tag, drawn as MUI's small Chip draws a label-only chip (rounded, 18 px high, 11 px
 * text cut with an ellipsis at 120 px; white text on coloured backgrounds) without the Chip module,
 * as every ticket row shows several.
 */
function Tag({ label, color, testId }: { label: string; color?: string; testId?: string }) {
  return (
    <Box
      data-testid={testId}
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        justifyContent: 'center',
        boxSizing: 'border-box',
        height: 18,
        maxWidth: 120,
        borderRadius: '16px',
        fontFamily: 'fontFamily',
        fontSize: 11,
        lineHeight: 1.5,
        whiteSpace: 'nowrap',
        verticalAlign: 'middle',
        bgcolor: color ?? 'action.selected',
        color: color ? 'common.white' : 'text.primary',
      }}
    >
      <Box
        component="span"
        sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', px: 1 }}
      >
        {label}
      </Box>
    </Box>
  );
}

interface TicketListItemProps {
  ticket: Ticket;
  selected?: boolean;
}

/**
 * One ticket of the list (core section 2 "Ticket list item"): avatar, contact name (10 characters
 * under 600 px) and ticket number, last message, connection / user / queue / contact tags, unread
 * badge, time, the service-level due/overdue mark, chatbot icon, the admins' peek eye, and the Accept / Close / Reopen buttons. Pending
 * tickets open only through Accept.
 */
export const TicketListItem = memo(function TicketListItem({ ticket, selected }: TicketListItemProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const navigate = useNavigate();
  const me = useCurrentUser();
  const update = useUpdateTicket(viewerOf(me));
  const [peek, setPeek] = useState(false);
  const canPeek = can(me.profile, 'tickets-manager:peek');
  const pending = ticket.status === 'pending';
  const open = () => navigate(`/tickets/${ticket.uuid}`);

  // mutateAsync, not mutate's callbacks: the item unmounts when the ticket changes list (accept
  // moves it from 'pending' to 'assigned'), and per-call callbacks of an unmounted caller never run.
  const run = (body: UpdateTicketBody, after: (t: Ticket) => void) => (event: MouseEvent) => {
    event.stopPropagation();
    update
      .mutateAsync({ id: ticket.id, body })
      .then(after)
      .catch(() => {
        /* the mutation's error is shown by the shared error notifier */
      });
  };
  const accept = run({ status: 'open', userId: me.id }, (saved) =>
    navigate(`/tickets/${saved?.uuid ?? ticket.uuid}`),
  );
  const close = run(closeTicketBody(ticket, me.id), () => navigate('/tickets'));
  const reopen = run({ status: 'open', userId: me.id, queueId: ticket.queueId }, (saved) =>
    navigate(`/tickets/${saved?.uuid ?? ticket.uuid}`),
  );

  const queueColor = ticket.queue?.color || NO_QUEUE_COLOR;
  const time = formatTicketTime(ticket.updatedAt);
  const busy = update.isPending;

  return (
    <>
      <Box
        data-testid={`ticket-item-${ticket.id}`}
        data-status={ticket.status}
        role={pending ? undefined : 'button'}
        tabIndex={pending ? undefined : 0}
        aria-current={selected ? 'true' : undefined}
        onClick={pending ? undefined : open}
        onKeyDown={
          pending
            ? undefined
            : (e) => {
                if (e.target === e.currentTarget && (e.key === 'Enter' || e.key === ' ')) {
                  e.preventDefault();
                  open();
                }
              }
        }
        sx={{
          display: 'flex',
          gap: 1.5,
          px: 1.5,
          py: 1,
          borderBottom: 1,
          borderColor: 'divider',
          borderLeft: 6,
          borderLeftColor: queueColor,
          cursor: pending ? 'default' : 'pointer',
          bgcolor: selected ? 'action.selected' : undefined,
          '&:hover': pending ? undefined : { bgcolor: 'action.hover' },
        }}
      >
        <Avatar src={ticket.contact?.profilePicUrl ?? undefined} alt={ticket.contact?.name} sx={{ mt: 0.5 }}>
          {ticket.contact?.name?.[0]?.toUpperCase()}
        </Avatar>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Stack direction="row" alignItems="center" spacing={0.5}>
            <Typography
              variant="subtitle2"
              noWrap
              sx={{ flexShrink: 1, minWidth: 0 }}
              data-testid={`ticket-name-${ticket.id}`}
            >
              {displayName(ticket.contact?.name ?? '', narrow)}
            </Typography>
            <Typography variant="caption" color="text.secondary" sx={{ flexShrink: 0 }}>
              #{ticket.id}
            </Typography>
            {ticket.chatbot && (
              <LazyTooltip title={t('tickets.item.chatbot')}>
                <SmartToyIcon fontSize="small" color="action" data-testid={`ticket-chatbot-${ticket.id}`} />
              </LazyTooltip>
            )}
            {canPeek && (
              <LazyTooltip title={t('tickets.item.peek')}>
                <IconButton
                  size="small"
                  aria-label={t('tickets.item.peek')}
                  data-testid={`ticket-peek-${ticket.id}`}
                  onClick={(e) => {
                    e.stopPropagation();
                    setPeek(true);
                  }}
                  sx={{ p: 0.25 }}
                >
                  <VisibilityIcon fontSize="small" />
                </IconButton>
              </LazyTooltip>
            )}
            <Box sx={{ flex: 1 }} />
            <DueMark ticket={ticket} />
            <Typography
              variant="caption"
              color={ticket.unreadMessages > 0 ? 'success.main' : 'text.secondary'}
              sx={{ flexShrink: 0 }}
              data-testid={`ticket-time-${ticket.id}`}
            >
              {time}
            </Typography>
          </Stack>
          <Stack direction="row" alignItems="center" spacing={1}>
            <Typography
              variant="body2"
              color="text.secondary"
              noWrap
              sx={{ flex: 1, minWidth: 0 }}
              data-testid={`ticket-last-message-${ticket.id}`}
            >
              <WhatsAppText text={ticket.lastMessage} inline />
            </Typography>
            {ticket.unreadMessages > 0 && (
              <Badge
                color="success"
                badgeContent={ticket.unreadMessages}
                max={999}
                data-testid={`ticket-unread-${ticket.id}`}
                sx={{ mr: 1.5 }}
              />
            )}
          </Stack>
          <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap" sx={{ mt: 0.5 }}>
            {ticket.whatsapp?.name && <Tag label={ticket.whatsapp.name} color="#25D366" />}
            {ticket.user?.name && <Tag label={ticket.user.name} color="#000000" />}
            <Tag
              label={ticket.queue?.name ?? t('tickets.item.noQueue')}
              color={queueColor}
              testId={`ticket-queue-${ticket.id}`}
            />
            {ticket.tags?.map((tag) => (
              <Tag key={tag.id} label={tag.name} color={tag.color} />
            ))}
          </Stack>
          <Stack direction="row" spacing={1} sx={{ mt: 0.75 }}>
            {pending && (
              <TicketActionButton
                label={t('tickets.item.accept')}
                testId={`ticket-accept-${ticket.id}`}
                onClick={accept}
                busy={busy}
                variant="contained"
                color="success"
              />
            )}
            {ticket.status !== 'closed' && (
              <TicketActionButton
                label={t('tickets.item.close')}
                testId={`ticket-close-${ticket.id}`}
                onClick={close}
                busy={busy}
                variant="outlined"
                color="error"
              />
            )}
            {ticket.status === 'closed' && (
              <TicketActionButton
                label={t('tickets.item.reopen')}
                testId={`ticket-reopen-${ticket.id}`}
                onClick={reopen}
                busy={busy}
                variant="contained"
              />
            )}
          </Stack>
        </Box>
      </Box>
      {peek && (
        <Suspense fallback={null}>
          <PeekDialog ticket={ticket} onClose={() => setPeek(false)} />
        </Suspense>
      )}
    </>
  );
});
