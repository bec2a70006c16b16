import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import {
  Box,
  Button,
  IconButton,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import {
  CAMPAIGN_LONGER_INTERVAL_OPTIONS,
  CAMPAIGN_MESSAGE_INTERVAL_OPTIONS,
  CAMPAIGN_SETTINGS_DEFAULTS,
  type CampaignSettings,
  V,
  ZCampaignVariable,
} from '@zapdesk/shared';
import { useEffect, useState } from 'react';
import { Controller, useFieldArray } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { useFieldMessage } from '../common/field-message';
import { useRecordForm } from '../common/use-record-form';
import { useSaveCampaignSettings } from './use-campaigns';

/** Upper bounds of the extra fields (ZCampaignSettings holds the same). */
const DAILY_CAP_MAX = 1_000_000;
const JITTER_MAX_SECONDS = 600;
const VARIABLE_KEY_MAX = 50;
const VARIABLE_VALUE_MAX = 1000;

const ZTime = z
  .string()
  .min(1, V.required)
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, V.invalid);
const ZWholeNumber = (max: number) =>
  z
    .string()
    .trim()
    .refine((s) => s === '' || /^\d+$/.test(s), V.invalid)
    .refine((s) => s === '' || Number(s) <= max, V.tooLong);

const ZConfigForm = z.object({
  messageInterval: z.number(),
  longerIntervalAfter: z.number(),
  greaterInterval: z.number(),
  variables: z.array(z.object({ key: z.string(), value: z.string() })),
  sendWindowStart: ZTime,
  sendWindowEnd: ZTime,
  dailyCap: ZWholeNumber(DAILY_CAP_MAX),
  jitterSeconds: ZWholeNumber(JITTER_MAX_SECONDS),
  optOutKeyword: z.string().trim().max(30, V.tooLong),
});

type ConfigFormValues = z.input<typeof ZConfigForm>;

function toForm(s: CampaignSettings): ConfigFormValues {
  return {
    messageInterval: s.messageInterval,
    longerIntervalAfter: s.longerIntervalAfter,
    greaterInterval: s.greaterInterval,
    variables: [...s.variables],
    sendWindowStart: s.sendWindowStart,
    sendWindowEnd: s.sendWindowEnd,
    dailyCap: String(s.dailyCap),
    jitterSeconds: String(s.jitterSeconds),
    optOutKeyword: s.optOutKeyword,
  };
}

function toSettings(v: ConfigFormValues): CampaignSettings {
  return {
    messageInterval: v.messageInterval,
    longerIntervalAfter: v.longerIntervalAfter,
    greaterInterval: v.greaterInterval,
    variables: v.variables,
    sendWindowStart: v.sendWindowStart,
    sendWindowEnd: v.sendWindowEnd,
    dailyCap: v.dailyCap.trim() === '' ? 0 : Number(v.dailyCap),
    jitterSeconds: v.jitterSeconds.trim() === '' ? 0 : Number(v.jitterSeconds),
    optOutKeyword: v.optOutKeyword.trim(),
  };
}

const INTERVAL_FIELDS = [
  { name: 'messageInterval', options: CAMPAIGN_MESSAGE_INTERVAL_OPTIONS, unit: 'seconds' },
  { name: 'longerIntervalAfter', options: CAMPAIGN_LONGER_INTERVAL_OPTIONS, unit: 'messages' },
  { name: 'greaterInterval', options: CAMPAIGN_LONGER_INTERVAL_OPTIONS, unit: 'seconds' },
] as const;

/**
 * The form of /campaigns-config (document 2 sections 3, 5 and 9): the three interval selects with
 * the spec's options and defaults, the custom variables (a key already in the list is not added),
 * and our pacing fields: send window (equal times: all day), daily cap per
 * connection (0: none), random jitter added to each wait and the opt-out keyword (empty: off).
 * `saved` is the company's stored settings, undefined until the GET answers: every field stays
 * disabled until then, and the first answer fills the form once, so a later answer (a refetch on
 * window focus) never overwrites unsaved edits. A successful save shows what the server stored.
 */
