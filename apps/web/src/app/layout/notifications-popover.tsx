import ChatIcon from '@mui/icons-material/Chat';
import { Badge, IconButton } from '@mui/material';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCurrentUser } from '../../features/auth/session-context';
import { LazyTooltip } from '../../features/common/lazy-tooltip';
import { playNotificationSound } from '../../features/tickets/notification-sound';
import { onInboundMessage } from '../../features/tickets/tickets-cache';
import { useFlatTickets, useTicketsList } from '../../features/tickets/use-tickets';
import { loadNextPage, type PagedList } from '../../lib/load-more-on-scroll';
import { usePreferences } from '../../lib/preferences';

/** The popover and its list (MUI Popover, List, Avatar), loaded when it first opens. */
const NotificationsList = lazy(() =>
  import('./notifications-list').then((m) => ({ default: m.NotificationsList })),
);

/**
 * The top bar's notifications (core section 2 "Top bar"): tickets with unread messages and, for
 * users with allTicket 'enabled', pending tickets; clicking one opens it. A new inbound message plays
 * a short sound at the user's volume (not for the open ticket while the page is visible). Both lists
 * page on: the popover loads their next pages when scrolled within 100 px of its bottom, and the
 * count reads 'n+' while pages are left.
 */
export function NotificationsPopover() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const me = useCurrentUser();
  const { volume } = usePreferences();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [used, setUsed] = useState(false);
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

  const more = unread.hasNextPage || (withPending && pending.hasNextPage);
  const paging: PagedList = {
    hasNextPage: more,
    isFetchingNextPage: unread.isFetchingNextPage || pending.isFetchingNextPage,
    fetchNextPage: () => {
      loadNextPage(unread);
      if (withPending) loadNextPage(pending);
    },
  };

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
      <LazyTooltip title={t('tickets.notifications.title')}>
        <IconButton
          color="inherit"
          aria-label={t('tickets.notifications.title')}
          data-testid="notifications-button"
          onClick={(e) => {
            setAnchor(e.currentTarget);
            setUsed(true);
          }}
        >
          <Badge
            badgeContent={more ? `${tickets.length}+` : tickets.length}
            color="secondary"
            data-testid="notifications-count"
          >
            <ChatIcon />
          </Badge>
        </IconButton>
      </LazyTooltip>
      {used && (
        <Suspense fallback={null}>
          <NotificationsList
            anchor={anchor}
            tickets={tickets}
            paging={paging}
            onClose={() => setAnchor(null)}
            onOpen={(ticket) => {
              setAnchor(null);
              navigate(`/tickets/${ticket.uuid}`);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
