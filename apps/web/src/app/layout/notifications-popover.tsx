import ChatIcon from '@mui/icons-material/Chat';
import { Badge, IconButton } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { NoteMention } from '@zapdesk/shared';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCurrentUser } from '../../features/auth/session-context';
import { countLabel } from '../../features/common/count-label';
import { LazyTooltip } from '../../features/common/lazy-tooltip';
import { mentionsKey } from '../../features/ticket-view/messages-cache';
import { playNotificationSound } from '../../features/tickets/notification-sound';
import { onInboundMessage } from '../../features/tickets/tickets-cache';
import { useFlatTickets, useTicketsList } from '../../features/tickets/use-tickets';
import { api } from '../../lib/api';
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
 * count reads 'n+' while pages are left. Mentions of the user in ticket notes come first (docs/inbox.md
 * "Notes and mentions"); opening one marks it read and opens its ticket.
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
  const queryClient = useQueryClient();
  const mentions = useQuery({
    queryKey: mentionsKey,
    queryFn: ({ signal }) => api.get<NoteMention[]>('/ticket-notes/mentions', undefined, signal),
    meta: { silent: true },
  });
  const mentionList = mentions.data ?? [];
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

  const total = tickets.length + mentionList.length;
  const shownCount = more ? `${total}+` : total;
  return (
    <>
      <LazyTooltip title={t('tickets.notifications.title')}>
        <IconButton
          color="inherit"
          aria-label={countLabel(t('tickets.notifications.title'), shownCount)}
          data-testid="notifications-button"
          onClick={(e) => {
            setAnchor(e.currentTarget);
            setUsed(true);
          }}
        >
          <Badge badgeContent={shownCount} color="secondary" data-testid="notifications-count">
            <ChatIcon />
          </Badge>
        </IconButton>
      </LazyTooltip>
      {used && (
        <Suspense fallback={null}>
          <NotificationsList
            anchor={anchor}
            tickets={tickets}
            mentions={mentionList}
            onOpenMention={(mention) => {
              setAnchor(null);
              queryClient.setQueryData<NoteMention[]>(mentionsKey, (list) =>
                list?.filter((m) => m.noteId !== mention.noteId),
              );
              api.post(`/ticket-notes/mentions/${mention.noteId}/read`).catch(() => {});
              navigate(`/tickets/${mention.ticketUuid}`);
            }}
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
