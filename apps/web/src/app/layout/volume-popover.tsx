import { Box, Popover } from '@mui/material';
import { VolumeSlider } from './volume-slider';

/** The volume popover with its slider (MUI Popover, Modal, Slider): a chunk loaded when first opened. */
export function VolumePopover({ anchor, onClose }: { anchor: HTMLElement | null; onClose: () => void }) {
  return (
    <Popover
      open={anchor !== null}
      anchorEl={anchor}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      transformOrigin={{ vertical: 'top', horizontal: 'center' }}
    >
      <Box sx={{ px: 3, py: 2, width: 200 }}>
        <VolumeSlider />
      </Box>
    </Popover>
  );
}
