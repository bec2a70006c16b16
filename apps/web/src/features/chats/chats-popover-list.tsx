import { Badge, List, ListItemButton, ListItemText } from '@mui/material';
import type { Chat } from '@zapdesk/shared';
import { useTranslation } from 'react-i18next';
import { TopBarPopover, TopBarPopoverEmpty } from '../common/top-bar-popover';
import { unreadsOf } from './use-chats';

interface ChatsPopoverListProps {
  anchor: HTMLElement | null;
  chats: Chat[];
  /** The signed-in user's id (whose unread counts are shown). */
  meId: number;
  onClose: () => void;
  /** A chat was chosen (the popover is to close and the chat to open). */
  onOpen: (chat: Chat) => void;
}

/** The internal chats popover and its list (MUI Popover, Modal, List): a chunk loaded when first opened. */
export function ChatsPopoverList({ anchor, chats, meId, onClose, onOpen }: ChatsPopoverListProps) {
  const { t } = useTranslation();
  return (
    <TopBarPopover anchor={anchor} onClose={onClose} paperSx={{ width: 340, maxHeight: 420 }}>
      {chats.length === 0 ? (
        <TopBarPopoverEmpty text={t('chat.noChats')} />
      ) : (
        <List dense disablePadding data-testid="chats-popover-list">
          {chats.map((chat) => (
            <ListItemButton
              key={chat.id}
              divider
              data-testid={`chats-popover-item-${chat.id}`}
              onClick={() => onOpen(chat)}
            >
              <ListItemText
                primary={chat.title}
                secondary={chat.lastMessage || t('chat.noMessages')}
                slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
              />
              <Badge badgeContent={unreadsOf(chat, meId)} color="secondary" sx={{ mx: 1.5 }} />
            </ListItemButton>
          ))}
        </List>
      )}
    </TopBarPopover>
  );
}
