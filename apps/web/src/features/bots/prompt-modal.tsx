import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { IconButton, InputAdornment, MenuItem, Stack, TextField } from '@mui/material';
import { PROMPT_DEFAULTS, PROMPT_MODELS, type Prompt, ZPromptBody } from '@zapdesk/shared';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useFieldMessage } from '../common/field-message';
import { FormDialog } from '../common/form-dialog';
import { useRecordForm } from '../common/use-record-form';
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
  const editing = typeof promptId === 'number';
  const existing = usePrompt(editing ? promptId : null);
  const queues = useQueueList();
  const save = useSavePrompt();
  const [showKey, setShowKey] = useState(false);
  const {
    control,
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useRecordForm<PromptFormValues, Prompt>(ZPromptBody, EMPTY, existing.data, toForm);

  const onSubmit = handleSubmit(async (values) => {
    const saved = await save
      .mutateAsync({
        id: editing ? promptId : undefined,
        body: { ...values, queueId: values.queueId ?? undefined },
      })
      .catch(() => null);
    if (!saved) return;
    toast.success(t('bots.prompts.saved'));
    onClose();
  });

  const message = useFieldMessage({ unknownAsInvalid: true });
  const field = (name: keyof PromptFormValues) => ({
    error: !!errors[name],
    helperText: message(errors[name]?.message),
  });
  const number = (name: 'maxTokens' | 'temperature' | 'maxMessages', step?: number) => ({
    type: 'number',
    fullWidth: true,
    ...register(name, { valueAsNumber: true }),
    ...field(name),
    slotProps: { htmlInput: { step, min: 0, 'data-testid': `prompt-${name}` } },
  });

  return (
    <FormDialog
      onClose={onClose}
      title={editing ? t('bots.prompts.edit') : t('bots.prompts.add')}
      titleId="prompt-modal-title"
      maxWidth="md"
      loading={editing && existing.isPending}
      onSubmit={onSubmit}
      formTestId="prompt-modal"
      editing={editing}
      submitTestId="prompt-save"
      pending={isSubmitting}
    >
      <Stack spacing={2}>
        <TextField
          label={t('bots.prompts.name')}
          autoFocus
          fullWidth
          {...register('name')}
          {...field('name')}
          slotProps={{ htmlInput: { 'data-testid': 'prompt-name' } }}
        />
        <TextField
          label={t('bots.prompts.apiKey')}
          fullWidth
          autoComplete="off"
          type={showKey ? 'text' : 'password'}
          {...register('apiKey')}
          {...field('apiKey')}
          slotProps={{
            htmlInput: { 'data-testid': 'prompt-apiKey' },
            input: {
              endAdornment: (
                <InputAdornment position="end">
                  <IconButton
                    aria-label={showKey ? t('bots.prompts.hideKey') : t('bots.prompts.showKey')}
                    onClick={() => setShowKey((v) => !v)}
                    edge="end"
                  >
                    {showKey ? <VisibilityOff /> : <Visibility />}
                  </IconButton>
                </InputAdornment>
              ),
            },
          }}
        />
        <TextField
          label={t('bots.prompts.prompt')}
          fullWidth
          multiline
          minRows={5}
          {...register('prompt')}
          {...field('prompt')}
          slotProps={{ htmlInput: { 'data-testid': 'prompt-prompt' } }}
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <Controller
            control={control}
            name="queueId"
            render={({ field: f }) => (
              <TextField
                select
                fullWidth
                label={t('bots.prompts.queue')}
                value={f.value ?? ''}
                onChange={(e) => f.onChange(e.target.value === '' ? null : Number(e.target.value))}
                error={!!errors.queueId}
                helperText={errors.queueId ? t('bots.prompts.queueRequired') : undefined}
                slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'prompt-queue' } as object } }}
              >
                {(queues.data ?? []).map((q) => (
                  <MenuItem key={q.id} value={q.id}>
                    {q.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          <Controller
            control={control}
            name="model"
            render={({ field: f }) => (
              <TextField
                select
                fullWidth
                label={t('bots.prompts.model')}
                value={f.value}
                onChange={f.onChange}
              >
                {[...new Set([...PROMPT_MODELS, f.value])].map((m) => (
                  <MenuItem key={m} value={m}>
                    {m}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
        </Stack>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField label={t('bots.prompts.maxTokens')} {...number('maxTokens')} />
          <TextField label={t('bots.prompts.temperature')} {...number('temperature', 0.1)} />
          <TextField label={t('bots.prompts.maxMessages')} {...number('maxMessages')} />
        </Stack>
      </Stack>
    </FormDialog>
  );
}
