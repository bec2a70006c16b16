import { Button, MenuItem, Stack, TextField } from '@mui/material';
import {
  INTEGRATION_DEFAULTS,
  INTEGRATION_LANGUAGES,
  INTEGRATION_TYPES,
  type IntegrationType,
  type QueueIntegration,
  ZQueueIntegrationBody,
} from '@zapdesk/shared';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useFieldMessage } from '../common/field-message';
import { FormDialog } from '../common/form-dialog';
import { useRecordForm } from '../common/use-record-form';
import { IntegrationLogo } from './integration-logo';
import { useIntegration, useSaveIntegration, useTestSession } from './use-bots';

/** Values of the queue integration form (document 2 sections 3 and 5). */
export interface IntegrationFormValues {
  type: IntegrationType;
  name: string;
  projectName: string;
  jsonContent: string;
  language: (typeof INTEGRATION_LANGUAGES)[number];
  urlN8N: string;
  typebotSlug: string;
  typebotExpires: number;
  typebotDelayMessage: number;
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotRestartMessage: string;
  typebotUnknownMessage: string;
}

const EMPTY: IntegrationFormValues = {
  type: 'typebot',
  name: '',
  projectName: '',
  jsonContent: '',
  language: 'pt-BR',
  urlN8N: '',
  typebotSlug: '',
  typebotExpires: INTEGRATION_DEFAULTS.typebotExpires,
  typebotDelayMessage: INTEGRATION_DEFAULTS.typebotDelayMessage,
  typebotKeywordFinish: '',
  typebotKeywordRestart: '',
  typebotRestartMessage: '',
  typebotUnknownMessage: '',
};

const toForm = (i: QueueIntegration): IntegrationFormValues => ({
  ...EMPTY,
  ...Object.fromEntries(Object.keys(EMPTY).map((k) => [k, (i as Record<string, unknown>)[k]])),
  jsonContent: '',
  language: (INTEGRATION_LANGUAGES as readonly string[]).includes(i.language)
    ? (i.language as IntegrationFormValues['language'])
    : 'pt-BR',
});

/**
 * Add/edit queue integration dialog: the type (with its logo) decides the fields: Dialogflow
 * project, service-account JSON and language; n8n and webhook URL; Typebot URL, slug, expiry,
 * delay, keywords and messages; flow builder the name only. 'Test' runs testSession.
 */
export function IntegrationModal({
  integrationId,
  onClose,
}: {
  integrationId: number | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const editing = typeof integrationId === 'number';
  const existing = useIntegration(editing ? integrationId : null);
  const save = useSaveIntegration();
  const test = useTestSession();
  const {
    control,
    register,
    handleSubmit,
    watch,
    getValues,
    formState: { errors, isSubmitting },
  } = useRecordForm<IntegrationFormValues, QueueIntegration>(
    ZQueueIntegrationBody,
    EMPTY,
    existing.data,
    toForm,
  );
  const type = watch('type');

  const onSubmit = handleSubmit(async (values) => {
    const { jsonContent, ...rest } = values;
    const body = { ...rest, ...(jsonContent ? { jsonContent } : {}) };
    const saved = await save.mutateAsync({ id: editing ? integrationId : undefined, body }).catch(() => null);
    if (!saved) return;
    toast.success(editing ? t('bots.integrations.edited') : t('bots.integrations.added'));
    onClose();
  });

  const runTest = async () => {
    const values = getValues();
    const result = await test
      .mutateAsync({
        ...values,
        jsonContent: values.jsonContent || undefined,
        ...(editing ? { id: integrationId } : {}),
      })
      .catch(() => null);
    if (!result) return;
    if (result.ok) toast.success(t('bots.integrations.testSuccess', { replies: result.replies.join(' | ') }));
    else toast.error(t('bots.integrations.testFailed', { error: result.error ?? '' }));
  };

  const message = useFieldMessage({ unknownAsInvalid: true });
  const text = (name: keyof IntegrationFormValues, extra: object = {}) => ({
    label: t(`bots.integrations.fields.${name}`),
    fullWidth: true,
    ...register(name),
    error: !!errors[name],
    helperText: message(errors[name]?.message),
    slotProps: { htmlInput: { 'data-testid': `integration-${name}` } },
    ...extra,
  });
  const number = (name: 'typebotExpires' | 'typebotDelayMessage') => ({
    ...text(name),
    type: 'number',
    ...register(name, { valueAsNumber: true }),
  });

  return (
    <FormDialog
      onClose={onClose}
      title={editing ? t('bots.integrations.edit') : t('bots.integrations.add')}
      titleId="integration-modal-title"
      maxWidth="md"
      loading={editing && existing.isPending}
      onSubmit={onSubmit}
      formTestId="integration-modal"
      editing={editing}
      submitTestId="integration-save"
      pending={isSubmitting}
    >
      <Stack spacing={2}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems="center">
          <IntegrationLogo type={type} />
          <Controller
            control={control}
            name="type"
            render={({ field }) => (
              <TextField
                select
                fullWidth
                label={t('bots.integrations.fields.type')}
                value={field.value}
                onChange={field.onChange}
                disabled={editing}
                slotProps={{
                  select: { SelectDisplayProps: { 'data-testid': 'integration-type' } as object },
                }}
              >
                {INTEGRATION_TYPES.map((option) => (
                  <MenuItem key={option} value={option}>
                    {t(`bots.integrations.types.${option}`)}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          <TextField {...text('name')} />
        </Stack>
        {type === 'dialogflow' && (
          <>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField {...text('projectName')} />
              <Controller
                control={control}
                name="language"
                render={({ field }) => (
                  <TextField
                    select
                    fullWidth
                    label={t('bots.integrations.fields.language')}
                    value={field.value}
                    onChange={field.onChange}
                  >
                    {INTEGRATION_LANGUAGES.map((lang) => (
                      <MenuItem key={lang} value={lang}>
                        {lang}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
            </Stack>
            <TextField
              {...text('jsonContent', {
                multiline: true,
                minRows: 4,
                placeholder: existing.data?.hasJsonContent ? t('bots.integrations.jsonKept') : undefined,
              })}
            />
          </>
        )}
        {(type === 'n8n' || type === 'webhook' || type === 'typebot') && <TextField {...text('urlN8N')} />}
        {type === 'typebot' && (
          <>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField {...text('typebotSlug')} />
              <TextField {...number('typebotExpires')} />
              <TextField {...number('typebotDelayMessage')} />
            </Stack>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField {...text('typebotKeywordFinish')} />
              <TextField {...text('typebotKeywordRestart')} />
            </Stack>
            <TextField {...text('typebotRestartMessage')} />
            <TextField {...text('typebotUnknownMessage')} />
          </>
        )}
        {(type === 'n8n' || type === 'webhook') && editing && existing.data && (
          <TextField
            label={t('bots.integrations.fields.secret')}
            value={existing.data.secret}
            fullWidth
            slotProps={{ input: { readOnly: true } }}
            helperText={t('bots.integrations.secretHelp')}
          />
        )}
        {type !== 'flowbuilder' && (
          <Stack direction="row">
            <Button
              variant="outlined"
              onClick={runTest}
              disabled={test.isPending}
              data-testid="integration-test"
            >
              {t('bots.integrations.test')}
            </Button>
          </Stack>
        )}
      </Stack>
    </FormDialog>
  );
}
