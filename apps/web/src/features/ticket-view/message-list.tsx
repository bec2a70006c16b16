/**
 * The paged history of the open ticket (core section 2 "Message list", section 9): page 1 is the
 * newest; the next older page is prepended when scrolled within 50 px of the top, keeping the scroll
 * position. Day separators dd/MM/yyyy, markers between conversations (consecutive messages of different
 * tickets), reactions attached to the reacted message, a greeting when empty. The ticket's internal
 * notes sit at their time among the messages, as yellow bubbles labelled 'Nota interna' with their
 * author (docs/inbox.md "Notes and mentions"); they never reach the customer.
 */
import ChatBubbleOutlineIcon from '@mui/icons-material/ChatBubbleOutline';
import StickyNote2OutlinedIcon from '@mui/icons-material/StickyNote2Outlined';
import { Box, Chip, CircularProgress, Divider, Stack, Typography } from '@mui/material';
import { HISTORY_LOAD_THRESHOLD_PX, type Message, type Ticket, type TicketNote } from '@zapdesk/shared';
import { Fragment, type ReactNode, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { formatDate, formatDateTime } from '../../lib/format';
import { ConfirmationDialog } from '../common/confirmation-dialog';
import { MessageItem } from './message-item';
import { flattenMessages, flattenNotes } from './messages-cache';
import { useDeleteMessage, useMessages, useRetryMessage } from './use-ticket-view';

/** One row of the rendered history. */
export type HistoryRow =
  | { kind: 'day'; key: string; date: string }
  | { kind: 'conversation'; key: string; endedAt: string; startedAt: string }
  | { kind: 'message'; key: string; message: Message; reactions: Message[] }
  | { kind: 'note'; key: string; note: TicketNote };

/**
 * Builds the rows: a day separator before the first message of each day, a conversation marker where
 * consecutive messages belong to different tickets, reactions attached to the message they react to
 * (shown alone when that message is not loaded), and each note (`notes`, oldest first) before the
 * first message newer than it.
 */
export function buildHistoryRows(messages: Message[], notes: TicketNote[] = []): HistoryRow[] {
  const ids = new Set(messages.map((m) => m.id));
  const reactionsOf = new Map<number, Message[]>();
  for (const m of messages) {
    if (m.mediaType === 'reaction' && m.reactionToId !== null && ids.has(m.reactionToId)) {
      reactionsOf.set(m.reactionToId, [...(reactionsOf.get(m.reactionToId) ?? []), m]);
    }
  }
  const rows: HistoryRow[] = [];
  let previous: Message | null = null;
  let nextNote = 0;
  const notesBefore = (createdAt: string | null) => {
    while (nextNote < notes.length && (createdAt === null || notes[nextNote]!.createdAt < createdAt)) {
      const note = notes[nextNote++]!;
      rows.push({ kind: 'note', key: `note-${note.id}`, note });
    }
  };
  for (const message of messages) {
    if (message.mediaType === 'reaction' && message.reactionToId !== null && ids.has(message.reactionToId))
      continue;
    notesBefore(message.createdAt);
    if (previous && previous.ticketId !== message.ticketId) {
      rows.push({
        kind: 'conversation',
        key: `conversation-${message.id}`,
        endedAt: previous.createdAt,
        startedAt: message.createdAt,
      });
    }
    const day = formatDate(message.createdAt);
    if (!previous || formatDate(previous.createdAt) !== day) {
      rows.push({ kind: 'day', key: `day-${message.id}`, date: day });
    }
    rows.push({
      kind: 'message',
      key: `message-${message.id}`,
      message,
      reactions: reactionsOf.get(message.id) ?? [],
    });
    previous = message;
  }
  notesBefore(null);
  return rows;
}

/** An internal note in the history: a yellow bubble with its author, 'Nota interna' and its time. */
export function NoteBubble({ note }: { note: TicketNote }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', px: 2, my: 0.5 }}>
      <Box
        role="note"
        aria-label={t('ticketView.internalNote')}
        data-testid={`note-bubble-${note.id}`}
        sx={(theme) => ({
          maxWidth: { xs: '92%', sm: '75%' },
          px: 1.5,
          py: 1,
          borderRadius: 2,
          border: 1,
          borderColor: theme.palette.mode === 'dark' ? '#8a7a2e' : '#e6d27a',
          bgcolor: theme.palette.mode === 'dark' ? '#3a3417' : '#fff6c7',
          color: theme.palette.mode === 'dark' ? '#f5ecc2' : '#3d3510',
          boxShadow: 1,
        })}
      >
        <Stack direction="row" spacing={0.5} alignItems="center" sx={{ mb: 0.5 }}>
          <StickyNote2OutlinedIcon sx={{ fontSize: 16 }} />
          <Typography variant="caption" sx={{ fontWeight: 700 }}>
            {t('ticketView.internalNote')}
          </Typography>
          {note.user && (
            <Typography variant="caption" data-testid="note-author">
              · {note.user.name}
            </Typography>
          )}
        </Stack>
        <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {note.note}
        </Typography>
        <Typography variant="caption" component="div" sx={{ textAlign: 'right', opacity: 0.8 }}>
          {formatDateTime(note.createdAt)}
        </Typography>
      </Box>
    </Box>
  );
}

