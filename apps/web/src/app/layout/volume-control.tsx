import VolumeOffIcon from '@mui/icons-material/VolumeOff';
import VolumeUpIcon from '@mui/icons-material/VolumeUp';
import { Box, CircularProgress, IconButton, Popover, Tooltip } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePreferences } from '../preferences';

/** The slider (MUI Slider), loaded when the popover first opens. */
const VolumeSlider = lazy(() => import('./volume-slider').then((m) => ({ default: m.VolumeSlider })));

/** Notification volume (core section 9): a button opening a 0..1 slider, step 0.1, stored as `volume`. */
export function VolumeControl() {
  const { t } = useTranslation();
  const { volume } = usePreferences();
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
          <Suspense fallback={<CircularProgress size={20} aria-label="loading" />}>
            <VolumeSlider />
          </Suspense>
        </Box>
      </Popover>
    </>
  );
}
