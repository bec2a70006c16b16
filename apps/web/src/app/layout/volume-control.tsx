import VolumeOffIcon from '@mui/icons-material/VolumeOff';
import VolumeUpIcon from '@mui/icons-material/VolumeUp';
import { Box, IconButton, Popover, Slider, Tooltip } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePreferences } from '../preferences';

/** Notification volume (core section 9): a 0..1 slider, step 0.1, stored as `volume`. */
export function VolumeControl() {
  const { t } = useTranslation();
  const { volume, setVolume } = usePreferences();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Tooltip title={t('topbar.volume')}>
        <IconButton
          color="inherit"
          aria-label={t('topbar.volume')}
          data-testid="volume-button"
          onClick={(e) => setAnchor(e.currentTarget)}
        >
          {volume === 0 ? <VolumeOffIcon /> : <VolumeUpIcon />}
        </IconButton>
      </Tooltip>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
        transformOrigin={{ vertical: 'top', horizontal: 'center' }}
      >
        <Box sx={{ px: 3, py: 2, width: 200 }}>
          <Slider
            value={volume}
            min={0}
            max={1}
            step={0.1}
            marks
            valueLabelDisplay="auto"
            aria-label={t('topbar.volume')}
            data-testid="volume-slider"
            onChange={(_e, value) => setVolume(Array.isArray(value) ? (value[0] ?? 1) : value)}
          />
        </Box>
      </Popover>
    </>
  );
}
