import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/Edit';
import SendIcon from '@mui/icons-material/Send';
import {
  Badge,
  Box,
  Button,
  IconButton,
  List,
  ListItemButton,
  ListItemText,
  Paper,
  Tab,
  Tabs,
  TextField,
  Tooltip,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { CHAT_HISTORY_LOAD_THRESHOLD_PX, type Chat } from '@zapdesk/shared';
import { type UIEvent, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { formatShortDateTime } from '../../lib/format';
import { loadMoreOnScroll, loadNextPage } from '../../lib/load-more-on-scroll';
import { useCurrentUser } from '../auth/session-context';
import { ConfirmationDialog } from '../common/confirmation-dialog';
import { ChatModal } from './chat-modal';
import { addChatMessage, putChatFirst, replaceChat } from './chats-cache';
import {
  chatsKeys,
  unreadsOf,
  useChatByUuid,
  useChatMessages,
  useChatsList,
  useDeleteChat,
  useFlatChats,
  useMarkChatRead,
  useSendChatMessage,
} from './use-chats';

/**
 * /chats and /chats/{uuid} (document 2 section 2 "Internal chat"): the caller's chats beside the
 * open chat's messages on desktop, two tabs (chats, messages) on narrow screens. Only the owner sees
 * edit and delete. Opening a chat marks it read.
 */
export function ChatsPage() {
  const { t } = useTranslation();
  const theme = useTheme();
  const desktop = useMediaQuery(theme.breakpoints.up('md'));
  const navigate = useNavigate();
  const { chatId: uuid } = useParams();
  const me = useCurrentUser();
  const queryClient = useQueryClient();
  const list = useChatsList();
  const chats = useFlatChats(list.data);
  const listed = chats.find((c) => c.uuid === uuid);
  // A link to a chat beyond the loaded pages is fetched by its uuid once the list has loaded.
  const linked = useChatByUuid(uuid, !listed && list.isSuccess);
  const selected = listed ?? linked.data ?? null;
  const [tab, setTab] = useState<'chats' | 'messages'>(uuid ? 'messages' : 'chats');
  const [editing, setEditing] = useState<Chat | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Chat | null>(null);
  const remove = useDeleteChat();
  const markRead = useMarkChatRead();
  const unread = selected ? unreadsOf(selected, me.id) : 0;
  const markReadMutate = markRead.mutate;
  const selectedId = selected?.id ?? null;

  // The open chat is read: on opening it and whenever a message arrives while it is open.
  useEffect(() => {
    if (selectedId === null || unread === 0) return;
    markReadMutate(
      { chatId: selectedId, userId: me.id },
      {
        onSuccess: (chat) => {
          replaceChat(queryClient, chat);
          queryClient.setQueryData(chatsKeys.byUuid(chat.uuid), chat);
        },
      },
    );
  }, [selectedId, unread, me.id, markReadMutate, queryClient]);

  const open = (chat: Chat) => {
    navigate(`/chats/${chat.uuid}`);
    setTab('messages');
  };

  const chatList = (
    <Paper variant="outlined" sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, flex: 1 }}>
      <List
        dense
        disablePadding
        sx={{ overflowY: 'auto', flex: 1 }}
        onScroll={loadMoreOnScroll(list)}
        data-testid="chats-list"
      >
        {chats.length === 0 && !list.isLoading && (
          <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
            {t('chat.noChats')}
          </Typography>
        )}
        {chats.map((chat) => {
          const count = unreadsOf(chat, me.id);
          return (
            <ListItemButton
              key={chat.id}
              divider
              selected={chat.id === selected?.id}
              onClick={() => open(chat)}
              data-testid={`chat-item-${chat.id}`}
            >
              <ListItemText
                primary={chat.title}
                secondary={chat.lastMessage || t('chat.noMessages')}
                slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
              />
              {count > 0 && (
                <Badge
                  badgeContent={count}
                  color="secondary"
                  sx={{ mx: 1.5 }}
                  data-testid={`chat-unreads-${chat.id}`}
                />
              )}
              {chat.ownerId === me.id && (
                <Box sx={{ display: 'flex', flexShrink: 0 }} onClick={(e) => e.stopPropagation()}>
                  <Tooltip title={t('chat.edit')}>
                    <IconButton
                      size="small"
                      aria-label={t('chat.edit')}
                      data-testid={`chat-edit-${chat.id}`}
                      onClick={() => setEditing(chat)}
                    >
                      <EditIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t('chat.delete')}>
                    <IconButton
                      size="small"
                      aria-label={t('chat.delete')}
                      data-testid={`chat-delete-${chat.id}`}
                      onClick={() => setDeleting(chat)}
                    >
                      <DeleteOutlineIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </Box>
              )}
            </ListItemButton>
          );
        })}
      </List>
    </Paper>
  );

  const messages = selected ? (
    <ChatMessages key={selected.id} chat={selected} />
  ) : (
    <Paper variant="outlined" sx={{ flex: 1, display: 'grid', placeItems: 'center', p: 2 }}>
      <Typography color="text.secondary">{t('chat.selectChat')}</Typography>
    </Paper>
  );

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: 'calc(100vh - 112px)', gap: 1.5 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography variant="h6" component="h1" sx={{ flex: 1 }}>
          {t('chat.title')}
        </Typography>
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          onClick={() => setEditing('new')}
          data-testid="chat-new"
        >
          {t('chat.buttons.new')}
        </Button>
      </Box>
      {desktop ? (
        <Box sx={{ display: 'flex', gap: 1.5, flex: 1, minHeight: 0 }} data-testid="chats-split">
          <Box sx={{ width: 340, display: 'flex', minHeight: 0 }}>{chatList}</Box>
          <Box sx={{ flex: 1, display: 'flex', minHeight: 0 }}>{messages}</Box>
        </Box>
      ) : (
        <Box
          sx={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 }}
          data-testid="chats-tabs"
        >
          <Tabs value={tab} onChange={(_e, value) => setTab(value)} variant="fullWidth">
            <Tab value="chats" label={t('chat.tabs.chats')} data-testid="chats-tab-chats" />
            <Tab value="messages" label={t('chat.tabs.messages')} data-testid="chats-tab-messages" />
          </Tabs>
          <Box sx={{ display: 'flex', flex: 1, minHeight: 0, pt: 1 }}>
            {tab === 'chats' ? chatList : messages}
          </Box>
        </Box>
      )}
      {editing !== null && (
        <ChatModal
          chat={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(chat) => {
            setEditing(null);
            putChatFirst(queryClient, chat);
            open(chat);
          }}
        />
      )}
      <ConfirmationDialog
        open={deleting !== null}
        title={t('chat.confirmDelete.title', { title: deleting?.title ?? '' })}
        message={t('chat.confirmDelete.message')}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          const id = deleting.id;
          remove.mutate(id, { onSuccess: () => (id === selected?.id ? navigate('/chats') : undefined) });
        }}
      />
    </Box>
  );
}

