import CheckIcon from '@mui/icons-material/Check';
import { Box, FormHelperText, FormLabel, Stack, Tab, Tabs, TextField, Typography } from '@mui/material';
import { DEFAULT_QUEUE_SCHEDULES, type QueueDetail, type QueueSchedule, ZQueueBody } from '@zapdesk/shared';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { type BotChoice, BotPickers } from '../bots/bot-pickers';
import { useFieldMessage } from '../common/field-message';
import { FormDialog } from '../common/form-dialog';
import { MessageTextField } from '../common/message-text-field';
import { useRecordForm } from '../common/use-record-form';
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
}

const EMPTY: QueueFormValues = {
  name: '',
  color: '',
  orderQueue: null,
  greetingMessage: '',
  outOfHoursMessage: '',
  schedules: DEFAULT_QUEUE_SCHEDULES,
};

const toForm = (queue: QueueDetail): QueueFormValues => ({
  name: queue.name,
  color: queue.color,
  orderQueue: queue.orderQueue,
  greetingMessage: queue.greetingMessage ?? '',
  outOfHoursMessage: queue.outOfHoursMessage ?? '',
  schedules: queue.schedules,
});

interface QueueModalProps {
  open: boolean;
  /** The queue to edit; absent to add one. */
  queueId?: number | null;
  onClose: () => void;
}

/**
 * Add/edit queue dialog (document 2 section 2 "Queues"): name, colour from the fixed palette, bot
 * order, greeting; the out-of-hours message and the attendance-hours tab appear when the setting
 * scheduleType is 'queue'. Both messages offer the message variables (`{{firstName}}`...). The
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
  const {
    control,
    register,
    handleSubmit,
    getValues,
    setValue,
    formState: { errors, isSubmitting },
  } = useRecordForm<QueueFormValues, QueueDetail>(ZQueueBody, EMPTY, existing.data, toForm);

  const onSubmit = handleSubmit(async (values) => {
    const body = {
      name: values.name,
      color: values.color,
      orderQueue: values.orderQueue,
      greetingMessage: values.greetingMessage || null,
      outOfHoursMessage: values.outOfHoursMessage || null,
      ...(withHours ? { schedules: values.schedules } : {}),
      ...(bots ?? {}),
    };
    const saved = await save.mutateAsync({ id: editing ? queueId : undefined, body }).catch(() => null);
    if (!saved) return;
    toast.success(t('queueModal.toasts.success'));
    onClose();
  });

  const message = useFieldMessage();
  const loading = editing && existing.isPending;

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={editing ? t('queueModal.titleEdit') : t('queueModal.titleAdd')}
      titleId="queue-modal-title"
      maxWidth="md"
      loading={loading}
      onSubmit={onSubmit}
      formTestId="queue-modal"
      header={
        withHours && (
          <Tabs value={tab} onChange={(_e, v) => setTab(v)} sx={{ px: 2 }}>
            <Tab value="data" label={t('queueModal.tabs.data')} data-testid="queue-data-tab" />
            <Tab value="hours" label={t('queueModal.tabs.hours')} data-testid="queue-hours-tab" />
          </Tabs>
        )
      }
      editing={editing}
      submitTestId="queue-save"
      pending={isSubmitting}
    >
      <Stack spacing={2} sx={{ display: tab === 'data' ? 'flex' : 'none' }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            label={t('queueModal.form.name')}
            fullWidth
            autoFocus
            {...register('name')}
            error={!!errors.name}
            helperText={message(errors.name?.message)}
            slotProps={{ htmlInput: { 'data-testid': 'queue-name' } }}
          />
          <TextField
            label={t('queueModal.form.orderQueue')}
            type="number"
            sx={{ minWidth: 200 }}
            {...register('orderQueue', {
              setValueAs: (v: unknown) => (v === '' || v === null || v === undefined ? null : Number(v)),
            })}
            error={!!errors.orderQueue}
            helperText={errors.orderQueue ? t('validation.invalid') : undefined}
            slotProps={{ htmlInput: { min: 0, 'data-testid': 'queue-order' } }}
          />
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
              {errors.color && <FormHelperText error>{message(errors.color.message)}</FormHelperText>}
            </Box>
          )}
        />
        <MessageTextField<QueueFormValues>
          name="greetingMessage"
          label={t('queueModal.form.greetingMessage')}
          control={control}
          getValues={getValues}
          setValue={setValue}
          error={message(errors.greetingMessage?.message)}
          testId="queue-greeting"
        />
        {withHours && (
          <MessageTextField<QueueFormValues>
            name="outOfHoursMessage"
            label={t('queueModal.form.outOfHoursMessage')}
            control={control}
            getValues={getValues}
            setValue={setValue}
            error={message(errors.outOfHoursMessage?.message)}
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
          {errors.schedules && <FormHelperText error>{t('validation.invalid')}</FormHelperText>}
        </Stack>
      )}
    </FormDialog>
  );
}
