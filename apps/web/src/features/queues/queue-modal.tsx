import CheckIcon from '@mui/icons-material/Check';
import { Box, FormHelperText, FormLabel, Stack, Tab, Tabs, TextField, Typography } from '@mui/material';
import {
  type AutoAssignment,
  DEFAULT_QUEUE_SCHEDULES,
  type QueueDetail,
  type QueueSchedule,
  SLA_MAX_MINUTES,
  ZQueueBody,
} from '@zapdesk/shared';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { type BotChoice, BotPickers } from '../bots/bot-pickers';
import { useFieldMessage } from '../common/field-message';
import { FormMessageField, FormSelect, FormTextField } from '../common/form-fields';
import { RecordFormDialog } from '../common/record-form-dialog';
import { useRecordDialog } from '../common/use-record-form';
import { QUEUE_COLORS } from './palette';
import { QueueOptionsEditor } from './queue-options-editor';
import { useQueueDetail, useSaveQueue, useScheduleType } from './use-queues';

/** Values of the queue form (document 2 sections 3 and 5). */
export interface QueueFormValues {
  name: string;
  color: string;
  orderQueue: number | null;
  greetingMessage: string;
  outOfHoursMessage: string;
  schedules: QueueSchedule[];
  autoAssignment: AutoAssignment;
  /** Service-level targets in minutes (docs/reports.md "Service levels"); null: none. */
  slaFirstResponseMinutes: number | null;
  slaResolutionMinutes: number | null;
}

const EMPTY: QueueFormValues = {
  name: '',
  color: '',
  orderQueue: null,
  greetingMessage: '',
  outOfHoursMessage: '',
  schedules: DEFAULT_QUEUE_SCHEDULES,
  autoAssignment: 'off',
  slaFirstResponseMinutes: null,
  slaResolutionMinutes: null,
};

const toForm = (queue: QueueDetail): QueueFormValues => ({
  name: queue.name,
  color: queue.color,
  orderQueue: queue.orderQueue,
  greetingMessage: queue.greetingMessage ?? '',
  outOfHoursMessage: queue.outOfHoursMessage ?? '',
  schedules: queue.schedules,
  autoAssignment: queue.autoAssignment,
  slaFirstResponseMinutes: queue.slaFirstResponseMinutes,
  slaResolutionMinutes: queue.slaResolutionMinutes,
});

/** An empty number field is null (no target); anything else its number (NaN fails validation). */
const numberOrNull = (v: unknown) => (v === '' || v === null || v === undefined ? null : Number(v));

interface QueueModalProps {
  open: boolean;
  /** The queue to edit; absent to add one. */
  queueId?: number | null;
  onClose: () => void;
}

/**
 * Add/edit queue dialog (document 2 section 2 "Queues"): name, colour from the fixed palette, bot
 * order, greeting; the out-of-hours message and the attendance-hours tab appear when the setting
 * scheduleType is 'queue'. The service-level targets (minutes to the first reply and to the closing,
 * empty for none) are counted in attendance hours when the company uses them. Both messages offer the message variables (`{{firstName}}`...). The
 * options tree is edited here once the queue exists.
 */
