import { Grid, TextField } from '@mui/material';
import {
  DEFAULT_SETTINGS,
  isValidNumberSetting,
  NUMBER_SETTINGS,
  type NumberSettingKey,
  SETTING_VALUES,
  type Setting,
  type SettingKey,
} from '@zapdesk/shared';
import { useState } from 'react';
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

/** The number settings of the options tab, after the selects (docs/automation.md, docs/reports.md). */
export const NUMBER_OPTION_KEYS: NumberSettingKey[] = ['autoAssignGraceMinutes', 'slaWarningPercent'];

/**
 * The options tab: one select per setting key with its allowed values, saved at once with PUT
 * /settings/:key and confirmed with the 'Operação atualizada com sucesso.' toast; then one number
 * field per number setting, checked against its bounds as typed (the message names them; the server
 * checks the same) and saved when it loses focus or on Enter, only when valid and changed.
 */
export function OptionsTab({ settings }: { settings: Setting[] }) {
  const { t } = useTranslation();
  const update = useUpdateSetting();
  const currentValue = (key: SettingKey) =>
    settings.find((s) => s.key === key)?.value ?? DEFAULT_SETTINGS[key];

  const saveSetting = (key: string, value: string) =>
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
      {NUMBER_OPTION_KEYS.map((key) => (
        <Grid key={key} size={{ xs: 12, sm: 6, md: 4 }}>
          <NumberSettingField
            settingKey={key}
            value={settings.find((s) => s.key === key)?.value ?? String(NUMBER_SETTINGS[key].default)}
            saving={update.isPending && update.variables?.key === key}
            onSave={(value) => saveSetting(key, value)}
          />
        </Grid>
      ))}
    </Grid>
  );
}

/**
 * One number setting: a text field (numeric keyboard) holding the draft, an error under it while
 * the draft is not a whole number within the key's bounds, and `onSave(draft)` on blur or Enter
 * when the draft is valid and differs from `value`.
 */
function NumberSettingField({
  settingKey,
  value,
  saving,
  onSave,
}: {
  settingKey: NumberSettingKey;
  value: string;
  saving: boolean;
  onSave: (value: string) => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<string | null>(null);
  const shown = draft ?? value;
  const valid = isValidNumberSetting(settingKey, shown);
  const { min, max } = NUMBER_SETTINGS[settingKey];
  const commit = () => {
    if (draft === null || !valid) return;
    setDraft(null);
    if (draft !== value) onSave(draft);
  };
  const id = `setting-${settingKey}`;
  return (
    <TextField
      id={id}
      fullWidth
      size="small"
      label={t(`settings.keys.${settingKey}`)}
      value={shown}
      disabled={saving}
      error={!valid}
      helperText={valid ? t(`settings.hints.${settingKey}`) : t('settings.numberRange', { min, max })}
      onChange={(event) => setDraft(event.target.value.trim())}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit();
      }}
      slotProps={{
        htmlInput: { 'data-testid': id, inputMode: 'numeric' },
        inputLabel: { shrink: true },
      }}
    />
  );
}