function DaySeparator({ date }: { date: string }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', my: 1 }}>
      <Chip
        size="small"
        label={date}
        data-testid="day-separator"
        sx={{ bgcolor: 'background.paper', boxShadow: 1 }}
      />
    </Box>
  );
}

function ConversationMarker({ endedAt, startedAt }: { endedAt: string; startedAt: string }) {
  const { t } = useTranslation();
  return (
    <Stack spacing={0.5} alignItems="center" sx={{ my: 1.5, px: 2 }} data-testid="conversation-marker">
      <Typography variant="caption" color="text.secondary">
        {t('ticketView.conversationEnded', { date: formatDateTime(endedAt) })}
      </Typography>
      <Divider flexItem />
      <Typography variant="caption" color="text.secondary">
        {t('ticketView.conversationStarted', { date: formatDateTime(startedAt) })}
      </Typography>
    </Stack>
  );
}

interface MessageListProps {
  ticket: Ticket;
  onReply: (message: Message) => void;
}

/** The scrolling history of `ticket`'s contact. */
export function MessageList({ ticket, onReply }: MessageListProps) {
  const { t } = useTranslation();
  const query = useMessages(ticket.id, ticket.contact.id);
  const retry = useRetryMessage(ticket.id, ticket.contact.id);
  const remove = useDeleteMessage(ticket.id, ticket.contact.id);
  const [toDelete, setToDelete] = useState<Message | null>(null);
  const messages = useMemo(() => flattenMessages(query.data), [query.data]);
  const notes = useMemo(() => flattenNotes(query.data), [query.data]);
  const rows = useMemo(() => buildHistoryRows(messages, notes), [messages, notes]);

  const ref = useRef<HTMLDivElement>(null);
  const prev = useRef<{ first?: number; last?: number; height: number; top: number; nearBottom: boolean }>({
    height: 0,
    top: 0,
    nearBottom: true,
  });

  // Scroll: to the bottom on the first page and on new messages (when already near the bottom or
  // own); by the added height when older messages were prepended.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const first = messages[0]?.id;
    const lastMessage = messages.at(-1);
    const last = lastMessage?.id;
    const state = prev.current;
    if (state.last === undefined && last !== undefined) el.scrollTop = el.scrollHeight;
    else if (first !== state.first && state.first !== undefined && messages.some((m) => m.id === state.first))
      el.scrollTop += el.scrollHeight - state.height;
    else if (last !== state.last && (state.nearBottom || lastMessage?.fromMe)) {
      el.scrollTop = el.scrollHeight;
      state.nearBottom = true;
    }
    state.top = el.scrollTop;
    state.first = first;
    state.last = last;
    state.height = el.scrollHeight;
    // A first page that does not fill the box cannot be scrolled: load the older one at once.
    if (el.clientHeight > 0 && el.scrollHeight <= el.clientHeight && query.hasNextPage && !query.isFetching)
      void query.fetchNextPage();
  }, [messages, query.hasNextPage, query.isFetching, query.fetchNextPage]);

  // Media that finish loading and a resized box change the heights: stay at the bottom when the user
  // was there.
  const contentRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const content = contentRef.current;
    const box = ref.current;
    if (!content || !box || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      const el = ref.current;
      if (!el) return;
      if (prev.current.nearBottom) el.scrollTop = el.scrollHeight;
      prev.current.height = el.scrollHeight;
      prev.current.top = el.scrollTop;
    });
    observer.observe(content);
    observer.observe(box);
    return () => observer.disconnect();
  }, []);

  const onScroll = () => {
    const el = ref.current;
    if (!el) return;
    const state = prev.current;
    state.height = el.scrollHeight;
    // Pinned to the bottom until the user scrolls up; again when back near the bottom.
    if (el.scrollHeight - el.scrollTop - el.clientHeight < 100) state.nearBottom = true;
    else if (el.scrollTop < state.top - 2) state.nearBottom = false;
    state.top = el.scrollTop;
    if (el.scrollTop < HISTORY_LOAD_THRESHOLD_PX && query.hasNextPage && !query.isFetchingNextPage)
      void query.fetchNextPage();
  };

  let content: ReactNode;
  if (query.isPending) {
    content = (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
        <CircularProgress size={28} />
      </Box>
    );
  } else if (messages.length === 0 && notes.length === 0) {
    content = (
      <Stack alignItems="center" spacing={1} sx={{ m: 'auto', p: 4 }} data-testid="message-list-empty">
        <ChatBubbleOutlineIcon color="disabled" sx={{ fontSize: 48 }} />
        <Typography color="text.secondary" textAlign="center">
          {t('ticketView.empty', { name: ticket.contact.name })}
        </Typography>
      </Stack>
    );
  } else {
    content = rows.map((row) => (
      <Fragment key={row.key}>
        {row.kind === 'day' && <DaySeparator date={row.date} />}
        {row.kind === 'conversation' && (
          <ConversationMarker endedAt={row.endedAt} startedAt={row.startedAt} />
        )}
        {row.kind === 'note' && <NoteBubble note={row.note} />}
        {row.kind === 'message' && (
          <MessageItem
            message={row.message}
            reactions={row.reactions}
            isGroup={ticket.isGroup}
            onReply={onReply}
            onDelete={setToDelete}
            onRetry={(id) => retry.mutate(id)}
            retrying={retry.isPending && retry.variables === row.message.id}
          />
        )}
      </Fragment>
    ));
  }

  return (
    <Box
      ref={ref}
      onScroll={onScroll}
      data-testid="message-list"
      sx={(theme) => ({
        flex: 1,
        minHeight: 0,
        overflowY: 'auto',
        display: 'flex',
        flexDirection: 'column',
        py: 1,
        bgcolor: theme.palette.mode === 'dark' ? '#0b141a' : '#efeae2',
      })}
    >
      {query.isFetchingNextPage && (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 1 }} data-testid="message-list-loading">
          <CircularProgress size={20} />
        </Box>
      )}
      <Box ref={contentRef} sx={{ display: 'flex', flexDirection: 'column', flexGrow: 1 }}>
        {content}
      </Box>
      <ConfirmationDialog
        open={toDelete !== null}
        title={t('ticketView.deleteMessageTitle')}
        message={t('ticketView.deleteMessageText')}
        onClose={() => setToDelete(null)}
        onConfirm={() => {
          if (!toDelete) return;
          remove.mutate(toDelete.id, {
            onSuccess: () => toast.success(t('ticketView.messageDeleted'), { autoClose: 2000 }),
          });
        }}
      />
    </Box>
  );
}
