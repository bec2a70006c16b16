import { Alert, Button, Checkbox, FormControlLabel, FormGroup, Stack, Typography } from '@mui/material';
import type { PushPreferences } from '@zapdesk/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../../lib/notify';
import { InfoDialog } from '../common/info-dialog';
import {
  currentSubscription,
  disablePush,
  enablePush,
  getPushPreferences,
  pushSupported,
  savePushPreferences,
} from './push-client';

/** The events a user chooses, in the order shown. */
const EVENTS = [
  'newPending',
  'assigned',
  'customerMessage',
  'internalChat',
  'slaWarning',
  'slaBreach',
  'mention',
  'preview',
] as const;

type State = 'loading' | 'unsupported' | 'denied' | 'off' | 'on';

/**
 * 'Notificações push' (docs/web.md "Installable app and Web Push"): turns Web Push on or off in this
 * browser and chooses which events push (saved at once, for every browser of the user). Loaded
 * when the user menu's item is first chosen.
 */
export function PushSettingsDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [state, setState] = useState<State>('loading');
  const [prefs, setPrefs] = useState<PushPreferences | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    void (async () => {
      // The choices apply to every browser of the user: shown even where this one cannot push.
      const supported = pushSupported();
      const [subscription, loaded] = await Promise.all([currentSubscription(), getPushPreferences()]);
      if (!live) return;
      setPrefs(loaded);
      if (!supported) setState('unsupported');
      else setState(Notification.permission === 'denied' ? 'denied' : subscription ? 'on' : 'off');
    })().catch(notifyError);
    return () => {
      live = false;
    };
  }, []);

  const run = async (action: () => Promise<State>) => {
    setBusy(true);
    try {
      setState(await action());
    } catch (error) {
      notifyError(error);
    } finally {
      setBusy(false);
    }
  };

  const toggle = (key: keyof PushPreferences, value: boolean) => {
    if (!prefs) return;
    setPrefs({ ...prefs, [key]: value });
    savePushPreferences({ [key]: value }).then(setPrefs, notifyError);
  };

  return (
    <InfoDialog
      onClose={onClose}
      title={t('push.title')}
      titleId="push-settings-title"
      maxWidth="xs"
      closeLabel={t('push.close')}
    >
      <Stack spacing={2}>
        <Typography variant="body2">{t('push.intro')}</Typography>
        {state === 'unsupported' && <Alert severity="info">{t('push.unsupported')}</Alert>}
        {state === 'denied' && <Alert severity="warning">{t('push.denied')}</Alert>}
        {state === 'on' && <Alert severity="success">{t('push.enabled')}</Alert>}
        {state === 'off' && (
          <Button
            variant="contained"
            disabled={busy}
            data-testid="push-enable"
            onClick={() => run(async () => ((await enablePush()) === 'enabled' ? 'on' : 'denied'))}
          >
            {t('push.enable')}
          </Button>
        )}
        {state === 'on' && (
          <Button
            variant="outlined"
            disabled={busy}
            data-testid="push-disable"
            onClick={() =>
              run(async () => {
                await disablePush();
                return 'off';
              })
            }
          >
            {t('push.disable')}
          </Button>
        )}
        {prefs && (
          <FormGroup role="group" aria-labelledby="push-events-label">
            <Typography id="push-events-label" variant="subtitle2">
              {t('push.events')}
            </Typography>
            {EVENTS.map((key) => (
              <FormControlLabel
                key={key}
                control={
                  <Checkbox checked={prefs[key]} onChange={(event) => toggle(key, event.target.checked)} />
                }
                label={t(`push.${key}`)}
              />
            ))}
          </FormGroup>
        )}
      </Stack>
    </InfoDialog>
  );
}
