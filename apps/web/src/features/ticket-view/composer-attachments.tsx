import CancelIcon from '@mui/icons-material/Cancel';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import { Box, Chip, CircularProgress, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import { AUDIO_MIN_BYTES } from '@zapdesk/shared';
import { type MouseEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { notifyError } from '../../lib/notify';
import { recordingToFile, useAudioRecorder } from './audio-recorder';
import { mmss } from './composer-text';

/** A composer button: an icon with its label as tooltip and accessible name. */
export function ToolButton({
  label,
  testId,
  disabled,
  onClick,
  color,
  children,
}: {
  label: string;
  testId: string;
  disabled: boolean;
  onClick: (event: MouseEvent<HTMLButtonElement>) => void;
  color?: 'primary';
  children: ReactNode;
}) {
  return (
    <Tooltip title={label}>
      <span>
        <IconButton
          color={color}
          aria-label={label}
          data-testid={testId}
          disabled={disabled}
          onClick={onClick}
        >
          {children}
        </IconButton>
      </span>
    </Tooltip>
  );
}

/** The chosen files as chips (each removable unless `disabled`) and a chip that clears them all. */
export function FileChips({
  files,
  disabled,
  onChange,
}: {
  files: File[];
  disabled: boolean;
  onChange: (files: File[]) => void;
}) {
  const { t } = useTranslation();
  return (
    <Stack
      direction="row"
      spacing={1}
      sx={{ mb: 1, flexWrap: 'wrap', gap: 0.5 }}
      data-testid="composer-files"
    >
      {files.map((file, index) => (
        <Chip
          // biome-ignore lint/suspicious/noArrayIndexKey: files may share a name
          key={`${file.name}-${index}`}
          size="small"
          label={file.name}
          data-testid="composer-file"
          onDelete={disabled ? undefined : () => onChange(files.filter((_, i) => i !== index))}
        />
      ))}
      <Chip
        size="small"
        variant="outlined"
        label={t('ticketView.clearFiles')}
        data-testid="composer-files-clear"
        onClick={() => onChange([])}
      />
    </Stack>
  );
}

/**
 * The voice note: the recorder, `encoding` while the recording becomes a file, `start()` (an error
 * toast when the microphone is refused) and `finish()`, which hands the file to `onFile` unless it is
 * shorter than AUDIO_MIN_BYTES (a warning toast then).
 */
export function useVoiceNote(onFile: (file: File) => void) {
  const { t } = useTranslation();
  const recorder = useAudioRecorder();
  const [encoding, setEncoding] = useState(false);

  const start = async () => {
    try {
      await recorder.start();
    } catch {
      toast.error(t('ticketView.recordError'), { autoClose: 2000 });
    }
  };

  const finish = async () => {
    setEncoding(true);
    try {
      const blob = await recorder.stop();
      const file = await recordingToFile(blob);
      if (file.size < AUDIO_MIN_BYTES) {
        toast.warn(t('ticketView.audioTooShort'), { autoClose: 2000 });
        return;
      }
      onFile(file);
    } catch (err) {
      notifyError(err instanceof Error ? err.message : err);
    } finally {
      setEncoding(false);
    }
  };

  return { recorder, encoding, start, finish };
}

/** The bar shown while recording: cancel, a red dot, the timer and send (a spinner while encoding). */
export function RecordingBar({ voice }: { voice: ReturnType<typeof useVoiceNote> }) {
  const { t } = useTranslation();
  const { recorder, encoding } = voice;
  return (
    <Stack direction="row" alignItems="center" spacing={1} sx={{ flex: 1, px: 1, minHeight: 40 }}>
      <IconButton
        aria-label={t('ticketView.recordCancel')}
        data-testid="composer-record-cancel"
        disabled={encoding}
        onClick={recorder.cancel}
      >
        <CancelIcon color="error" />
      </IconButton>
      <Box sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: 'error.main' }} />
      <Typography data-testid="composer-record-timer" sx={{ fontVariantNumeric: 'tabular-nums' }}>
        {mmss(recorder.seconds)}
      </Typography>
      <Box sx={{ flex: 1 }} />
      {encoding ? (
        <CircularProgress size={24} />
      ) : (
        <IconButton
          aria-label={t('ticketView.recordSend')}
          data-testid="composer-record-send"
          onClick={() => void voice.finish()}
        >
          <CheckCircleIcon color="success" />
        </IconButton>
      )}
    </Stack>
  );
}
