import AlternateEmailIcon from '@mui/icons-material/AlternateEmail';
import { Avatar, Badge, List, ListItemAvatar, ListItemButton, ListItemText, Typography } from '@mui/material';
import type { NoteMention, Ticket } from '@zapdesk/shared';
import { useTranslation } from 'react-i18next';
import { PagedScrollBox } from '../../features/common/paged-scroll-box';
import { TopBarPopover, TopBarPopoverEmpty } from '../../features/common/top-bar-popover';
import { formatTicketTime } from '../../features/tickets/ticket-format';
import type { PagedList } from '../../lib/load-more-on-scroll';
import { WhatsAppText } from '../../lib/whatsapp-text';

interface NotificationsListProps {
  anchor: HTMLElement | null;
  tickets: Ticket[];
  /** The user's unread mentions in ticket notes, newest first. */
  mentions?: NoteMention[];
  /** A mention was chosen (the popover is to close, the mention to be read and its ticket opened). */
  onOpenMention?: (mention: NoteMention) => void;
  /** The lists' paging: the next pages load when the list is scrolled within 100 px of its end. */
  paging: PagedList;
  onClose: () => void;
  /** A ticket was chosen (the popover is to close and the ticket to open). */
  onOpen: (ticket: Ticket) => void;
}

/** The notifications popover and its list (MUI Popover, Modal, List): a chunk loaded when first opened. */
export function NotificationsList({
  anchor,
  tickets,
  mentions = [],
  onOpenMention,
  paging,
  onClose,
  onOpen,
}: NotificationsListProps) {
  const { t } = useTranslation();
  return (
    <TopBarPopover anchor={anchor} onClose={onClose} paperSx={{ width: 340 }}>
      <PagedScrollBox
        paging={paging}
        rows={tickets.length}
        sx={{ maxHeight: 420, overflowY: 'auto' }}
        testId="notifications-scroll"
      >
        {mentions.length > 0 && (
          <List dense disablePadding data-testid="notifications-mentions">
            {mentions.map((mention) => (
              <ListItemButton
                key={`mention-${mention.noteId}`}
                divider
                data-testid={`notifications-mention-${mention.noteId}`}
                onClick={() => onOpenMention?.(mention)}
              >
                <ListItemAvatar>
                  <Avatar sx={{ bgcolor: 'warning.light', color: 'warning.contrastText' }}>
                    <AlternateEmailIcon />
                  </Avatar>
                </ListItemAvatar>
                <ListItemText
                  primary={t('tickets.notifications.mention', {
                    author: mention.author?.name ?? '',
                    contact: mention.contactName,
                  })}
                  secondary={mention.note}
                  slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
                />
                <Typography variant="caption" color="text.secondary" sx={{ ml: 1, flexShrink: 0 }}>
                  {formatTicketTime(mention.createdAt)}
                </Typography>
              </ListItemButton>
            ))}
          </List>
        )}
        {tickets.length === 0 && mentions.length === 0 && !paging.hasNextPage ? (
          <TopBarPopoverEmpty text={t('tickets.notifications.empty')} />
        ) : (
          <List dense disablePadding data-testid="notifications-list">
            {tickets.map((ticket) => (
              <ListItemButton
                key={ticket.id}
                divider
                data-testid={`notifications-item-${ticket.id}`}
                onClick={() => onOpen(ticket)}
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
                  secondary={<WhatsAppText text={ticket.lastMessage} inline />}
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
      </PagedScrollBox>
    </TopBarPopover>
  );
}
