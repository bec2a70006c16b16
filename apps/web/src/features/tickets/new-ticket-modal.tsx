import { Alert, CircularProgress, MenuItem, Stack, TextField } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { can, type QueueRef, type Ticket } from '@zapdesk/shared';
import { useEffect, useMemo, useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { ApiError, api } from '../../lib/api';
import { notifyError } from '../../lib/notify';
import { useCurrentUser } from '../auth/session-context';
import { type ContactRef, FormContactField } from '../common/contact-autocomplete';
import { useFieldMessage } from '../common/field-message';
import { FormDialog } from '../common/form-dialog';
import { useRecordForm } from '../common/use-record-form';
import { useConnections } from '../connections/use-connections';
import { useQueueList } from '../queues/use-queues';
import { upsertTicketInLists } from './tickets-cache';
import { viewerOf } from './use-tickets';

export interface NewTicketValues {
  contact: ContactRef | null;
  queueId: number | '';
  whatsappId: number | '';
}

/** The form rules (core section 5): a contact, and a queue unless the user is admin. */
export function newTicketSchema(admin: boolean) {
  return z
    .object({
      contact: z.object({ id: z.number(), name: z.string(), number: z.string() }).nullable(),
      queueId: z.union([z.number(), z.literal('')]),
      whatsappId: z.union([z.number(), z.literal('')]),
    })
    .superRefine((values, ctx) => {
      if (!values.contact) ctx.addIssue({ code: 'custom', path: ['contact'], message: 'required' });
      if (!admin && values.queueId === '')
        ctx.addIssue({ code: 'custom', path: ['queueId'], message: 'selectQueue' });
    });
}

/** GET /queue for admins; a failure shows 'searchQueueError'. */
function useAllQueues(enabled: boolean) {
  const { t } = useTranslation();
  const query = useQueueList({ enabled, silent: true });
  useEffect(() => {
    if (query.isError) toast.error(t('tickets.newTicket.searchQueueError'), { toastId: 'searchQueueError' });
  }, [query.isError, t]);
  return query;
}

/**
 * New ticket modal (core sections 2, 5 and 8): contact autocomplete (from 3 characters, 500 ms),
 * queue (required for non-admins: 'select queue'), connection; POST /tickets then opens the ticket.
 * ERR_OTHER_OPEN_TICKET: when the existing ticket belongs to another user the modal names that user
 * and queue and stays; otherwise it closes and opens the existing ticket.
 */
export function NewTicketModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const admin = can(me.profile, 'tickets-manager:showall');
  const allQueues = useAllQueues(admin);
  const connections = useConnections({ silent: true });
  const [conflict, setConflict] = useState<{ user: string; queue: string } | null>(null);

  const queues: QueueRef[] = useMemo(
    () => (admin ? (allQueues.data ?? []) : me.queues),
    [admin, allQueues.data, me.queues],
  );

  const {
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useRecordForm<NewTicketValues>(newTicketSchema(admin), {
    contact: null,
    queueId: !admin && me.queues.length === 1 ? (me.queues[0]?.id ?? '') : '',
    whatsappId: me.whatsappId ?? '',
  });

  const open = (ticket: Ticket) => {
    onClose();
    navigate(`/tickets/${ticket.uuid}`);
  };

  const onSubmit = handleSubmit(async (values) => {
    if (!values.contact) return;
    setConflict(null);
    try {
      const ticket = await api.post<Ticket>('/tickets', {
        contactId: values.contact.id,
        queueId: values.queueId === '' ? null : values.queueId,
        whatsappId: values.whatsappId === '' ? null : values.whatsappId,
        userId: me.id,
        status: 'open',
      });
      upsertTicketInLists(queryClient, ticket, viewerOf(me));
      open(ticket);
    } catch (err) {
      const existing = err instanceof ApiError ? (err.body?.ticket as Ticket | undefined) : undefined;
      if (err instanceof ApiError && err.code === 'ERR_OTHER_OPEN_TICKET' && existing) {
        if (existing.user && existing.user.id !== me.id) {
          setConflict({
            user: existing.user.name,
            queue: existing.queue?.name ?? t('tickets.item.noQueue'),
          });
          return;
        }
        open(existing);
        return;
      }
      notifyError(err);
    }
  });

  const message = useFieldMessage({ extra: { selectQueue: t('tickets.newTicket.selectQueue') } });

  return (
    <FormDialog
      onClose={onClose}
      title={t('tickets.newTicket.title')}
      titleId="new-ticket-title"
      maxWidth="xs"
      onSubmit={onSubmit}
      formTestId="new-ticket-modal"
      submitLabel={isSubmitting ? <CircularProgress size={20} /> : t('common.save')}
      submitTestId="new-ticket-save"
      pending={isSubmitting}
      lockCancel
    >
      <Stack spacing={2}>
        {conflict && (
          <Alert severity="warning" data-testid="new-ticket-conflict">
            {t('tickets.newTicket.otherOpenTicket', conflict)}
          </Alert>
        )}
        <FormContactField
          name="contact"
          control={control}
          texts="tickets.newTicket"
          message={message}
          autoFocus
          testId="new-ticket-contact"
        />
        <Controller
          name="queueId"
          control={control}
          render={({ field }) => (
            <TextField
              select
              label={t('tickets.newTicket.queue')}
              fullWidth
              value={queues.some((q) => q.id === field.value) ? field.value : ''}
              onChange={(e) => field.onChange(e.target.value === '' ? '' : Number(e.target.value))}
              onBlur={field.onBlur}
              error={!!errors.queueId}
              helperText={message(errors.queueId?.message)}
              slotProps={{ htmlInput: { 'data-testid': 'new-ticket-queue' } }}
            >
              {admin && (
                <MenuItem value="">
                  <em>{t('common.none')}</em>
                </MenuItem>
              )}
              {queues.map((queue) => (
                <MenuItem key={queue.id} value={queue.id}>
                  {queue.name}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        <Controller
          name="whatsappId"
          control={control}
          render={({ field }) => (
            <TextField
              select
              label={t('tickets.newTicket.connection')}
              fullWidth
              value={connections.data?.some((c) => c.id === field.value) ? field.value : ''}
              onChange={(e) => field.onChange(e.target.value === '' ? '' : Number(e.target.value))}
              onBlur={field.onBlur}
              slotProps={{ htmlInput: { 'data-testid': 'new-ticket-whatsapp' } }}
            >
              <MenuItem value="">
                <em>{t('tickets.newTicket.defaultConnection')}</em>
              </MenuItem>
              {(connections.data ?? []).map((connection) => (
                <MenuItem key={connection.id} value={connection.id}>
                  {connection.name}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
      </Stack>
    </FormDialog>
  );
}
