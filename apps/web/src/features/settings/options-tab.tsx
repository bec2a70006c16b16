import { Grid, TextField } from '@mui/material';
import { DEFAULT_SETTINGS, SETTING_VALUES, type Setting, type SettingKey } from '@zapdesk/shared';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useUpdateSetting } from './use-settings';

/** The keys of the options tab, in the page's order (document 2 section 9). */
export const OPTION_KEYS: SettingKey[] = [
  'userRating',
  'scheduleType',
  'CheckMsgIsGroup',
  'call',
  'chatBotType',
  'sendGreetingAccepted',
  'sendMsgTransfTicket',
  'sendGreetingMessageOneQueues',
  'sendSignMessage',
];

/**
 * The options tab: one select per setting key with its allowed values; a change is saved at once
 * with PUT /settings/:key and confirmed with the 'Operação atualizada com sucesso.' toast.
 */
export function OptionsTab({ settings }: { settings: Setting[] }) {
  const { t } = useTranslation();
  const update = useUpdateSetting();
  const currentValue = (key: SettingKey) =>
    settings.find((s) => s.key === key)?.value ?? DEFAULT_SETTINGS[key];

  const saveSetting = (key: SettingKey, value: string) =>
    update.mutate({ key, value }, { onSuccess: () => toast.success(t('settings.toasts.success')) });

  return (
    <Grid container spacing={2}>
      {OPTION_KEYS.map((key) => (
        <Grid key={key} size={{ xs: 12, sm: 6, md: 4 }}>
          <TextField
            select
            fullWidth
            size="small"
            label={t(`settings.keys.${key}`)}
            value={currentValue(key)}
            disabled={update.isPending && update.variables?.key === key}
            onChange={(event) => saveSetting(key, event.target.value)}
            slotProps={{
              select: { native: true },
              htmlInput: { 'data-testid': `setting-${key}`, id: `setting-${key}` },
              inputLabel: { shrink: true },
            }}
          >
            {SETTING_VALUES[key].map((value) => (
              <option key={value} value={value}>
                {t(`settings.values.${value}`)}
              </option>
            ))}
          </TextField>
        </Grid>
      ))}
    </Grid>
  );
}
