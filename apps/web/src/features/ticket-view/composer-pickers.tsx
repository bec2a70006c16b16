import CloseIcon from '@mui/icons-material/Close';
import { Box, Chip, IconButton, List, ListItemButton, ListItemText, Paper, Stack } from '@mui/material';
import type { Message } from '@zapdesk/shared';
import { useTranslation } from 'react-i18next';
import { QuotedBlock } from './message-item';

/** The composer's two modes: a reply to the customer or an internal note. */
export type ComposerMode = 'reply' | 'note';

/** One option of a picker: its key, its data-testid and the text shown. */
export interface PickerItem {
  key: number;
  testId: string;
  label: string;
}

/**
 * A picker above the text box (the '@' mentions, the '/' quick replies): `items` in a dense list,
 * the `highlight`ed one selected; a click chooses without taking the focus from the text box.
 */
export function PickerList({
  testId,
  label,
  items,
  highlight,
  onChoose,
}: {
  testId: string;
  /** The list's accessible name, where it has one. */
  label?: string;
  items: PickerItem[];
  highlight: number;
  onChoose: (index: number) => void;
}) {
  return (
    <Paper variant="outlined" sx={{ mb: 1, maxHeight: 220, overflowY: 'auto' }} data-testid={testId}>
      <List dense disablePadding aria-label={label}>
        {items.map((item, index) => (
          <ListItemButton
            key={item.key}
            selected={index === highlight}
            data-testid={item.testId}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => onChoose(index)}
          >
            <ListItemText primary={item.label} />
          </ListItemButton>
        ))}
      </List>
    </Paper>
  );
}

/** The message being answered, quoted above the text box, with a button that cancels the reply. */
export function ReplyBanner({ replyTo, onCancel }: { replyTo: Message; onCancel: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" alignItems="center" spacing={1} sx={{ mb: 1 }} data-testid="composer-reply">
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <QuotedBlock
          quoted={{
            id: replyTo.id,
            body: replyTo.body,
            fromMe: replyTo.fromMe,
            mediaType: replyTo.mediaType,
            mediaUrl: replyTo.mediaUrl,
            contact: replyTo.contact,
          }}
        />
      </Box>
      <IconButton aria-label={t('common.cancel')} data-testid="composer-reply-cancel" onClick={onCancel}>
        <CloseIcon />
      </IconButton>
    </Stack>
  );
}

/** The 'Responder / Nota' switch: two pressed-or-not chips. */
export function ModeChips({
  mode,
  onChange,
}: {
  mode: ComposerMode;
  onChange: (mode: ComposerMode) => void;
}) {
  const { t } = useTranslation();
  return (
    <Stack
      direction="row"
      spacing={0.5}
      sx={{ mb: 1 }}
      role="group"
      aria-label={t('ticketView.composerMode')}
    >
      {(['reply', 'note'] as const).map((value) => (
        <Chip
          key={value}
          size="small"
          clickable
          label={value === 'reply' ? t('ticketView.modeReply') : t('ticketView.modeNote')}
          color={mode === value ? 'primary' : 'default'}
          variant={mode === value ? 'filled' : 'outlined'}
          aria-pressed={mode === value}
          data-testid={`composer-mode-${value}`}
          onClick={() => onChange(value)}
        />
      ))}
    </Stack>
  );
}
