/** Dialogs of the typebot and OpenAI nodes (document 3 sections 2, 3 and 5). */
import { Stack } from '@mui/material';
import { INTEGRATION_DEFAULTS } from '@zapdesk/shared';
import { useTranslation } from 'react-i18next';
import { FormNumberRow, FormSecretField, FormSelect, FormTextField } from '../../common/form-fields';
import { useQueueList } from '../../queues/use-queues';
import { ZOpenAiForm, ZTypebotForm } from '../flow-forms';
import { FLOW_OPENAI_VOICES, OPENAI_DEFAULTS, type OpenAiData, type TypebotData } from '../flow-types';
import { type NodeDialogProps, NodeFormDialog, useNodeDialog } from './node-dialog';

const TYPEBOT_EMPTY: TypebotData = {
  name: '',
  projectName: '',
  urlN8N: '',
  typebotSlug: '',
  typebotExpires: INTEGRATION_DEFAULTS.typebotExpires,
  typebotDelayMessage: INTEGRATION_DEFAULTS.typebotDelayMessage,
  typebotKeywordFinish: '',
  typebotKeywordRestart: '',
  typebotUnknownMessage: '',
  typebotRestartMessage: '',
};

type TypebotForm = Omit<TypebotData, 'projectName'>;

/** A text field of a typebot node dialog, `name`'s label and data-testid. */
function TypebotField({
  name,
  number,
  autoFocus,
}: {
  name: keyof TypebotForm;
  number?: boolean;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <FormTextField
      name={name}
      number={number}
      label={t(`flows.dialogs.typebot.${name}`)}
      autoFocus={autoFocus}
      type={number ? 'number' : 'text'}
      testId={`flow-typebot-${name}`}
    />
  );
}

/**
 * Typebot node, 'Adicionar Typebot ao fluxo' / 'Editar Typebot': name, URL and slug required;
 * projectName is set equal to the name.
 */
export function TypebotDialog({
  data,
  onSave,
  onClose,
}: NodeDialogProps<{ typebotIntegration: TypebotData }>) {
  const { projectName: _p, ...initial } = { ...TYPEBOT_EMPTY, ...data?.typebotIntegration };
  const dialog = useNodeDialog<TypebotForm, { typebotIntegration: TypebotData }>({
    schema: ZTypebotForm,
    defaults: initial,
    toData: (values) => ({ typebotIntegration: { ...values, projectName: values.name } }),
    onSave,
  });
  return (
    <NodeFormDialog kind="typebot" editing={!!data} onClose={onClose} dialog={dialog}>
      <Stack spacing={2}>
        <TypebotField name="name" autoFocus />
        <TypebotField name="urlN8N" />
        <TypebotField name="typebotSlug" />
        <Stack direction="row" spacing={2}>
          <TypebotField name="typebotExpires" number />
          <TypebotField name="typebotDelayMessage" number />
        </Stack>
        <Stack direction="row" spacing={2}>
          <TypebotField name="typebotKeywordFinish" />
          <TypebotField name="typebotKeywordRestart" />
        </Stack>
        <TypebotField name="typebotUnknownMessage" />
        <TypebotField name="typebotRestartMessage" />
      </Stack>
    </NodeFormDialog>
  );
}

const OPENAI_EMPTY: OpenAiData = {
  name: '',
  prompt: '',
  voiceKey: '',
  voiceRegion: '',
  apiKey: '',
  ...OPENAI_DEFAULTS,
};

/**
 * OpenAI node, 'Adicionar OpenAI ao fluxo' / 'Editar OpenAI': name, API key (masked, with a
 * show/hide toggle) and prompt required; voice, voice key and region, max tokens [100],
 * temperature [1], max messages [10] and the queue for a human.
 */
export function OpenAiDialog({ data, onSave, onClose }: NodeDialogProps<{ typebotIntegration: OpenAiData }>) {
  const { t } = useTranslation();
  const queues = useQueueList();
  const dialog = useNodeDialog<OpenAiData, { typebotIntegration: OpenAiData }>({
    schema: ZOpenAiForm,
    defaults: { ...OPENAI_EMPTY, ...data?.typebotIntegration },
    toData: (values) => ({ typebotIntegration: values }),
    onSave,
  });
  const label = (name: keyof OpenAiData) => t(`flows.dialogs.openai.${name}`);
  return (
    <NodeFormDialog kind="openai" editing={!!data} onClose={onClose} dialog={dialog} maxWidth="md">
      <Stack spacing={2}>
        <FormTextField name="name" label={label('name')} autoFocus testId="flow-openai-name" />
        <FormSecretField
          name="apiKey"
          label={label('apiKey')}
          testId="flow-openai-apiKey"
          showLabel={t('flows.dialogs.openai.showKey')}
          hideLabel={t('flows.dialogs.openai.hideKey')}
          toggleTestId="flow-openai-toggle-key"
        />
        <FormTextField
          name="prompt"
          label={label('prompt')}
          multiline
          minRows={4}
          testId="flow-openai-prompt"
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <FormSelect
            name="voice"
            label={label('voice')}
            options={FLOW_OPENAI_VOICES.map((voice) => ({
              value: voice,
              label:
                voice === 'texto' ? t('flows.dialogs.openai.text') : voice.replace(/^pt-BR-|Neural$/g, ''),
            }))}
          />
          <FormTextField name="voiceKey" label={label('voiceKey')} />
          <FormTextField name="voiceRegion" label={label('voiceRegion')} />
        </Stack>
        <FormSelect
          name="queueId"
          numeric
          emptyAsNull
          label={label('queueId')}
          options={[
            { value: '', label: t('common.none') },
            ...(queues.data ?? []).map((q) => ({ value: q.id, label: q.name })),
          ]}
        />
        <FormNumberRow
          fields={[{ name: 'maxTokens' }, { name: 'temperature', step: 0.1 }, { name: 'maxMessages' }]}
          label={(name) => t(`flows.dialogs.openai.${name}`)}
          testId={(name) => `flow-openai-${name}`}
        />
      </Stack>
    </NodeFormDialog>
  );
}
