/** One message bubble: quote, media, text, markers, time, delivery ticks and the options menu. */
import AccessTimeIcon from '@mui/icons-material/AccessTime';
import BlockIcon from '@mui/icons-material/Block';
import DoneIcon from '@mui/icons-material/Done';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import ReplayIcon from '@mui/icons-material/Replay';
import { Box, IconButton, Menu, MenuItem, Stack, Tooltip, Typography } from '@mui/material';
import type { Message } from '@zapdesk/shared';
import { isValid, lightFormat, parseISO } from 'date-fns';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WhatsAppText } from '../../lib/whatsapp-text';
import { MessageMedia, mediaShowsBody } from './message-media';

const BLUE = '#34B7F1';

/** Delivery ticks of an own message: 0 clock, 1 single, 2 double, 3..5 blue double, -1 failed + retry. */
export function AckIcon({
  message,
  onRetry,
  retrying,
}: {
  message: Pick<Message, 'id' | 'ack'>;
  onRetry?: (id: number) => void;
  retrying?: boolean;
}) {
  const { t } = useTranslation();
  const { id, ack } = message;
  const common = (icon: string, label: string) => ({
    fontSize: 'inherit' as const,
    'data-testid': `message-ack-${id}`,
    'data-ack': ack,
    'data-icon': icon,
    titleAccess: label,
  });
  if (ack < 0)
    return (
      <Stack direction="row" alignItems="center" component="span">
        <Tooltip title={t('ticketView.ack.failed')}>
          <ErrorOutlineIcon {...common('failed', t('ticketView.ack.failed'))} color="error" />
        </Tooltip>
        {onRetry && (
          <Tooltip title={t('ticketView.ack.retry')}>
            <span>
              <IconButton
                size="small"
                disabled={retrying}
                data-testid={`message-retry-${id}`}
                aria-label={t('ticketView.ack.retry')}
                onClick={() => onRetry(id)}
                sx={{ p: 0.25 }}
              >
                <ReplayIcon fontSize="inherit" />
              </IconButton>
            </span>
          </Tooltip>
        )}
      </Stack>
    );
  if (ack === 0) return <AccessTimeIcon {...common('clock', t('ticketView.ack.pending'))} />;
  if (ack === 1) return <DoneIcon {...common('single', t('ticketView.ack.sent'))} />;
  if (ack === 2) return <DoneAllIcon {...common('double', t('ticketView.ack.delivered'))} />;
  return <DoneAllIcon {...common('read', t('ticketView.ack.read'))} sx={{ color: BLUE }} />;
}

/** HH:mm of a message. */
function timeOf(value: string): string {
  const date = parseISO(value);
  return isValid(date) ? lightFormat(date, 'HH:mm') : '';
}

/** The quoted message above a reply (also used by the composer's reply mode). */
export function QuotedBlock({ quoted }: { quoted: NonNullable<Message['quotedMsg']> }) {
  const { t } = useTranslation();
  const author = quoted.fromMe ? t('ticketView.you') : (quoted.contact?.name ?? '');
  const text =
    quoted.body || (quoted.mediaType !== 'chat' ? t(`ticketView.mediaTypes.${quoted.mediaType}`) : '');
  return (
    <Box
      data-testid="quoted-message"
      sx={{
        borderLeft: 4,
        borderColor: quoted.fromMe ? 'primary.main' : 'success.main',
        bgcolor: 'action.hover',
        borderRadius: 1,
        px: 1,
        py: 0.5,
        mb: 0.5,
        overflow: 'hidden',
      }}
    >
      <Typography variant="caption" fontWeight={600} color={quoted.fromMe ? 'primary' : 'success.main'}>
        {author}
      </Typography>
      <Typography
        variant="body2"
        color="text.secondary"
        component="div"
        sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', maxHeight: 80, overflow: 'hidden' }}
      >
        <WhatsAppText text={text} inline />
      </Typography>
    </Box>
  );
}

interface MessageItemProps {
  message: Message;
  reactions?: Message[];
  onReply: (message: Message) => void;
  onDelete: (message: Message) => void;
  onRetry: (id: number) => void;
  retrying?: boolean;
  /** Group tickets show the author's name on contact messages. */
  isGroup?: boolean;
}

