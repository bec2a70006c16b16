import { Box, CircularProgress, Stack, Typography } from '@mui/material';
import type { Message, Ticket } from '@zapdesk/shared';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import { WhatsAppText } from '../../lib/whatsapp-text';
import { InfoDialog } from '../common/info-dialog';
import { usePeekMessages } from './use-tickets';

/** The text of a message in the preview: its body, or its media kind. */
function previewText(message: Message, t: (key: string) => string): string {
  if (message.isDeleted) return t('tickets.peek.deleted');
  if (message.mediaType === 'chat' || message.mediaType === 'reaction') return message.body;
  const label = t(`tickets.peek.media.${message.mediaType}`);
  return message.body && message.body !== message.mediaName ? `[${label}] ${message.body}` : `[${label}]`;
}

/** The admins' read-only preview of a conversation (core section 2 "Ticket list item": peek). */
export function PeekDialog({ ticket, onClose }: { ticket: Ticket; onClose: () => void }) {
  const { t } = useTranslation();
  const messages = usePeekMessages(ticket.id);

  return (
    <InfoDialog
      onClose={onClose}
      title={t('tickets.peek.title', { name: ticket.contact?.name ?? '', id: ticket.id })}
      titleId="peek-title"
      maxWidth="sm"
      testId="peek-dialog"
      dividers
      contentSx={{ minHeight: 240, bgcolor: 'background.default' }}
    >
      {messages.isPending ? (
        <Box sx={{ display: 'grid', placeItems: 'center', p: 4 }}>
          <CircularProgress />
        </Box>
      ) : (messages.data?.messages ?? []).length === 0 ? (
        <Typography color="text.secondary">{t('tickets.peek.empty')}</Typography>
      ) : (
        <Stack spacing={1}>
          {messages.data?.messages.map((message) => (
            <Box
              key={message.id}
              data-testid={`peek-message-${message.id}`}
              sx={{
                alignSelf: message.fromMe ? 'flex-end' : 'flex-start',
                maxWidth: '80%',
                px: 1.5,
                py: 0.75,
                borderRadius: 2,
                bgcolor: message.fromMe ? 'primary.light' : 'background.paper',
                color: message.fromMe ? 'primary.contrastText' : 'text.primary',
                boxShadow: 1,
              }}
            >
              <Typography
                variant="body2"
                component="div"
                sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
              >
                <WhatsAppText text={previewText(message, t)} />
              </Typography>
              <Typography variant="caption" sx={{ display: 'block', textAlign: 'right', opacity: 0.7 }}>
                {formatDateTime(message.createdAt)}
              </Typography>
            </Box>
          ))}
        </Stack>
      )}
    </InfoDialog>
  );
}
