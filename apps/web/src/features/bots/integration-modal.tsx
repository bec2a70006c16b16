import { Button, Stack, TextField } from '@mui/material';
import {
  INTEGRATION_DEFAULTS,
  INTEGRATION_LANGUAGES,
  INTEGRATION_TYPES,
  type IntegrationType,
  integrationProblem,
  type QueueIntegration,
  V,
  ZQueueIntegrationBody,
} from '@zapdesk/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { CLASSIC_WORDING } from '../../lib/validation-text';
import { FormSelect, FormTextField, type FormTextFieldProps } from '../common/form-fields';
import { RecordFormDialog } from '../common/record-form-dialog';
import { useRecordEditor } from '../common/use-record-form';
import { IntegrationLogo } from './integration-logo';
import { useIntegration, useSaveIntegration, useTestSession } from './use-bots';

/**
 * The form's schema: the body's rules plus the field each type requires (`integrationProblem`), so
 * a missing url or slug is marked on its field ('Required') before anything is sent. When editing,
 * an empty service-account JSON keeps the stored one.
 */
function integrationSchema(editing: boolean) {
  return ZQueueIntegrationBody.superRefine((values, ctx) => {
    if (editing && values.type === 'dialogflow' && !values.jsonContent) return;
    const field = integrationProblem(values);
    if (!field) return;
    const empty = !values[field];
    ctx.addIssue({ code: 'custom', path: [field], message: empty ? V.required : 'invalid' });
  });
}

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
  const save = useSaveIntegration();
  const test = useTestSession();
  const schema = useMemo(() => integrationSchema(editing), [editing]);
  const { existing, dialog, shell } = useRecordEditor<IntegrationFormValues, QueueIntegration>(
    integrationId,
    useIntegration,
    {
      schema,
      defaults: EMPTY,
      toForm,
      save: ({ jsonContent, ...rest }) => {
        const body = { ...rest, ...(jsonContent ? { jsonContent } : {}) };
        return save.mutateAsync({ id: editing ? integrationId : undefined, body });
      },
      saved: editing ? t('bots.integrations.edited') : t('bots.integrations.added'),
      onClose,
    },
  );
  const { watch, getValues } = dialog.form;
  const type = watch('type');

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

  const text = (name: keyof IntegrationFormValues, extra: Partial<FormTextFieldProps> = {}) => (
    <FormTextField
      name={name}
      label={t(`bots.integrations.fields.${name}`)}
      testId={`integration-${name}`}
      {...extra}
    />
  );
  const number = (name: 'typebotExpires' | 'typebotDelayMessage') =>
    text(name, { type: 'number', number: true });

  return (
    <RecordFormDialog
      {...shell}
      ids={{ title: 'integration-modal-title', form: 'integration-modal', submit: 'integration-save' }}
      // The spec's words for this form (document 2 section 5): 'Too Short!', 'Too Long!', 'Required'.
      messages={{ unknownAsInvalid: true, wording: CLASSIC_WORDING }}
      onClose={onClose}
      title={editing ? t('bots.integrations.edit') : t('bots.integrations.add')}
      maxWidth="md"
    >
      <Stack spacing={2}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems="center">
          <IntegrationLogo type={type} />
          <FormSelect
            name="type"
            label={t('bots.integrations.fields.type')}
            disabled={editing}
            testId="integration-type"
            options={INTEGRATION_TYPES.map((option) => ({
              value: option,
              label: t(`bots.integrations.types.${option}`),
            }))}
          />
          {text('name')}
        </Stack>
        {type === 'dialogflow' && (
          <>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              {text('projectName')}
              <FormSelect
                name="language"
                label={t('bots.integrations.fields.language')}
                options={INTEGRATION_LANGUAGES.map((lang) => ({ value: lang, label: lang }))}
              />
            </Stack>
            {text('jsonContent', {
              multiline: true,
              minRows: 4,
              placeholder: existing.data?.hasJsonContent ? t('bots.integrations.jsonKept') : undefined,
            })}
          </>
        )}
        {(type === 'n8n' || type === 'webhook' || type === 'typebot') && text('urlN8N')}
        {type === 'typebot' && (
          <>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              {text('typebotSlug')}
              {number('typebotExpires')}
              {number('typebotDelayMessage')}
            </Stack>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              {text('typebotKeywordFinish')}
              {text('typebotKeywordRestart')}
            </Stack>
            {text('typebotRestartMessage')}
            {text('typebotUnknownMessage')}
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
    </RecordFormDialog>
  );
}
