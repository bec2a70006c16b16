/** Dialogs of the interval, randomizer, menu, ticket (queue) and question nodes (document 3 sections 2 to 5). */
import AddIcon from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { Button, IconButton, Stack, Typography } from '@mui/material';
import { useFieldArray } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormSelect, FormTextField } from '../../common/form-fields';
import { useQueueList } from '../../queues/use-queues';
import { ZIntervalForm, ZQuestionForm } from '../flow-forms';
import { readVariables, updateVariables, writeVariables } from '../flow-graph';
import { FLOW_LIMITS, FLOW_MESSAGES, type MenuOption } from '../flow-types';
import { type NodeDialogProps, NodeFormDialog, useNodeDialog } from './node-dialog';

/** Interval node: seconds, required, more than 0 ('Adicione o valor de intervalo'), at most 120. */
export function IntervalDialog({ data, onSave, onClose }: NodeDialogProps<{ label: string; sec: number }>) {
  const { t } = useTranslation();
  const dialog = useNodeDialog({
    schema: ZIntervalForm,
    defaults: { sec: data?.sec ?? (undefined as unknown as number) },
    toData: ({ sec }) => ({ label: t('flows.nodes.intervalLabel', { sec }), sec }),
    onSave,
  });
  return (
    <NodeFormDialog kind="interval" editing={!!data} onClose={onClose} dialog={dialog}>
      <FormTextField
        name="sec"
        number
        label={t('flows.dialogs.interval.sec')}
        type="number"
        autoFocus
        testId="flow-interval-sec"
        slotProps={{ htmlInput: { min: 1, max: FLOW_LIMITS.intervalMaxSec } }}
      />
    </NodeFormDialog>
  );
}

const PERCENTS = Array.from({ length: 100 / FLOW_LIMITS.randomizerStep + 1 }, (_, i) => ({
  value: i * FLOW_LIMITS.randomizerStep,
  label: `${i * FLOW_LIMITS.randomizerStep}%`,
}));

/** Randomizer node: the first branch's percent (0..100 by 10); the other branch gets the rest. */
export function RandomizerDialog({ data, onSave, onClose }: NodeDialogProps<{ percent: number }>) {
  const { t } = useTranslation();
  const dialog = useNodeDialog({
    defaults: { percent: data?.percent ?? 50 },
    toData: ({ percent }) => ({ percent }),
    onSave,
  });
  const percent = dialog.form.watch('percent');
  return (
    <NodeFormDialog kind="randomizer" editing={!!data} onClose={onClose} dialog={dialog}>
      <FormSelect
        name="percent"
        numeric
        label={t('flows.dialogs.randomizer.percent')}
        helperText={t('flows.dialogs.randomizer.other', { percent: 100 - percent })}
        testId="flow-randomizer-percent"
        options={PERCENTS}
      />
    </NodeFormDialog>
  );
}

/**
 * The message a menu or question node sends: multiline (three rows at least), focused when the
 * dialog opens, its validation key (`FLOW_MESSAGES`) translated below it.
 */
function NodeMessageField({ label, testId }: { label: string; testId: string }) {
  return <FormTextField name="message" label={label} autoFocus multiline minRows={3} testId={testId} />;
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

type MenuData = { message: string; arrayOption: MenuOption[] };

/** Menu node: the message and its numbered options (each a branch of the flow). */
export function MenuDialog({ data, onSave, onClose }: NodeDialogProps<MenuData>) {
  const { t } = useTranslation();
  const dialog = useNodeDialog<MenuData, MenuData>({
    schema: ZMenuForm,
    defaults: {
      message: data?.message ?? '',
      arrayOption: data?.arrayOption ?? [{ number: 1, value: '' }],
    },
    toData: (values) => ({
      message: values.message,
      arrayOption: values.arrayOption.map((o, i) => ({ number: i + 1, value: o.value })),
    }),
    onSave,
  });
  const options = useFieldArray({ control: dialog.form.control, name: 'arrayOption' });
  return (
    <NodeFormDialog kind="menu" editing={!!data} onClose={onClose} dialog={dialog}>
      <Stack spacing={2}>
        <NodeMessageField label={t('flows.dialogs.menu.message')} testId="flow-menu-message" />
        {options.fields.map((field, index) => (
          <Stack key={field.id} direction="row" spacing={1} alignItems="flex-start">
            <Typography sx={{ pt: 2, minWidth: 24 }}>[{index + 1}]</Typography>
            <FormTextField
              name={`arrayOption.${index}.value`}
              label={t('flows.dialogs.menu.option', { number: index + 1 })}
              size="small"
              testId={`flow-menu-option-${index + 1}`}
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
    </NodeFormDialog>
  );
}

/** The queue a ticket node moves the ticket to, as its data holds it. */
export interface TicketNodeData {
  data: { id: number; name: string; color?: string };
}

/** Ticket (queue) node: the queue the ticket moves to; none chosen is 'Adicione uma fila'. */
export function TicketDialog({ data, onSave, onClose }: NodeDialogProps<TicketNodeData>) {
  const { t } = useTranslation();
  const queues = useQueueList();
  const dialog = useNodeDialog<{ queueId: number }, TicketNodeData>({
    defaults: { queueId: data?.data?.id ?? 0 },
    toData: ({ queueId }, form) => {
      const queue = queues.data?.find((q) => q.id === queueId);
      if (!queue) {
        form.setError('queueId', { message: FLOW_MESSAGES.queue });
        return undefined;
      }
      return { data: { id: queue.id, name: queue.name, color: queue.color } };
    },
    onSave,
  });
  return (
    <NodeFormDialog kind="ticket" editing={!!data} onClose={onClose} dialog={dialog}>
      <FormSelect
        name="queueId"
        numeric
        zeroAsEmpty
        label={t('flows.dialogs.ticket.queue')}
        testId="flow-ticket-queue"
        options={(queues.data ?? []).map((queue) => ({ value: queue.id, label: queue.name }))}
      />
    </NodeFormDialog>
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
  const previous = data?.typebotIntegration;
  const dialog = useNodeDialog({
    schema: ZQuestionForm,
    defaults: { message: previous?.message ?? '', answerKey: previous?.answerKey ?? '' },
    toData: (values) => ({ typebotIntegration: { message: values.message, answerKey: values.answerKey } }),
    onSave: (saved: QuestionNodeData) => {
      writeVariables(
        updateVariables(readVariables(), saved.typebotIntegration.answerKey, previous?.answerKey),
      );
      onSave(saved);
    },
  });
  const answerKey = dialog.form.watch('answerKey');
  return (
    <NodeFormDialog kind="question" editing={!!data} onClose={onClose} dialog={dialog}>
      <Stack spacing={2}>
        <NodeMessageField label={t('flows.dialogs.question.message')} testId="flow-question-message" />
        <FormTextField
          name="answerKey"
          label={t('flows.dialogs.question.answerKey')}
          hint={t('flows.dialogs.question.answerKeyHint', {
            placeholder: `{{${answerKey.trim() || 'nome'}}}`,
          })}
          testId="flow-question-answerKey"
        />
      </Stack>
    </NodeFormDialog>
  );
}
