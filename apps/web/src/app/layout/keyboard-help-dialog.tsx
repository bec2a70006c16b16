import { Box, Table, TableBody, TableCell, TableRow, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { InfoDialog } from '../../features/common/info-dialog';

/** One shortcut: its keys (each a `<kbd>`), pressed together or, with `either`, one of them; what it does. */
interface Shortcut {
  keys: string[];
  either?: boolean;
  action: string;
}

/**
 * The shortcuts that exist, by where they work (the composer's are in features/ticket-view/composer.tsx,
 * the ticket steps in features/tickets/use-ticket-step-keys.ts).
 */
const GROUPS: { title: string; shortcuts: Shortcut[] }[] = [
  {
    title: 'shortcuts.anywhere',
    shortcuts: [
      { keys: ['?'], action: 'shortcuts.help' },
      { keys: ['Alt', '↓'], action: 'shortcuts.nextTicket' },
      { keys: ['Alt', '↑'], action: 'shortcuts.previousTicket' },
    ],
  },
  {
    title: 'shortcuts.composer',
    shortcuts: [
      { keys: ['Enter'], action: 'shortcuts.send' },
      { keys: ['Shift', 'Enter'], action: 'shortcuts.newLine' },
      { keys: ['Ctrl', 'B'], action: 'shortcuts.bold' },
      { keys: ['Ctrl', 'I'], action: 'shortcuts.italic' },
      { keys: ['Ctrl', 'Shift', 'X'], action: 'shortcuts.strike' },
      { keys: ['/'], action: 'shortcuts.quickReplies' },
      { keys: ['↑', '↓'], either: true, action: 'shortcuts.chooseQuickReply' },
      { keys: ['Esc'], action: 'shortcuts.clearQuickReply' },
    ],
  },
  {
    title: 'shortcuts.lists',
    shortcuts: [
      { keys: ['Enter'], action: 'shortcuts.openTicket' },
      { keys: ['←', '→'], either: true, action: 'shortcuts.tabs' },
    ],
  },
];

/** The keyboard help sheet (a chunk loaded when first opened): every shortcut, grouped by where it works. */
export function KeyboardHelpDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <InfoDialog
      open={open}
      onClose={onClose}
      title={t('shortcuts.title')}
      titleId="keyboard-help-title"
      maxWidth="sm"
      dividers
      contentTestId="keyboard-help"
      closeTestId="keyboard-help-close"
    >
      {GROUPS.map((group) => (
        <Box key={group.title} sx={{ mb: 2 }}>
          <Typography variant="subtitle2" component="h3">
            {t(group.title)}
          </Typography>
          <Table size="small">
            <TableBody>
              {group.shortcuts.map((shortcut) => (
                <TableRow key={shortcut.action}>
                  <TableCell sx={{ width: '40%', whiteSpace: 'nowrap' }}>
                    {shortcut.keys.map((key, index) => (
                      <span key={key}>
                        {index > 0 && (shortcut.either ? ' / ' : ' + ')}
                        <Box
                          component="kbd"
                          sx={{
                            px: 0.75,
                            py: 0.25,
                            border: 1,
                            borderColor: 'divider',
                            borderRadius: 1,
                            fontFamily: 'monospace',
                          }}
                        >
                          {key}
                        </Box>
                      </span>
                    ))}
                  </TableCell>
                  <TableCell>{t(shortcut.action)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      ))}
      <Typography variant="body2" color="text.secondary">
        {t('shortcuts.mac')}
      </Typography>
    </InfoDialog>
  );
}
