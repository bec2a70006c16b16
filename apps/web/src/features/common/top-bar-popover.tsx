import { Box, type PaperProps, Popover, Typography } from '@mui/material';
import type { ReactNode } from 'react';

interface TopBarPopoverProps {
  /** The top-bar button it opens under; null when closed. */
  anchor: HTMLElement | null;
  onClose: () => void;
  /** The paper's size and scrolling (e.g. `{ width: 340, maxHeight: 420 }`). */
  paperSx?: PaperProps['sx'];
  children: ReactNode;
}

/**
 * A popover opened by a top-bar button (notifications, internal chats, announcements): under the
 * button, right-aligned with it.
 */
export function TopBarPopover({ anchor, onClose, paperSx, children }: TopBarPopoverProps) {
  return (
    <Popover
      open={anchor !== null}
      anchorEl={anchor}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      slotProps={paperSx ? { paper: { sx: paperSx } } : undefined}
    >
      {children}
    </Popover>
  );
}

/** The line a top-bar popover shows when its list is empty. */
export function TopBarPopoverEmpty({ text }: { text: string }) {
  return (
    <Box sx={{ p: 2 }}>
      <Typography variant="body2" color="text.secondary">
        {text}
      </Typography>
    </Box>
  );
}
