import { Button, Stack, TextField, Typography } from '@mui/material';
import {
  boundedString,
  type Provider,
  V,
  type Whatsapp,
  type WhatsappBody,
  ZWhatsappBody,
} from '@zapdesk/shared';
import { type RefObject, useRef, useState } from 'react';
import { type Control, Controller, type FieldErrors, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiError } from '../../lib/api';
import { notifyError } from '../../lib/notify';
import { type BotChoice, BotPickers } from '../bots/bot-pickers';
import { type CloudSettingsHandle, CloudSettingsSection } from '../cloud/cloud-settings-section';
import { useFieldMessage } from '../common/field-message';
import { FormMessageField, FormSelect, FormSwitch, FormTextField } from '../common/form-fields';
import { OptionalIdSelect, QueueMultiSelect } from '../common/id-select';
import { RecordFormDialog } from '../common/record-form-dialog';
import { useRecordForm } from '../common/use-record-form';
import { useFlowOptions } from '../flows/use-flows';
import { useQueueList } from '../queues/use-queues';
import { useConnection, useRegenerateToken, useSaveConnection } from './use-connections';

/** Values of the connection form (document 2 section 3 "Whatsapp connection"). */
export interface ConnectionFormValues {
  name: string;
  provider: Provider;
  isDefault: boolean;
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  queueIds: number[];
  expiresTicket: number;
  expiresInactiveMessage: string;
  timeToTransfer: number;
  transferQueueId: number | null;
  timeUseBotQueues: number;
  maxUseBotQueues: number;
  flowIdWelcome: number | null;
}

const EMPTY: ConnectionFormValues = {
  name: '',
  provider: 'beta',
  isDefault: false,
  greetingMessage: '',
  complationMessage: '',
  outOfHoursMessage: '',
  ratingMessage: '',
  queueIds: [],
  expiresTicket: 0,
  expiresInactiveMessage: '',
  timeToTransfer: 0,
  transferQueueId: null,
  timeUseBotQueues: 0,
  maxUseBotQueues: 3,
  flowIdWelcome: null,
};

const toForm = (w: Whatsapp): ConnectionFormValues => ({
  name: w.name,
  provider: w.provider,
  isDefault: w.isDefault,
  greetingMessage: w.greetingMessage ?? '',
  complationMessage: w.complationMessage ?? '',
  outOfHoursMessage: w.outOfHoursMessage ?? '',
  ratingMessage: w.ratingMessage ?? '',
  queueIds: (w.queues ?? []).map((q) => q.id),
  expiresTicket: w.expiresTicket ?? 0,
  expiresInactiveMessage: w.expiresInactiveMessage ?? '',
  timeToTransfer: w.timeToTransfer ?? 0,
  transferQueueId: w.transferQueueId ?? null,
  timeUseBotQueues: w.timeUseBotQueues ?? 0,
  maxUseBotQueues: w.maxUseBotQueues ?? 3,
  flowIdWelcome: w.flowIdWelcome ?? null,
});

/**
 * ZWhatsappBody with 'Required' for an empty name (the shared schema says only 'Too Short!'), and the
 * server's rule that a connection with more than one queue needs a greeting (it greets with the menu
 * of those queues): ERR_WAPP_GREETING_REQUIRED on greetingMessage.
 */
const schema = ZWhatsappBody.extend({ name: boundedString(2, 50) }).refine(
  (v) => (v.queueIds?.length ?? 0) <= 1 || (v.greetingMessage ?? '').trim() !== '',
  { path: ['greetingMessage'], message: 'ERR_WAPP_GREETING_REQUIRED' },
);

/** The message fields of the form; they take the message variables (`{{firstName}}`...). */
type MessageName =
  | 'greetingMessage'
  | 'complationMessage'
  | 'outOfHoursMessage'
  | 'ratingMessage'
  | 'expiresInactiveMessage';

interface ConnectionModalProps {
  /** The connection to edit; absent to add one. */
  whatsappId?: number | null;
  onClose: () => void;
}

/**
 * Add/edit connection dialog (document 2 sections 2, 3 and 5): name (2..50), provider, default switch,
 * greeting, completion, out-of-hours and rating messages, queues, the API token (read-only, made by
 * the server, with a button that replaces it), and the timers (close after
 * minutes with its message, transfer after minutes to a queue, bot queue limits). The message fields
 * offer the message variables (`{{firstName}}`...). POST /whatsapp or PUT /whatsapp/:id, then a success
 * toast; a server error naming a field (ERR_WAPP_GREETING_REQUIRED...) also marks that field. Prompt
 * and integration are kept as they are. The welcome flow is offered when the plan has flows.
 */
