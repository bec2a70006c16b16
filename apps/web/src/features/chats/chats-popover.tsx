import ForumIcon from '@mui/icons-material/Forum';
import {
  Badge,
  Box,
  IconButton,
  List,
  ListItemButton,
  ListItemText,
  Popover,
  Tooltip,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCurrentUser } from '../auth/session-context';
import { unreadsOf, useChatsList, useFlatChats } from './use-chats';

/** Whether the signed-in user's company plan has internal chat. */
export function useInternalChatEnabled(): boolean {
  return useCurrentUser().company.plan?.useInternalChat === true;
}

/** The caller's loaded chats and how many of them have unread messages for the caller. */
export function useUnreadChats(enabled: boolean) {
  const me = useCurrentUser();
  const list = useChatsList(enabled);
  const chats = useFlatChats(list.data);
  return { chats, unread: chats.filter((c) => unreadsOf(c, me.id) > 0).length, list };
}

/**
 * The top bar's internal chats popover (core section 2 "Top bar"): the caller's chats, latest first,
 * with their unread counts; the button's badge counts the chats with unread messages. Shown when the
 * plan has internal chat.
 */
export function ChatsPopover() {
  const enabled = useInternalChatEnabled();
  return enabled ? <ChatsPopoverButton /> : null;
}

function ChatsPopoverButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const me = useCurrentUser();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const { chats, unread } = useUnreadChats(true);

  return (
    <>
      <Tooltip title={t('chat.popover.title')}>
        <IconButton
          color="inherit"
          aria-label={t('chat.popover.title')}
          data-testid="chats-popover-button"
          onClick={(e) => setAnchor(e.currentTarget)}
        >
          <Badge badgeContent={unread} color="secondary" data-testid="chats-popover-count">
            <ForumIcon />
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
        {chats.length === 0 ? (
          <Box sx={{ p: 2 }}>
            <Typography variant="body2" color="text.secondary">
              {t('chat.noChats')}
            </Typography>
          </Box>
        ) : (
          <List dense disablePadding data-testid="chats-popover-list">
            {chats.map((chat) => (
              <ListItemButton
                key={chat.id}
                divider
                data-testid={`chats-popover-item-${chat.id}`}
                onClick={() => {
                  setAnchor(null);
                  navigate(`/chats/${chat.uuid}`);
                }}
              >
                <ListItemText
                  primary={chat.title}
                  secondary={chat.lastMessage || t('chat.noMessages')}
                  slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
                />
                <Badge badgeContent={unreadsOf(chat, me.id)} color="secondary" sx={{ mx: 1.5 }} />
              </ListItemButton>
            ))}
          </List>
        )}
      </Popover>
    </>
  );
}
