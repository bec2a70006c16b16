/** The media part of a message bubble, by mediaType (core section 2 "Message list"). */
import CallIcon from '@mui/icons-material/Call';
import ContactPhoneIcon from '@mui/icons-material/ContactPhone';
import DownloadIcon from '@mui/icons-material/Download';
import LocationOnIcon from '@mui/icons-material/LocationOn';
import { Box, Button, CircularProgress, Dialog, DialogContent, Link, Stack, Typography } from '@mui/material';
import type { Message } from '@zapdesk/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../../lib/notify';
import { downloadMedia, parseLocation, parseVCard, useMediaUrl } from './media';

const Loading = () => <CircularProgress size={20} sx={{ m: 1 }} />;

function MediaError() {
  const { t } = useTranslation();
  return (
    <Typography variant="caption" color="text.secondary">
      {t('ticketView.media.unavailable')}
    </Typography>
  );
}

/** Image preview; a click opens a larger dialog. */
function ImageMedia({ message }: { message: Message }) {
  const { t } = useTranslation();
  const { src, error } = useMediaUrl(message.mediaUrl);
  const [open, setOpen] = useState(false);
  if (error) return <MediaError />;
  if (!src) return <Loading />;
  return (
    <>
      <Box
        component="img"
        src={src}
        alt={message.mediaName ?? t('ticketView.media.image')}
        data-testid={`message-image-${message.id}`}
        onClick={() => setOpen(true)}
        sx={{ display: 'block', maxWidth: 260, maxHeight: 260, borderRadius: 1, cursor: 'pointer' }}
      />
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="lg">
        <DialogContent sx={{ p: 1 }}>
          <Box
            component="img"
            src={src}
            alt={message.mediaName ?? t('ticketView.media.image')}
            data-testid="image-dialog"
            sx={{ display: 'block', maxWidth: '100%', maxHeight: '85vh' }}
          />
        </DialogContent>
      </Dialog>
    </>
  );
}

function StickerMedia({ message }: { message: Message }) {
  const { t } = useTranslation();
  const { src, error } = useMediaUrl(message.mediaUrl);
  if (error) return <MediaError />;
  if (!src) return <Loading />;
  return (
    <Box
      component="img"
      src={src}
      alt={t('ticketView.media.sticker')}
      data-testid={`message-sticker-${message.id}`}
      sx={{ display: 'block', width: 128, height: 128, objectFit: 'contain' }}
    />
  );
}

function AudioMedia({ message }: { message: Message }) {
  const { src, error } = useMediaUrl(message.mediaUrl);
  if (error) return <MediaError />;
  if (!src) return <Loading />;
  return (
    // biome-ignore lint/a11y/useMediaCaption: recorded voice messages have no captions
    <audio controls src={src} data-testid={`message-audio-${message.id}`} style={{ maxWidth: 260 }} />
  );
}

function VideoMedia({ message }: { message: Message }) {
  const { src, error } = useMediaUrl(message.mediaUrl);
  if (error) return <MediaError />;
  if (!src) return <Loading />;
  return (
    // biome-ignore lint/a11y/useMediaCaption: customer videos have no captions
    <video
      controls
      src={src}
      data-testid={`message-video-${message.id}`}
      style={{ maxWidth: 260, maxHeight: 260, display: 'block' }}
    />
  );
}

/**
 * A document's download name and button label: its file name when it has one ('Baixar report.pdf');
 * else its kind from the stored name's extension ('Baixar documento PDF', saved as documento.pdf).
 */
export function documentLabel(
  message: Pick<Message, 'mediaName' | 'mediaUrl'>,
  t: (key: string, options?: Record<string, string>) => string,
): { name: string; label: string } {
  if (message.mediaName) {
    return { name: message.mediaName, label: t('ticketView.media.download', { name: message.mediaName }) };
  }
  const ext = /\.([a-z0-9]{1,8})$/i.exec(message.mediaUrl ?? '')?.[1]?.toLowerCase();
  const base = t('ticketView.media.document').toLowerCase();
  if (!ext) return { name: base, label: t('ticketView.media.downloadDocument') };
  return { name: `${base}.${ext}`, label: t('ticketView.media.downloadType', { type: ext.toUpperCase() }) };
}

