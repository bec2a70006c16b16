import { Slider } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { usePreferences } from '../../lib/preferences';

/**
 * The notification volume slider (core section 9): 0..1, step 0.1, stored as `volume`. Part of the
 * volume popover's chunk: MUI's Slider is fetched when the popover first opens.
 */
export function VolumeSlider() {
  const { t } = useTranslation();
  const { volume, setVolume } = usePreferences();
  return (
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
  );
}
