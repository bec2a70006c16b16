import { Badge } from '@mui/material';
import type { ReactNode } from 'react';
import { useInternalChatEnabled, useUnreadChats } from '../../features/chats/chats-popover';
import { useConnectionWarning } from '../../features/connections/use-connection-warning';

/**
 * The /connections warning badge (core section 2): a dot when any connection is in state
 * qrcode, PAIRING, DISCONNECTED, TIMEOUT or OPENING.
 */
export function ConnectionWarningBadge({ warning, children }: { warning: boolean; children: ReactNode }) {
  if (!warning) return <>{children}</>;
  return (
    <Badge color="error" variant="dot" overlap="circular" data-testid="connections-badge">
      {children}
    </Badge>
  );
}

/** The badge wired to the connections list, checked 2000 ms after it mounts (use-connection-warning). */
export function ConnectionsMenuBadge({ children }: { children: ReactNode }) {
  const warning = useConnectionWarning();
  return <ConnectionWarningBadge warning={warning}>{children}</ConnectionWarningBadge>;
}

/** The unread internal-chat dot on /chats (core section 2 "Side menu"). */
export function UnreadChatBadge({ unread, children }: { unread: boolean; children: ReactNode }) {
  if (!unread) return <>{children}</>;
  return (
    <Badge color="secondary" variant="dot" overlap="circular" data-testid="chats-unread">
      {children}
    </Badge>
  );
}

/** The /chats dot wired to the caller's chats: shown while any of them has unread messages. */
export function ChatsMenuBadge({ children }: { children: ReactNode }) {
  const { unread } = useUnreadChats(useInternalChatEnabled());
  return <UnreadChatBadge unread={unread > 0}>{children}</UnreadChatBadge>;
}
