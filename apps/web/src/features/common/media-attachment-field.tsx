import AttachFileIcon from '@mui/icons-material/AttachFile';
import { Button, Chip, Stack } from '@mui/material';
import { useRef } from 'react';

/** A record's media as a form edits it: a new file to upload, or the stored one removed. */
export interface MediaAttachment {
  file: File | null;
  removeMedia: boolean;
}

export const NO_MEDIA_CHANGE: MediaAttachment = { file: null, removeMedia: false };

interface MediaAttachmentFieldProps {
  /** Button label. */
  label: string;
  /** Name of the media the record has stored, if any. */
  storedName?: string | null;
  value: MediaAttachment;
  onChange: (value: MediaAttachment) => void;
  /** `accept` of the file input. */
  accept?: string;
  /** Checks a chosen file; false leaves the value unchanged (the caller tells the user why). */
  accepts?: (file: File) => boolean;
  /** data-testid prefix: `{prefix}-attach`, `{prefix}-file` and `{prefix}-media`. */
  testId: string;
}

/**
 * The attach button, hidden file input and removable chip of a form's optional media (quick
 * messages, announcements). The chip shows the chosen file, else the stored media unless removed.
 */
export function MediaAttachmentField({
  label,
  storedName,
  value,
  onChange,
  accept,
  accepts,
  testId,
}: MediaAttachmentFieldProps) {
  const input = useRef<HTMLInputElement>(null);
  const shown = value.file?.name ?? (value.removeMedia ? null : storedName);
  return (
    <Stack direction="row" spacing={1} alignItems="center">
      <Button
        variant="outlined"
        startIcon={<AttachFileIcon />}
        onClick={() => input.current?.click()}
        data-testid={`${testId}-attach`}
      >
        {label}
      </Button>
      <input
        ref={input}
        type="file"
        hidden
        accept={accept}
        data-testid={`${testId}-file`}
        onChange={(e) => {
          const chosen = e.target.files?.[0] ?? null;
          e.target.value = '';
          if (chosen && accepts && !accepts(chosen)) return;
          onChange({ file: chosen, removeMedia: false });
        }}
      />
      {shown && (
        <Chip
          label={shown}
          onDelete={() => onChange({ file: null, removeMedia: true })}
          data-testid={`${testId}-media`}
        />
      )}
    </Stack>
  );
}