export function ConnectionModal({ whatsappId, onClose }: ConnectionModalProps) {
  const { t } = useTranslation();
  const editing = typeof whatsappId === 'number';
  const existing = useConnection(editing ? whatsappId : null);
  const queues = useQueueList();
  // The welcome flow picker shows when the plan has flows (GET /flowbuilder answers).
  const flowOptions = useFlowOptions({ silent: true });
  const save = useSaveConnection();

  const form = useRecordForm<ConnectionFormValues, Whatsapp>(schema, EMPTY, existing.data, toForm);
  const {
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = form;

  /**
   * Marks the field a server error names (`{ error, field }`, e.g. ERR_WAPP_GREETING_REQUIRED on
   * greetingMessage), besides the toast the query client shows.
   */
  const [bots, setBots] = useState<BotChoice | null>(null);
  const markServerError = (err: unknown) => {
    if (!(err instanceof ApiError)) return;
    const field = err.body?.field;
    if (!field || !(field in EMPTY)) return;
    // The toast too (one per message: the query client's notifier shows the same one).
    notifyError(err);
    const key = err.code === 'ERR_VALIDATION' ? (err.body?.message ?? V.invalid) : (err.code ?? V.invalid);
    setError(field as keyof ConnectionFormValues, { type: 'server', message: key }, { shouldFocus: true });
  };

  /**
   * The welcome flow as the picker offers it: none when the saved id is not among the company's
   * flows (a flow deleted meanwhile), so what is saved is what the picker shows.
   */
  const offeredFlow = (id: number | null) =>
    id !== null && flowOptions.data?.some((flow) => flow.id === id) ? id : null;

  /** A refusal of the form's own checks that the server would answer with a code: its toast too. */
  const refusedHere = (invalid: FieldErrors<ConnectionFormValues>) => {
    if (invalid.greetingMessage?.message === 'ERR_WAPP_GREETING_REQUIRED')
      notifyError(t('errors.ERR_WAPP_GREETING_REQUIRED'));
  };

  // The Cloud API settings (their own section) are saved once the connection exists.
  const cloud = useRef<CloudSettingsHandle>(null);

  const onSubmit = handleSubmit(async (values) => {
    // The token is the server's: never sent (POST /whatsapp/:id/token replaces it).
    const body: WhatsappBody = {
      ...values,
      promptId: bots?.promptId ?? existing.data?.promptId ?? null,
      integrationId: bots?.integrationId ?? existing.data?.integrationId ?? null,
      flowIdWelcome: flowOptions.isSuccess ? offeredFlow(values.flowIdWelcome) : values.flowIdWelcome,
    };
    const saved = await save
      .mutateAsync({ id: editing ? whatsappId : undefined, body })
      .catch((err: unknown) => {
        markServerError(err);
        return null;
      });
    if (!saved) return;
    if (values.provider === 'cloud' && cloud.current && !(await cloud.current.save(saved.id))) return;
    toast.success(t('connections.toasts.saved'));
    onClose();
  }, refusedHere);

  const message = useFieldMessage({ unknownAsInvalid: true });
  const messageField = (name: MessageName, minRows?: number) => (
    <FormMessageField
      name={name}
      label={t(`connectionModal.${name}`)}
      testId={`connection-${name}`}
      minRows={minRows}
    />
  );
  const number = (name: 'expiresTicket' | 'timeToTransfer' | 'timeUseBotQueues' | 'maxUseBotQueues') => (
    <FormTextField
      name={name}
      number
      label={t(`connectionModal.${name}`)}
      type="number"
      testId={`connection-${name}`}
      slotProps={{ htmlInput: { min: 0 } }}
      sx={name === 'expiresTicket' || name === 'timeToTransfer' ? { maxWidth: { sm: 220 } } : undefined}
    />
  );
  const loading = editing && existing.isPending;

  return (
    <RecordFormDialog
      dialog={{ form, onSubmit, pending: isSubmitting }}
      ids={{ title: 'connection-modal-title', form: 'connection-form', submit: 'connection-save' }}
      messages={{ unknownAsInvalid: true }}
      onClose={onClose}
      title={editing ? t('connectionModal.titleEdit') : t('connectionModal.titleAdd')}
      maxWidth="md"
      scroll="paper"
      loading={loading}
      formSx={{ display: 'contents' }}
      editing={editing}
      lockCancel
    >
      <Stack spacing={2}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'flex-start' }}>
          <FormTextField name="name" label={t('connectionModal.name')} autoFocus testId="connection-name" />
          <FormSelect
            name="provider"
            label={t('connectionModal.provider')}
            slotProps={{ htmlInput: { 'data-testid': 'connection-provider' } }}
            options={[
              { value: 'beta', label: t('connectionModal.providers.beta') },
              { value: 'simulator', label: t('connectionModal.providers.simulator') },
              { value: 'cloud', label: t('cloud.provider') },
            ]}
          />
          <FormSwitch
            name="isDefault"
            sx={{ minWidth: 140, pt: 1 }}
            label={t('connectionModal.isDefault')}
            testId="connection-default-switch"
          />
        </Stack>
        <CloudProviderSection control={control} whatsappId={editing ? whatsappId : null} cloudRef={cloud} />
        {messageField('greetingMessage')}
        {messageField('complationMessage')}
        {messageField('outOfHoursMessage')}
        {messageField('ratingMessage')}
        <Controller
          name="queueIds"
          control={control}
          render={({ field }) => (
            <QueueMultiSelect
              label={t('connectionModal.queues')}
              queues={queues.data}
              value={field.value}
              onChange={field.onChange}
            />
          )}
        />
        <ConnectionToken whatsappId={editing ? whatsappId : null} token={existing.data?.token ?? null} />
        <Typography variant="subtitle2" component="h3">
          {t('connectionModal.timers')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'flex-start' }}>
          {number('expiresTicket')}
          {messageField('expiresInactiveMessage', 1)}
        </Stack>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'flex-start' }}>
          {number('timeToTransfer')}
          <Controller
            name="transferQueueId"
            control={control}
            render={({ field }) => (
              <OptionalIdSelect
                label={t('connectionModal.transferQueueId')}
                options={queues.data}
                value={field.value}
                onChange={field.onChange}
              />
            )}
          />
        </Stack>
        <BotPickers
          testIdPrefix="connection"
          value={
            bots ?? {
              promptId: existing.data?.promptId ?? null,
              integrationId: existing.data?.integrationId ?? null,
            }
          }
          onChange={setBots}
        />
        {flowOptions.isSuccess && (
          <Controller
            name="flowIdWelcome"
            control={control}
            render={({ field }) => (
              <OptionalIdSelect
                label={t('connectionModal.flowIdWelcome')}
                options={flowOptions.data}
                value={offeredFlow(field.value)}
                onChange={field.onChange}
                error={message(errors.flowIdWelcome?.message)}
                testId="connection-flowIdWelcome"
              />
            )}
          />
        )}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          {number('timeUseBotQueues')}
          {number('maxUseBotQueues')}
        </Stack>
      </Stack>
    </RecordFormDialog>
  );
}

