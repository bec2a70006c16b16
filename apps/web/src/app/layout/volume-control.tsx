import VolumeOffIcon from '@mui/icons-material/VolumeOff';
import VolumeUpIcon from '@mui/icons-material/VolumeUp';
import { IconButton } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyTooltip } from '../../features/common/lazy-tooltip';
import { usePreferences } from '../../lib/preferences';

/** The popover and its slider (MUI Popover, Slider), loaded when the popover first opens. */
const VolumePopover = lazy(() => import('./volume-popover').then((m) => ({ default: m.VolumePopover })));

/** Notification volume (core section 9): a button opening a 0..1 slider, step 0.1, stored as `volume`. */
export function VolumeControl() {
  const { t } = useTranslation();
  const { volume } = usePreferences();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [used, setUsed] = useState(false);
  return (
    <>
      <LazyTooltip title={t('topbar.volume')}>
        <IconButton
          color="inherit"
          aria-label={t('topbar.volume')}
          data-testid="volume-button"
          onClick={(e) => {
            setAnchor(e.currentTarget);
            setUsed(true);
          }}
        >
          {volume === 0 ? <VolumeOffIcon /> : <VolumeUpIcon />}
        </IconButton>
      </LazyTooltip>
      {used && (
        <Suspense fallback={null}>
          <VolumePopover anchor={anchor} onClose={() => setAnchor(null)} />
        </Suspense>
      )}
    </>
  );
}
