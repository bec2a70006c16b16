import ChatIcon from '@mui/icons-material/Chat';
import {
  Avatar,
  Badge,
  Box,
  IconButton,
  List,
  ListItemAvatar,
  ListItemButton,
  ListItemText,
  Popover,
  Tooltip,
  Typography,
} from '@mui/material';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCurrentUser } from '../../features/auth/session-context';
import { playNotificationSound } from '../../features/tickets/notification-sound';
import { formatTicketTime } from '../../features/tickets/ticket-format';
import { onInboundMessage } from '../../features/tickets/tickets-cache';
import { useFlatTickets, useTicketsList } from '../../features/tickets/use-tickets';
import { usePreferences } from '../preferences';

/**
 * The top bar's notifications (core section 2 "Top bar"): tickets with unread messages and, for
 * users with allTicket 'enabled', pending tickets; clicking one opens it. A new inbound message plays
 * a short sound at the user's volume (not for the open ticket while the page is visible).
 */
export function NotificationsPopover() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const me = useCurrentUser();
  const { volume } = usePreferences();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const withPending = me.allTicket === 'enabled';
  const unread = useTicketsList({ withUnreadMessages: true }, { silent: true });
  const pending = useTicketsList({ status: 'pending' }, { enabled: withPending, silent: true });
  const unreadTickets = useFlatTickets(unread.data);
  const pendingTickets = useFlatTickets(pending.data);

  const tickets = useMemo(() => {
    // Waiting tickets are notifications only for users with allTicket enabled, unread or not.
    const shown = unreadTickets.filter(
      (tk) => tk.unreadMessages > 0 && (withPending || tk.status !== 'pending'),
    );
    const byId = new Map(shown.map((tk) => [tk.id, tk]));
    if (withPending) for (const tk of pendingTickets) if (!byId.has(tk.id)) byId.set(tk.id, tk);
    return [...byId.values()].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  }, [unreadTickets, pendingTickets, withPending]);

  const volumeRef = useRef(volume);
  volumeRef.current = volume;
  useEffect(
    () =>
      onInboundMessage(({ isOpen }) => {
        if (isOpen && document.visibilityState === 'visible') return;
        playNotificationSound(volumeRef.current);
      }),
    [],
  );

  return (
    <>
      <Tooltip title={t('tickets.notifications.title')}>
        <IconButton
          color="inherit"
          aria-label={t('tickets.notifications.title')}
          data-testid="notifications-button"
          onClick={(e) => setAnchor(e.currentTarget)}
        >
          <Badge badgeContent={tickets.length} color="secondary" data-testid="notifications-count">
            <ChatIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { width: 340, maxHeight: 420 } } }}
      >
        {tickets.length === 0 ? (
          <Box sx={{ p: 2 }}>
            <Typography variant="body2" color="text.secondary">
              {t('tickets.notifications.empty')}
            </Typography>
          </Box>
        ) : (
          <List dense disablePadding data-testid="notifications-list">
            {tickets.map((ticket) => (
              <ListItemButton
                key={ticket.id}
                divider
                data-testid={`notifications-item-${ticket.id}`}
                onClick={() => {
                  setAnchor(null);
                  navigate(`/tickets/${ticket.uuid}`);
                }}
              >
                <ListItemAvatar>
                  <Badge badgeContent={ticket.unreadMessages} color="success">
                    <Avatar src={ticket.contact?.profilePicUrl ?? undefined}>
                      {ticket.contact?.name?.[0]?.toUpperCase()}
                    </Avatar>
                  </Badge>
                </ListItemAvatar>
                <ListItemText
                  primary={ticket.contact?.name}
                  secondary={ticket.lastMessage}
                  slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
                />
                <Typography variant="caption" color="text.secondary" sx={{ ml: 1, flexShrink: 0 }}>
                  {ticket.status === 'pending' && ticket.unreadMessages === 0
                    ? t('tickets.tabs.pending')
                    : formatTicketTime(ticket.updatedAt)}
                </Typography>
              </ListItemButton>
            ))}
          </List>
        )}
      </Popover>
    </>
  );
}