/** Document or other file: a download button (fetched with the token on click). */
function DocumentMedia({ message }: { message: Message }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const { name, label } = documentLabel(message, t);
  return (
    <Button
      size="small"
      variant="outlined"
      startIcon={busy ? <CircularProgress size={14} /> : <DownloadIcon />}
      disabled={busy || !message.mediaUrl}
      data-testid={`message-document-${message.id}`}
      onClick={() => {
        if (!message.mediaUrl) return;
        setBusy(true);
        downloadMedia(message.mediaUrl, name)
          .catch((err: unknown) => notifyError(err instanceof Error ? err.message : err))
          .finally(() => setBusy(false));
      }}
      sx={{ textTransform: 'none', maxWidth: 260 }}
    >
      <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
        {label}
      </Box>
    </Button>
  );
}

function LocationMedia({ message }: { message: Message }) {
  const { t } = useTranslation();
  const location = parseLocation(message.body);
  return (
    <Stack spacing={0.5} data-testid={`message-location-${message.id}`} sx={{ maxWidth: 260 }}>
      {location.image && (
        <Box
          component="img"
          src={location.image}
          alt={t('ticketView.media.location')}
          sx={{ display: 'block', width: 200, borderRadius: 1 }}
        />
      )}
      <Stack direction="row" spacing={0.5} alignItems="center">
        <LocationOnIcon fontSize="small" color="error" />
        {location.link ? (
          <Link href={location.link} target="_blank" rel="noopener noreferrer">
            {t('ticketView.media.openLocation')}
          </Link>
        ) : (
          <Typography variant="body2">{t('ticketView.media.location')}</Typography>
        )}
      </Stack>
      {location.description && (
        <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }}>
          {location.description}
        </Typography>
      )}
    </Stack>
  );
}

function VCardMedia({ message }: { message: Message }) {
  const { t } = useTranslation();
  const contacts = parseVCard(message.body);
  return (
    <Stack spacing={1} data-testid={`message-vcard-${message.id}`}>
      {(contacts.length > 0 ? contacts : [{ name: t('ticketView.media.contact'), number: '' }]).map(
        (contact, index) => (
          <Stack
            // biome-ignore lint/suspicious/noArrayIndexKey: vCard contacts have no id
            key={index}
            direction="row"
            spacing={1}
            alignItems="center"
          >
            <ContactPhoneIcon color="action" />
            <Box>
              <Typography variant="body2" fontWeight={600}>
                {contact.name}
              </Typography>
              {contact.number && (
                <Typography variant="caption" color="text.secondary">
                  {contact.number}
                </Typography>
              )}
            </Box>
          </Stack>
        ),
      )}
    </Stack>
  );
}

function CallLogMedia({ message }: { message: Message }) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={1} alignItems="center" data-testid={`message-call-${message.id}`}>
      <CallIcon fontSize="small" color="error" />
      <Typography variant="body2">{message.body || t('ticketView.media.call')}</Typography>
    </Stack>
  );
}

/** True for the types whose body is shown by the media part itself (no separate text). */
export function mediaShowsBody(message: Message): boolean {
  return ['locationMessage', 'vcard', 'contactMessage', 'call_log', 'reaction'].includes(message.mediaType);
}

/** The media of `message`, or null for plain text. */
export function MessageMedia({ message }: { message: Message }) {
  switch (message.mediaType) {
    case 'image':
      return message.mediaUrl ? <ImageMedia message={message} /> : null;
    case 'sticker':
      return message.mediaUrl ? <StickerMedia message={message} /> : null;
    case 'audio':
      return message.mediaUrl ? <AudioMedia message={message} /> : null;
    case 'video':
      return message.mediaUrl ? <VideoMedia message={message} /> : null;
    case 'application':
    case 'document':
      return <DocumentMedia message={message} />;
    case 'locationMessage':
      return <LocationMedia message={message} />;
    case 'vcard':
    case 'contactMessage':
      return <VCardMedia message={message} />;
    case 'call_log':
      return <CallLogMedia message={message} />;
    default:
      return null;
  }
}