/** A bubble: contact messages on the left, own messages on the right. */
export function MessageItem({
  message,
  reactions = [],
  onReply,
  onDelete,
  onRetry,
  retrying,
  isGroup = false,
}: MessageItemProps) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const { fromMe } = message;

  if (message.mediaType === 'reaction') {
    return (
      <Box
        data-testid={`message-${message.id}`}
        data-from-me={String(fromMe)}
        data-ack={message.ack}
        sx={{ display: 'flex', justifyContent: fromMe ? 'flex-end' : 'flex-start', px: 2, py: 0.25 }}
      >
        <Typography variant="caption" color="text.secondary">
          {t('ticketView.reacted', { emoji: message.body })}
        </Typography>
      </Box>
    );
  }

  const showText = !mediaShowsBody(message) && message.body && message.body !== message.mediaName;
  return (
    <Box
      data-testid={`message-${message.id}`}
      data-from-me={String(fromMe)}
      data-ack={message.ack}
      sx={{ display: 'flex', justifyContent: fromMe ? 'flex-end' : 'flex-start', px: 2, py: 0.5 }}
    >
      <Box
        sx={(theme) => ({
          position: 'relative',
          maxWidth: { xs: '85%', md: '65%' },
          minWidth: 100,
          px: 1.25,
          pt: 0.75,
          pb: 0.5,
          borderRadius: 2,
          boxShadow: 1,
          bgcolor: fromMe ? (theme.palette.mode === 'dark' ? '#005c4b' : '#dcf8c6') : 'background.paper',
          '&:hover .message-options': { opacity: 1 },
        })}
      >
        <IconButton
          size="small"
          className="message-options"
          aria-label={t('ticketView.options')}
          data-testid={`message-options-${message.id}`}
          onClick={(e) => setAnchor(e.currentTarget)}
          sx={{ position: 'absolute', top: 0, right: 0, p: 0.25, opacity: { xs: 1, md: 0.3 } }}
        >
          <ExpandMoreIcon fontSize="small" />
        </IconButton>
        <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
          <MenuItem
            data-testid="message-reply"
            onClick={() => {
              setAnchor(null);
              onReply(message);
            }}
          >
            {t('ticketView.reply')}
          </MenuItem>
          {fromMe && !message.isDeleted && (
            <MenuItem
              data-testid="message-delete"
              onClick={() => {
                setAnchor(null);
                onDelete(message);
              }}
            >
              {t('ticketView.delete')}
            </MenuItem>
          )}
        </Menu>
        {!fromMe && isGroup && message.contact?.name && (
          <Typography variant="caption" fontWeight={600} color="primary">
            {message.contact.name}
          </Typography>
        )}
        {message.quotedMsg && <QuotedBlock quoted={message.quotedMsg} />}
        <Box sx={{ pr: 2.5 }}>
          <MessageMedia message={message} />
        </Box>
        {message.isDeleted && (
          <Stack
            direction="row"
            spacing={0.5}
            alignItems="center"
            color="text.secondary"
            sx={{ pr: 2.5 }}
            data-testid={`message-deleted-${message.id}`}
          >
            <BlockIcon sx={{ fontSize: 14 }} />
            <Typography variant="caption" fontStyle="italic">
              {t('ticketView.deleted')}
            </Typography>
          </Stack>
        )}
        {showText && (
          <Typography
            variant="body2"
            component="div"
            data-testid={`message-body-${message.id}`}
            sx={{
              whiteSpace: 'pre-wrap',
              wordBreak: 'break-word',
              pr: 2.5,
              ...(message.isDeleted && { color: 'text.secondary', textDecoration: 'line-through' }),
            }}
          >
            <WhatsAppText text={message.body} />
          </Typography>
        )}
        <Stack
          direction="row"
          spacing={0.5}
          alignItems="center"
          justifyContent="flex-end"
          sx={{ color: 'text.secondary', fontSize: 14, mt: 0.25 }}
        >
          {message.isEdited && (
            <Typography variant="caption" fontStyle="italic" data-testid={`message-edited-${message.id}`}>
              {t('ticketView.edited')}
            </Typography>
          )}
          <Typography variant="caption">{timeOf(message.createdAt)}</Typography>
          {fromMe && <AckIcon message={message} onRetry={onRetry} retrying={retrying} />}
        </Stack>
        {reactions.length > 0 && (
          <Box
            data-testid={`message-reactions-${message.id}`}
            sx={{
              position: 'absolute',
              bottom: -12,
              [fromMe ? 'right' : 'left']: 8,
              bgcolor: 'background.paper',
              borderRadius: 3,
              boxShadow: 1,
              px: 0.5,
              fontSize: 13,
            }}
          >
            {reactions.map((r) => r.body).join('')}
          </Box>
        )}
      </Box>
    </Box>
  );
}
