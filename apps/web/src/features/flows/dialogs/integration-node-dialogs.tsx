/** Dialogs of the typebot and OpenAI nodes (document 3 sections 2, 3 and 5). */
import { zodResolver } from '@hookform/resolvers/zod';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { IconButton, InputAdornment, MenuItem, Stack, TextField } from '@mui/material';
import { INTEGRATION_DEFAULTS } from '@zapdesk/shared';
import { useState } from 'react';
import { Controller, type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useQueueList } from '../../queues/use-queues';
import { ZOpenAiForm, ZTypebotForm } from '../flow-forms';
import { FLOW_OPENAI_VOICES, OPENAI_DEFAULTS, type OpenAiData, type TypebotData } from '../flow-types';
import { NodeDialogFrame, type NodeDialogProps, submitDelay, useFlowMessage } from './node-dialog';

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

/**
 * Typebot node, 'Adicionar Typebot ao fluxo' / 'Editar Typebot': name, URL and slug required;
 * projectName is set equal to the name.
 */
export function TypebotDialog({
  data,
  onSave,
  onClose,
}: NodeDialogProps<{ typebotIntegration: TypebotData }>) {
  const { t } = useTranslation();
  const message = useFlowMessage();
  const { projectName: _p, ...initial } = { ...TYPEBOT_EMPTY, ...data?.typebotIntegration };
  const form = useForm<TypebotForm>({
    resolver: zodResolver(ZTypebotForm) as unknown as Resolver<TypebotForm>,
    defaultValues: initial,
  });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    await submitDelay();
    onSave({ typebotIntegration: { ...values, projectName: values.name } });
  });
  const text = (name: keyof TypebotForm, options: { number?: boolean; autoFocus?: boolean } = {}) => (
    <TextField
      key={name}
      label={t(`flows.dialogs.typebot.${name}`)}
      fullWidth
      autoFocus={options.autoFocus}
      type={options.number ? 'number' : 'text'}
      {...form.register(name, options.number ? { valueAsNumber: true } : {})}
      error={!!errors[name]}
      helperText={message(errors[name]?.message)}
      slotProps={{ htmlInput: { 'data-testid': `flow-typebot-${name}` } }}
    />
  );
  return (
    <NodeDialogFrame
      kind="typebot"
      editing={!!data}
      onClose={onClose}
      onSubmit={onSubmit}
      pending={isSubmitting}
    >
      <Stack spacing={2}>
        {text('name', { autoFocus: true })}
        {text('urlN8N')}
        {text('typebotSlug')}
        <Stack direction="row" spacing={2}>
          {text('typebotExpires', { number: true })}
          {text('typebotDelayMessage', { number: true })}
        </Stack>
        <Stack direction="row" spacing={2}>
          {text('typebotKeywordFinish')}
          {text('typebotKeywordRestart')}
        </Stack>
        {text('typebotUnknownMessage')}
        {text('typebotRestartMessage')}
      </Stack>
    </NodeDialogFrame>
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
  const message = useFlowMessage();
  const queues = useQueueList();
  const [showKey, setShowKey] = useState(false);
  const form = useForm<OpenAiData>({
    resolver: zodResolver(ZOpenAiForm) as unknown as Resolver<OpenAiData>,
    defaultValues: { ...OPENAI_EMPTY, ...data?.typebotIntegration },
  });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    await submitDelay();
    onSave({ typebotIntegration: values });
  });
  const field = (name: keyof OpenAiData) => ({
    label: t(`flows.dialogs.openai.${name}`),
    fullWidth: true,
    error: !!errors[name],
    helperText: message(errors[name]?.message),
  });
  const number = (name: 'maxTokens' | 'temperature' | 'maxMessages', step?: number) => (
    <TextField
      {...field(name)}
      type="number"
      {...form.register(name, { valueAsNumber: true })}
      slotProps={{ htmlInput: { step, min: 0, 'data-testid': `flow-openai-${name}` } }}
    />
  );
  return (
    <NodeDialogFrame
      kind="openai"
      editing={!!data}
      onClose={onClose}
      onSubmit={onSubmit}
      pending={isSubmitting}
      maxWidth="md"
    >
      <Stack spacing={2}>
        <TextField
          {...field('name')}
          autoFocus
          {...form.register('name')}
          slotProps={{ htmlInput: { 'data-testid': 'flow-openai-name' } }}
        />
        <TextField
          {...field('apiKey')}
          autoComplete="off"
          type={showKey ? 'text' : 'password'}
          {...form.register('apiKey')}
          slotProps={{
            htmlInput: { 'data-testid': 'flow-openai-apiKey' },
            input: {
              endAdornment: (
                <InputAdornment position="end">
                  <IconButton
                    aria-label={
                      showKey ? t('flows.dialogs.openai.hideKey') : t('flows.dialogs.openai.showKey')
                    }
                    data-testid="flow-openai-toggle-key"
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
          {...field('prompt')}
          multiline
          minRows={4}
          {...form.register('prompt')}
          slotProps={{ htmlInput: { 'data-testid': 'flow-openai-prompt' } }}
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <Controller
            control={form.control}
            name="voice"
            render={({ field: f }) => (
              <TextField select {...field('voice')} value={f.value} onChange={f.onChange}>
                {FLOW_OPENAI_VOICES.map((voice) => (
                  <MenuItem key={voice} value={voice}>
                    {voice === 'texto'
                      ? t('flows.dialogs.openai.text')
                      : voice.replace(/^pt-BR-|Neural$/g, '')}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          <TextField {...field('voiceKey')} {...form.register('voiceKey')} />
          <TextField {...field('voiceRegion')} {...form.register('voiceRegion')} />
        </Stack>
        <Controller
          control={form.control}
          name="queueId"
          render={({ field: f }) => (
            <TextField
              select
              {...field('queueId')}
              value={f.value ?? ''}
              onChange={(e) => f.onChange(e.target.value === '' ? null : Number(e.target.value))}
            >
              <MenuItem value="">{t('common.none')}</MenuItem>
              {(queues.data ?? []).map((q) => (
                <MenuItem key={q.id} value={q.id}>
                  {q.name}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          {number('maxTokens')}
          {number('temperature', 0.1)}
          {number('maxMessages')}
        </Stack>
      </Stack>
    </NodeDialogFrame>
  );
}