/** The Cloud API settings, shown while the provider is 'cloud' (watched here, not in the whole form). */
function CloudProviderSection({
  control,
  whatsappId,
  cloudRef,
}: {
  control: Control<ConnectionFormValues>;
  whatsappId: number | null;
  cloudRef: RefObject<CloudSettingsHandle | null>;
}) {
  const provider = useWatch({ control, name: 'provider' });
  return provider === 'cloud' ? <CloudSettingsSection whatsappId={whatsappId} ref={cloudRef} /> : null;
}

/**
 * The connection's external-API token, read-only (the server makes it): shown to admins, with a
 * button that replaces it (POST /whatsapp/:id/token; the old one stops working). A new connection
 * gets its token when saved.
 */
function ConnectionToken({ whatsappId, token }: { whatsappId: number | null; token: string | null }) {
  const { t } = useTranslation();
  const regenerate = useRegenerateToken();
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'flex-start' }}>
      <TextField
        label={t('connectionModal.token')}
        fullWidth
        value={whatsappId === null ? '' : (token ?? '')}
        helperText={whatsappId === null ? t('connectionModal.tokenOnCreate') : t('connectionModal.tokenHelp')}
        slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'connection-token' } }}
      />
      {whatsappId !== null && (
        <Button
          variant="outlined"
          sx={{ flexShrink: 0, mt: { sm: 1 } }}
          disabled={regenerate.isPending}
          data-testid="connection-token-regenerate"
          onClick={() =>
            regenerate.mutate(whatsappId, {
              onSuccess: () => toast.success(t('connectionModal.tokenRegenerated')),
            })
          }
        >
          {t('connectionModal.regenerateToken')}
        </Button>
      )}
    </Stack>
  );
}