export function CampaignsConfigForm({ saved }: { saved: CampaignSettings | undefined }) {
  const { t } = useTranslation();
  const save = useSaveCampaignSettings();
  const message = useFieldMessage();
  const {
    control,
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useRecordForm<ConfigFormValues>(ZConfigForm, toForm(CAMPAIGN_SETTINGS_DEFAULTS));
  const [filled, setFilled] = useState(false);
  useEffect(() => {
    if (!saved || filled) return;
    reset(toForm({ ...CAMPAIGN_SETTINGS_DEFAULTS, ...saved }));
    setFilled(true);
  }, [saved, filled, reset]);
  const disabled = !filled;
  const variables = useFieldArray({ control, name: 'variables' });
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [keyError, setKeyError] = useState<string | null>(null);

  /** Adds the typed variable unless its key is invalid or already in the list (section 5). */
  const addVariable = () => {
    const k = key.trim();
    const parsed = ZCampaignVariable.safeParse({ key: k, value });
    if (!parsed.success) return setKeyError(message(parsed.error.issues[0]?.message) ?? null);
    if (variables.fields.some((v) => v.key === k)) return setKeyError(t('campaigns.config.duplicateKey'));
    variables.append({ key: k, value });
    setKey('');
    setValue('');
    setKeyError(null);
  };

  const onSubmit = handleSubmit(async (values) => {
    const stored = await save.mutateAsync(toSettings(values)).catch(() => null);
    if (!stored) return;
    reset(toForm({ ...CAMPAIGN_SETTINGS_DEFAULTS, ...stored }));
    toast.success(t('campaigns.config.saved'));
  });

  return (
    <Stack
      component="form"
      noValidate
      onSubmit={onSubmit}
      spacing={2}
      data-testid="campaigns-config-form"
      sx={{ maxWidth: 900 }}
    >
      <Typography variant="h5" component="h1">
        {t('campaigns.config.title')}
      </Typography>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="subtitle1" gutterBottom>
          {t('campaigns.config.intervals')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          {INTERVAL_FIELDS.map((f) => (
            <Controller
              key={f.name}
              name={f.name}
              control={control}
              render={({ field }) => (
                <TextField
                  select
                  fullWidth
                  label={t(`campaigns.config.${f.name}`)}
                  value={field.value}
                  disabled={disabled}
                  onChange={(e) => field.onChange(Number(e.target.value))}
                  slotProps={{ htmlInput: { 'data-testid': `campaigns-config-${f.name}` } }}
                >
                  {f.options.map((n) => (
                    <MenuItem key={n} value={n}>
                      {n === 0 ? t('campaigns.config.none') : t(`campaigns.config.${f.unit}`, { count: n })}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
          ))}
        </Stack>
      </Paper>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="subtitle1" gutterBottom>
          {t('campaigns.config.pacing')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          {(['sendWindowStart', 'sendWindowEnd'] as const).map((name) => (
            <TextField
              key={name}
              type="time"
              fullWidth
              label={t(`campaigns.config.${name}`)}
              {...register(name)}
              disabled={disabled}
              error={!!errors[name]}
              helperText={message(errors[name]?.message) ?? t('campaigns.config.sendWindowHint')}
              slotProps={{
                inputLabel: { shrink: true },
                htmlInput: { 'data-testid': `campaigns-config-${name}` },
              }}
            />
          ))}
          <TextField
            type="number"
            fullWidth
            label={t('campaigns.config.dailyCap')}
            {...register('dailyCap')}
            disabled={disabled}
            error={!!errors.dailyCap}
            helperText={message(errors.dailyCap?.message) ?? t('campaigns.config.dailyCapHint')}
            slotProps={{
              htmlInput: { min: 0, max: DAILY_CAP_MAX, 'data-testid': 'campaigns-config-dailyCap' },
            }}
          />
          <TextField
            type="number"
            fullWidth
            label={t('campaigns.config.jitterSeconds')}
            {...register('jitterSeconds')}
            disabled={disabled}
            error={!!errors.jitterSeconds}
            helperText={message(errors.jitterSeconds?.message)}
            slotProps={{
              htmlInput: { min: 0, max: JITTER_MAX_SECONDS, 'data-testid': 'campaigns-config-jitterSeconds' },
            }}
          />
          <TextField
            fullWidth
            label={t('campaigns.config.optOutKeyword')}
            placeholder="SAIR"
            {...register('optOutKeyword')}
            disabled={disabled}
            error={!!errors.optOutKeyword}
            helperText={message(errors.optOutKeyword?.message) ?? t('campaigns.config.optOutHint')}
            slotProps={{ htmlInput: { 'data-testid': 'campaigns-config-optOutKeyword' } }}
          />
        </Stack>
      </Paper>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="subtitle1" gutterBottom>
          {t('campaigns.config.variables')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('campaigns.config.variablesHint')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'flex-start' }}>
          <TextField
            label={t('campaigns.config.variableKey')}
            value={key}
            disabled={disabled}
            onChange={(e) => setKey(e.target.value)}
            error={!!keyError}
            helperText={keyError}
            slotProps={{
              htmlInput: { maxLength: VARIABLE_KEY_MAX, 'data-testid': 'campaigns-config-variable-key' },
            }}
          />
          <TextField
            label={t('campaigns.config.variableValue')}
            fullWidth
            value={value}
            disabled={disabled}
            onChange={(e) => setValue(e.target.value)}
            slotProps={{
              htmlInput: { maxLength: VARIABLE_VALUE_MAX, 'data-testid': 'campaigns-config-variable-value' },
            }}
          />
          <Button
            variant="outlined"
            disabled={disabled}
            onClick={addVariable}
            data-testid="campaigns-config-variable-add"
          >
            {t('campaigns.config.addVariable')}
          </Button>
        </Stack>
        <List dense data-testid="campaigns-config-variables">
          {variables.fields.map((v, index) => (
            <ListItem
              key={v.id}
              data-testid={`campaigns-config-variable-${v.key}`}
              secondaryAction={
                <IconButton
                  edge="end"
                  disabled={disabled}
                  aria-label={t('campaigns.config.removeVariable', { key: v.key })}
                  onClick={() => variables.remove(index)}
                >
                  <DeleteOutlineIcon fontSize="small" />
                </IconButton>
              }
            >
              <ListItemText primary={`{${v.key}}`} secondary={v.value} />
            </ListItem>
          ))}
        </List>
      </Paper>
      <Box>
        <Button
          type="submit"
          variant="contained"
          disabled={disabled || isSubmitting}
          data-testid="campaigns-config-save"
        >
          {t('common.save')}
        </Button>
      </Box>
    </Stack>
  );
}