/**
 * The open chat: its history (oldest at the top, older pages loading within
 * CHAT_HISTORY_LOAD_THRESHOLD_PX of the top without moving what is on screen) and the composer,
 * which does not send an empty message.
 */
function ChatMessages({ chat }: { chat: Chat }) {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const queryClient = useQueryClient();
  const history = useChatMessages(chat.id);
  const send = useSendChatMessage();
  const [text, setText] = useState('');
  const box = useRef<HTMLDivElement>(null);
  const lastHeight = useRef(0);
  const pages = history.data?.pages.length ?? 0;
  const rows = useMemo(
    () =>
      (history.data?.pages ?? [])
        .flatMap((p) => p.records)
        .slice()
        .reverse(),
    [history.data],
  );
  const newestId = rows[rows.length - 1]?.id;

  // A new message scrolls to the bottom; an older page keeps the view where it was.
  const previousPages = useRef(0);
  const previousNewest = useRef<number | undefined>(undefined);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const olderPage = pages > previousPages.current && previousPages.current > 0;
    if (olderPage && newestId === previousNewest.current) {
      el.scrollTop += el.scrollHeight - lastHeight.current;
    } else {
      el.scrollTop = el.scrollHeight;
    }
    previousPages.current = pages;
    previousNewest.current = newestId;
    lastHeight.current = el.scrollHeight;
  }, [pages, newestId]);

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    lastHeight.current = event.currentTarget.scrollHeight;
    if (event.currentTarget.scrollTop < CHAT_HISTORY_LOAD_THRESHOLD_PX) loadNextPage(history);
  };

  const submit = () => {
    const message = text.trim();
    if (!message || send.isPending) return;
    send.mutate(
      { chatId: chat.id, message },
      {
        onSuccess: (saved) => {
          setText('');
          addChatMessage(queryClient, saved);
        },
      },
    );
  };

  return (
    <Paper variant="outlined" sx={{ flex: 1, display: 'flex', flexDirection: 'column', minHeight: 0 }}>
      <Typography variant="subtitle1" sx={{ px: 2, py: 1, borderBottom: 1, borderColor: 'divider' }} noWrap>
        {chat.title}
      </Typography>
      <Box
        ref={box}
        onScroll={onScroll}
        sx={{ flex: 1, overflowY: 'auto', p: 2, display: 'flex', flexDirection: 'column', gap: 1 }}
        data-testid="chat-messages"
      >
        {rows.map((m) => {
          const mine = m.senderId === me.id;
          return (
            <Box
              key={m.id}
              sx={{
                alignSelf: mine ? 'flex-end' : 'flex-start',
                maxWidth: '75%',
                bgcolor: mine ? 'primary.main' : 'action.hover',
                color: mine ? 'primary.contrastText' : 'text.primary',
                borderRadius: 2,
                px: 1.5,
                py: 1,
              }}
              data-testid={`chat-message-${m.id}`}
            >
              <Typography variant="caption" component="p" sx={{ fontWeight: 600 }}>
                {m.sender?.name ?? t('chat.unknownSender')}
              </Typography>
              <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                {m.message}
              </Typography>
              <Typography variant="caption" component="p" sx={{ opacity: 0.7, textAlign: 'right' }}>
                {formatShortDateTime(m.createdAt)}
              </Typography>
            </Box>
          );
        })}
      </Box>
      <Box
        component="form"
        sx={{ display: 'flex', gap: 1, p: 1, borderTop: 1, borderColor: 'divider' }}
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <TextField
          fullWidth
          size="small"
          multiline
          maxRows={4}
          placeholder={t('chat.placeholder')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              submit();
            }
          }}
          slotProps={{ htmlInput: { 'data-testid': 'chat-input', maxLength: 10_000 } }}
        />
        <IconButton type="submit" color="primary" aria-label={t('chat.send')} data-testid="chat-send">
          <SendIcon />
        </IconButton>
      </Box>
    </Paper>
  );
}
