/** Dialogs of the interval, randomizer, menu, ticket (queue) and question nodes (document 3 sections 2 to 5). */
import { zodResolver } from '@hookform/resolvers/zod';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { Button, IconButton, MenuItem, Stack, TextField, Typography } from '@mui/material';
import {
  Controller,
  type Resolver,
  type UseFormRegisterReturn,
  useFieldArray,
  useForm,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useQueueList } from '../../queues/use-queues';
import { ZIntervalForm, ZQuestionForm } from '../flow-forms';
import { readVariables, updateVariables, writeVariables } from '../flow-graph';
import { FLOW_LIMITS, FLOW_MESSAGES, type MenuOption } from '../flow-types';
import { NodeDialogFrame, type NodeDialogProps, submitDelay, useFlowMessage } from './node-dialog';

function useNodeForm<T extends Record<string, unknown>>(schema: z.ZodType, defaults: T) {
  return useForm<T>({
    resolver: zodResolver(schema as never) as unknown as Resolver<T>,
    defaultValues: defaults as never,
  });
}

/** Interval node: seconds, required, more than 0 ('Adicione o valor de intervalo'), at most 120. */
export function IntervalDialog({ data, onSave, onClose }: NodeDialogProps<{ label: string; sec: number }>) {
  const { t } = useTranslation();
  const message = useFlowMessage();
  const form = useNodeForm<{ sec: number }>(ZIntervalForm, { sec: data?.sec ?? (undefined as never) });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async ({ sec }) => {
    await submitDelay();
    onSave({ label: t('flows.nodes.intervalLabel', { sec }), sec });
  });
  return (
    <NodeDialogFrame
      kind="interval"
      editing={!!data}
      onClose={onClose}
      onSubmit={onSubmit}
      pending={isSubmitting}
    >
      <TextField
        label={t('flows.dialogs.interval.sec')}
        type="number"
        autoFocus
        fullWidth
        {...form.register('sec', { valueAsNumber: true })}
        error={!!errors.sec}
        helperText={message(errors.sec?.message)}
        slotProps={{
          htmlInput: { min: 1, max: FLOW_LIMITS.intervalMaxSec, 'data-testid': 'flow-interval-sec' },
        }}
      />
    </NodeDialogFrame>
  );
}

const PERCENTS = Array.from(
  { length: 100 / FLOW_LIMITS.randomizerStep + 1 },
  (_, i) => i * FLOW_LIMITS.randomizerStep,
);

/** Randomizer node: the first branch's percent (0..100 by 10); the other branch gets the rest. */
export function RandomizerDialog({ data, onSave, onClose }: NodeDialogProps<{ percent: number }>) {
  const { t } = useTranslation();
  const form = useForm<{ percent: number }>({ defaultValues: { percent: data?.percent ?? 50 } });
  const percent = form.watch('percent');
  const onSubmit = form.handleSubmit(async (values) => {
    await submitDelay();
    onSave({ percent: values.percent });
  });
  return (
    <NodeDialogFrame
      kind="randomizer"
      editing={!!data}
      onClose={onClose}
      onSubmit={onSubmit}
      pending={form.formState.isSubmitting}
    >
      <Controller
        control={form.control}
        name="percent"
        render={({ field }) => (
          <TextField
            select
            fullWidth
            label={t('flows.dialogs.randomizer.percent')}
            value={field.value}
            onChange={(e) => field.onChange(Number(e.target.value))}
            helperText={t('flows.dialogs.randomizer.other', { percent: 100 - percent })}
            slotProps={{
              select: { SelectDisplayProps: { 'data-testid': 'flow-randomizer-percent' } as object },
            }}
          >
            {PERCENTS.map((p) => (
              <MenuItem key={p} value={p}>
                {p}%
              </MenuItem>
            ))}
          </TextField>
        )}
      />
    </NodeDialogFrame>
  );
}

/**
 * The message a menu or question node sends: multiline (three rows at least), focused when the
 * dialog opens, its validation key (`FLOW_MESSAGES`) translated below it.
 */
function NodeMessageField({
  label,
  registration,
  error,
  testId,
}: {
  label: string;
  /** `form.register('message')` of the dialog's form. */
  registration: UseFormRegisterReturn;
  /** The field's validation key, if any. */
  error?: string;
  /** data-testid of the text area. */
  testId: string;
}) {
  const message = useFlowMessage();
  return (
    <TextField
      label={label}
      autoFocus
      fullWidth
      multiline
      minRows={3}
      {...registration}
      error={!!error}
      helperText={message(error)}
      slotProps={{ htmlInput: { 'data-testid': testId } }}
    />
  );
}

const ZMenuForm = z.object({
  message: z.string().trim().min(1, FLOW_MESSAGES.required).max(4000, FLOW_MESSAGES.tooLong),
  arrayOption: z
    .array(
      z.object({
        number: z.number().int().positive(),
        value: z.string().trim().min(1, FLOW_MESSAGES.required).max(255, FLOW_MESSAGES.tooLong),
      }),
    )
    .min(1, FLOW_MESSAGES.required),
});

