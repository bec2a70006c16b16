import { Stack } from '@mui/material';
import { PROMPT_DEFAULTS, PROMPT_MODELS, type Prompt, ZPromptBody } from '@zapdesk/shared';
import { useTranslation } from 'react-i18next';
import { FormNumberRow, FormSecretField, FormSelect, FormTextField } from '../common/form-fields';
import { RecordFormDialog } from '../common/record-form-dialog';
import { useRecordEditor } from '../common/use-record-form';
import { useQueueList } from '../queues/use-queues';
import { usePrompt, useSavePrompt } from './use-bots';

/** Values of the prompt form (document 2 sections 3 and 5). */
export interface PromptFormValues {
  name: string;
  prompt: string;
  model: string;
  maxTokens: number;
  temperature: number;
  maxMessages: number;
  apiKey: string;
  queueId: number | null;
}

const EMPTY: PromptFormValues = {
  name: '',
  prompt: '',
  model: PROMPT_DEFAULTS.model,
  maxTokens: PROMPT_DEFAULTS.maxTokens,
  temperature: PROMPT_DEFAULTS.temperature,
  maxMessages: PROMPT_DEFAULTS.maxMessages,
  apiKey: '',
  queueId: null,
};

const toForm = (p: Prompt): PromptFormValues => ({
  name: p.name,
  prompt: p.prompt,
  model: p.model,
  maxTokens: p.maxTokens,
  temperature: p.temperature,
  maxMessages: p.maxMessages,
  apiKey: p.apiKey,
  queueId: p.queueId,
});

/**
 * Add/edit prompt dialog: name (5..100), prompt text (min 50), model, API key (masked once saved,
 * with show/hide), the queue that takes the ticket when the customer asks for a human (missing:
 * promptModal.setor), max tokens, temperature (0..1, step 0.1) and max messages.
 */
export function PromptModal({ promptId, onClose }: { promptId: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queues = useQueueList();
  const save = useSavePrompt();
  const { editing, dialog, shell } = useRecordEditor<PromptFormValues, Prompt>(promptId, usePrompt, {
    schema: ZPromptBody,
    defaults: EMPTY,
    toForm,
    save: (values) =>
      save.mutateAsync({
        id: promptId ?? undefined,
        body: { ...values, queueId: values.queueId ?? undefined },
      }),
    saved: t('bots.prompts.saved'),
    onClose,
  });
  const model = dialog.form.watch('model');

  return (
    <RecordFormDialog
      {...shell}
      ids="prompt"
      ns="bots.prompts"
      messages={{ unknownAsInvalid: true }}
      onClose={onClose}
      title={editing ? t('bots.prompts.edit') : t('bots.prompts.add')}
      maxWidth="md"
    >
      <Stack spacing={2}>
        <FormTextField name="name" autoFocus />
        <FormSecretField
          name="apiKey"
          label={t('bots.prompts.apiKey')}
          testId="prompt-apiKey"
          showLabel={t('bots.prompts.showKey')}
          hideLabel={t('bots.prompts.hideKey')}
        />
        <FormTextField name="prompt" multiline minRows={5} />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <FormSelect
            name="queueId"
            numeric
            emptyAsNull
            label={t('bots.prompts.queue')}
            errorText={t('bots.prompts.queueRequired')}
            testId="prompt-queue"
            options={(queues.data ?? []).map((q) => ({ value: q.id, label: q.name }))}
          />
          <FormSelect
            name="model"
            options={[...new Set([...PROMPT_MODELS, model])].map((m) => ({ value: m, label: m }))}
          />
        </Stack>
        <FormNumberRow
          fields={[{ name: 'maxTokens' }, { name: 'temperature', step: 0.1 }, { name: 'maxMessages' }]}
          label={(name) => t(`bots.prompts.${name}`)}
          testId={(name) => `prompt-${name}`}
        />
      </Stack>
    </RecordFormDialog>
  );
}