export function QueueModal({ open, queueId, onClose }: QueueModalProps) {
  const { t } = useTranslation();
  const editing = typeof queueId === 'number';
  const existing = useQueueDetail(editing ? queueId : null);
  const scheduleType = useScheduleType();
  const withHours = scheduleType === 'queue';
  const save = useSaveQueue();
  const [tab, setTab] = useState<'data' | 'hours'>('data');
  const [bots, setBots] = useState<BotChoice | null>(null);
  const dialog = useRecordDialog<QueueFormValues, QueueDetail>({
    schema: ZQueueBody,
    defaults: EMPTY,
    record: existing.data,
    toForm,
    save: (values) => {
      const body = {
        name: values.name,
        color: values.color,
        orderQueue: values.orderQueue,
        greetingMessage: values.greetingMessage || null,
        outOfHoursMessage: values.outOfHoursMessage || null,
        autoAssignment: values.autoAssignment,
        slaFirstResponseMinutes: values.slaFirstResponseMinutes,
        slaResolutionMinutes: values.slaResolutionMinutes,
        ...(withHours ? { schedules: values.schedules } : {}),
        ...(bots ?? {}),
      };
      return save.mutateAsync({ id: editing ? queueId : undefined, body });
    },
    saved: t('queueModal.toasts.success'),
    onClose,
  });
  const { control, formState } = dialog.form;
  const loading = editing && existing.isPending;
  const message = useFieldMessage();

  return (
    <RecordFormDialog
      dialog={dialog}
      ids={{ title: 'queue-modal-title', form: 'queue-modal', submit: 'queue-save' }}
      open={open}
      onClose={onClose}
      title={editing ? t('queueModal.titleEdit') : t('queueModal.titleAdd')}
      maxWidth="md"
      loading={loading}
      header={
        withHours && (
          <Tabs value={tab} onChange={(_e, v) => setTab(v)} sx={{ px: 2 }}>
            <Tab value="data" label={t('queueModal.tabs.data')} data-testid="queue-data-tab" />
            <Tab value="hours" label={t('queueModal.tabs.hours')} data-testid="queue-hours-tab" />
          </Tabs>
        )
      }
      editing={editing}
    >
      <Stack spacing={2} sx={{ display: tab === 'data' ? 'flex' : 'none' }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <FormTextField name="name" label={t('queueModal.form.name')} autoFocus testId="queue-name" />
          <FormTextField
            name="orderQueue"
            label={t('queueModal.form.orderQueue')}
            type="number"
            fullWidth={false}
            sx={{ minWidth: 200 }}
            rules={{
              setValueAs: (v: unknown) => (v === '' || v === null || v === undefined ? null : Number(v)),
            }}
            errorText={t('validation.invalid')}
            testId="queue-order"
            slotProps={{ htmlInput: { min: 0 } }}
          />
        </Stack>
        <FormSelect
          name="autoAssignment"
          label={t('queueModal.form.autoAssignment')}
          testId="queue-auto-assignment"
          options={(['off', 'round_robin', 'least_busy'] as const).map((value) => ({
            value,
            label: t(`queueModal.form.autoAssignmentOptions.${value}`),
          }))}
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          {(['slaFirstResponseMinutes', 'slaResolutionMinutes'] as const).map((name) => (
            <FormTextField
              key={name}
              name={name}
              label={t(`queueModal.form.${name}`)}
              type="number"
              hint={t('queueModal.form.slaHint')}
              rules={{ setValueAs: numberOrNull }}
              testId={name === 'slaFirstResponseMinutes' ? 'queue-sla-first' : 'queue-sla-resolution'}
              slotProps={{ htmlInput: { min: 1, max: SLA_MAX_MINUTES, step: 1 } }}
            />
          ))}
        </Stack>
        <Controller
          control={control}
          name="color"
          render={({ field }) => (
            <Box>
              <FormLabel>{t('queueModal.form.color')}</FormLabel>
              <Box
                role="radiogroup"
                aria-label={t('queueModal.form.color')}
                sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.75, mt: 1 }}
              >
                {QUEUE_COLORS.map((color) => {
                  const selected = field.value.toUpperCase() === color;
                  return (
                    <Box
                      key={color}
                      component="button"
                      type="button"
                      role="radio"
                      aria-checked={selected}
                      aria-label={color}
                      data-testid={`queue-color-${color.slice(1)}`}
                      onClick={() => field.onChange(color)}
                      sx={{
                        width: 28,
                        height: 28,
                        borderRadius: '50%',
                        bgcolor: color,
                        border: 2,
                        borderColor: selected ? 'text.primary' : 'transparent',
                        cursor: 'pointer',
                        display: 'grid',
                        placeItems: 'center',
                        color: '#fff',
                        p: 0,
                      }}
                    >
                      {selected && <CheckIcon fontSize="small" />}
                    </Box>
                  );
                })}
              </Box>
              {formState.errors.color && (
                <FormHelperText error>{message(formState.errors.color.message)}</FormHelperText>
              )}
            </Box>
          )}
        />
        <FormMessageField
          name="greetingMessage"
          label={t('queueModal.form.greetingMessage')}
          testId="queue-greeting"
        />
        {withHours && (
          <FormMessageField
            name="outOfHoursMessage"
            label={t('queueModal.form.outOfHoursMessage')}
            testId="queue-out-of-hours"
          />
        )}
        <BotPickers
          testIdPrefix="queue"
          value={
            bots ?? {
              promptId: existing.data?.promptId ?? null,
              integrationId: existing.data?.integrationId ?? null,
            }
          }
          onChange={setBots}
        />
        {editing && existing.data ? (
          <QueueOptionsEditor queueId={existing.data.id} options={existing.data.options} />
        ) : (
          <Typography variant="body2" color="text.secondary">
            {t('queueModal.options.saveFirst')}
          </Typography>
        )}
      </Stack>
      {withHours && tab === 'hours' && (
        <Stack spacing={1.5} data-testid="queue-hours">
          <Controller
            control={control}
            name="schedules"
            render={({ field }) => (
              <>
                {field.value.map((day, index) => (
                  <Stack key={day.weekdayEn} direction="row" spacing={2} alignItems="center">
                    <Typography sx={{ width: 160 }}>{t(`queueModal.weekdays.${day.weekdayEn}`)}</Typography>
                    {(['startTime', 'endTime'] as const).map((key) => (
                      <TextField
                        key={key}
                        type="time"
                        size="small"
                        label={t(`queueModal.form.${key}`)}
                        value={day[key]}
                        onChange={(e) =>
                          field.onChange(
                            field.value.map((d, i) => (i === index ? { ...d, [key]: e.target.value } : d)),
                          )
                        }
                        slotProps={{
                          inputLabel: { shrink: true },
                          htmlInput: { 'data-testid': `queue-${key}-${day.weekdayEn}` },
                        }}
                      />
                    ))}
                  </Stack>
                ))}
              </>
            )}
          />
          {formState.errors.schedules && <FormHelperText error>{t('validation.invalid')}</FormHelperText>}
        </Stack>
      )}
    </RecordFormDialog>
  );
}