/** Menu node: the message and its numbered options (each a branch of the flow). */
export function MenuDialog({
  data,
  onSave,
  onClose,
}: NodeDialogProps<{ message: string; arrayOption: MenuOption[] }>) {
  const { t } = useTranslation();
  const message = useFlowMessage();
  const form = useNodeForm<{ message: string; arrayOption: MenuOption[] }>(ZMenuForm, {
    message: data?.message ?? '',
    arrayOption: data?.arrayOption ?? [{ number: 1, value: '' }],
  });
  const options = useFieldArray({ control: form.control, name: 'arrayOption' });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    await submitDelay();
    onSave({
      message: values.message,
      arrayOption: values.arrayOption.map((o, i) => ({ number: i + 1, value: o.value })),
    });
  });
  return (
    <NodeDialogFrame
      kind="menu"
      editing={!!data}
      onClose={onClose}
      onSubmit={onSubmit}
      pending={isSubmitting}
    >
      <Stack spacing={2}>
        <NodeMessageField
          label={t('flows.dialogs.menu.message')}
          registration={form.register('message')}
          error={errors.message?.message}
          testId="flow-menu-message"
        />
        {options.fields.map((field, index) => (
          <Stack key={field.id} direction="row" spacing={1} alignItems="flex-start">
            <Typography sx={{ pt: 2, minWidth: 24 }}>[{index + 1}]</Typography>
            <TextField
              label={t('flows.dialogs.menu.option', { number: index + 1 })}
              fullWidth
              size="small"
              {...form.register(`arrayOption.${index}.value`)}
              error={!!errors.arrayOption?.[index]?.value}
              helperText={message(errors.arrayOption?.[index]?.value?.message)}
              slotProps={{ htmlInput: { 'data-testid': `flow-menu-option-${index + 1}` } }}
            />
            <IconButton
              aria-label={t('flows.dialogs.menu.removeOption', { number: index + 1 })}
              disabled={options.fields.length === 1}
              onClick={() => options.remove(index)}
            >
              <DeleteOutline />
            </IconButton>
          </Stack>
        ))}
        <Button
          startIcon={<AddIcon />}
          data-testid="flow-menu-add-option"
          onClick={() => options.append({ number: options.fields.length + 1, value: '' })}
        >
          {t('flows.dialogs.menu.addOption')}
        </Button>
      </Stack>
    </NodeDialogFrame>
  );
}

/** The queue a ticket node moves the ticket to, as its data holds it. */
export interface TicketNodeData {
  data: { id: number; name: string; color?: string };
}

/** Ticket (queue) node: the queue the ticket moves to; none chosen is 'Adicione uma fila'. */
export function TicketDialog({ data, onSave, onClose }: NodeDialogProps<TicketNodeData>) {
  const { t } = useTranslation();
  const message = useFlowMessage();
  const queues = useQueueList();
  const form = useForm<{ queueId: number }>({ defaultValues: { queueId: data?.data?.id ?? 0 } });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async ({ queueId }) => {
    const queue = queues.data?.find((q) => q.id === queueId);
    if (!queue) {
      form.setError('queueId', { message: FLOW_MESSAGES.queue });
      return;
    }
    await submitDelay();
    onSave({ data: { id: queue.id, name: queue.name, color: queue.color } });
  });
  return (
    <NodeDialogFrame
      kind="ticket"
      editing={!!data}
      onClose={onClose}
      onSubmit={onSubmit}
      pending={isSubmitting}
    >
      <Controller
        control={form.control}
        name="queueId"
        render={({ field }) => (
          <TextField
            select
            fullWidth
            label={t('flows.dialogs.ticket.queue')}
            value={field.value || ''}
            onChange={(e) => field.onChange(Number(e.target.value))}
            error={!!errors.queueId}
            helperText={message(errors.queueId?.message)}
            slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'flow-ticket-queue' } as object } }}
          >
            {(queues.data ?? []).map((queue) => (
              <MenuItem key={queue.id} value={queue.id}>
                {queue.name}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
    </NodeDialogFrame>
  );
}

/** The question node's data: its integration (document 3 section 3). */
export interface QuestionNodeData {
  typebotIntegration: { message: string; answerKey: string };
}

/**
 * Question node, 'Adicionar Perguta ao fluxo' / 'Editar Perguta': the message and the variable that
 * keeps the answer (required). Saving keeps the variables list in local storage as the spec says:
 * creating adds the variable (replacing a duplicate), editing replaces the old one.
 */
export function QuestionDialog({ data, onSave, onClose }: NodeDialogProps<QuestionNodeData>) {
  const { t } = useTranslation();
  const message = useFlowMessage();
  const previous = data?.typebotIntegration;
  const form = useNodeForm<{ message: string; answerKey: string }>(ZQuestionForm, {
    message: previous?.message ?? '',
    answerKey: previous?.answerKey ?? '',
  });
  const { errors, isSubmitting } = form.formState;
  const answerKey = form.watch('answerKey');
  const onSubmit = form.handleSubmit(async (values) => {
    await submitDelay();
    writeVariables(updateVariables(readVariables(), values.answerKey, previous?.answerKey));
    onSave({ typebotIntegration: { message: values.message, answerKey: values.answerKey } });
  });
  return (
    <NodeDialogFrame
      kind="question"
      editing={!!data}
      onClose={onClose}
      onSubmit={onSubmit}
      pending={isSubmitting}
    >
      <Stack spacing={2}>
        <NodeMessageField
          label={t('flows.dialogs.question.message')}
          registration={form.register('message')}
          error={errors.message?.message}
          testId="flow-question-message"
        />
        <TextField
          label={t('flows.dialogs.question.answerKey')}
          fullWidth
          {...form.register('answerKey')}
          error={!!errors.answerKey}
          helperText={
            message(errors.answerKey?.message) ??
            t('flows.dialogs.question.answerKeyHint', { placeholder: `{{${answerKey.trim() || 'nome'}}}` })
          }
          slotProps={{ htmlInput: { 'data-testid': 'flow-question-answerKey' } }}
        />
      </Stack>
    </NodeDialogFrame>
  );
}
