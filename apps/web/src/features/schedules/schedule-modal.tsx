import { Stack, TextField } from '@mui/material';
import { type Schedule, ZScheduleBody } from '@zapdesk/shared';
import { addHours, format } from 'date-fns';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { ContactAutocomplete, type ContactRef } from '../common/contact-autocomplete';
import { useFieldMessage } from '../common/field-message';
import { FormDialog } from '../common/form-dialog';
import {
  type MediaAttachment,
  MediaAttachmentField,
  NO_MEDIA_CHANGE,
} from '../common/media-attachment-field';
import { useRecordForm } from '../common/use-record-form';
import { useSaveSchedule } from './use-schedules';

/** Values of the schedule form: sendAt as a local `yyyy-MM-ddTHH:mm` (datetime-local input). */
export interface ScheduleFormValues {
  body: string;
  contact: ContactRef | null;
  sendAt: string;
}

/** The form's rules (document 2 section 9): body ≥ 5 ('Mensagem muito curta'), contact and sendAt required. */
const ZScheduleForm = z.object({
  body: ZScheduleBody.shape.body,
  contact: z
    .object({ id: z.number(), name: z.string(), number: z.string() })
    .nullable()
    .refine((c) => c !== null, 'required'),
  sendAt: z.string().min(1, 'required'),
});

const LOCAL_FORMAT = "yyyy-MM-dd'T'HH:mm";

interface ScheduleModalProps {
  /** The schedule to edit; absent to add one. */
  record?: Schedule | null;
  /** The contact to preselect (`?contactId=`, the contact drawer). */
  contact?: ContactRef | null;
  /** Preselected send time (a calendar slot); defaults to now plus one hour. */
  start?: Date;
  onClose: () => void;
}

/**
 * Add/edit schedule dialog (document 2 sections 5 and 9): contact autocomplete from 3 characters,
 * message (at least 5 characters), send time (default now plus one hour) and a png/jpg/jpeg image.
 */
export function ScheduleModal({ record, contact, start, onClose }: ScheduleModalProps) {
  const { t } = useTranslation();
  const save = useSaveSchedule();
  const message = useFieldMessage();
  const [media, setMedia] = useState<MediaAttachment>(NO_MEDIA_CHANGE);
  const {
    control,
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useRecordForm<ScheduleFormValues>(ZScheduleForm, {
    body: record?.body ?? '',
    contact: record?.contact ?? contact ?? null,
    sendAt: format(record ? new Date(record.sendAt) : (start ?? addHours(new Date(), 1)), LOCAL_FORMAT),
  });

  const onSubmit = handleSubmit(async (values) => {
    const body = {
      body: values.body,
      contactId: values.contact!.id,
      sendAt: new Date(values.sendAt).toISOString(),
    };
    const saved = await save.mutateAsync({ id: record?.id, body, ...media }).catch(() => null);
    if (!saved) {
      toast.error(t('schedules.toasts.error'));
      return;
    }
    toast.success(t('schedules.toasts.saved'));
    onClose();
  });

  return (
    <FormDialog
      open
      onClose={onClose}
      title={record ? t('schedules.modal.titleEdit') : t('schedules.modal.titleAdd')}
      titleId="schedule-modal-title"
      maxWidth="sm"
      onSubmit={onSubmit}
      formTestId="schedule-modal"
      editing={!!record}
      submitTestId="schedule-save"
      pending={isSubmitting}
    >
      <Stack spacing={2}>
        <Controller
          name="contact"
          control={control}
          render={({ field }) => (
            <ContactAutocomplete
              value={field.value}
              onChange={field.onChange}
              label={t('schedules.modal.contact')}
              typeMoreText={t('schedules.modal.typeMore')}
              noOptionsText={t('schedules.modal.noContacts')}
              error={!!errors.contact}
              helperText={message(errors.contact?.message)}
              testId="schedule-contact"
            />
          )}
        />
        <TextField
          label={t('schedules.modal.body')}
          multiline
          minRows={4}
          fullWidth
          {...register('body')}
          error={!!errors.body}
          helperText={
            errors.body?.message === 'tooShort'
              ? t('schedules.modal.tooShort')
              : message(errors.body?.message)
          }
          slotProps={{ htmlInput: { 'data-testid': 'schedule-body' } }}
        />
        <TextField
          label={t('schedules.modal.sendAt')}
          type="datetime-local"
          fullWidth
          {...register('sendAt')}
          error={!!errors.sendAt}
          helperText={message(errors.sendAt?.message)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'schedule-send-at' } }}
        />
        <MediaAttachmentField
          label={t('schedules.modal.attach')}
          storedName={record?.mediaName}
          value={media}
          onChange={setMedia}
          accept="image/png,image/jpeg"
          accepts={(file) => /^image\/(png|jpeg)$/.test(file.type)}
          testId="schedule"
        />
      </Stack>
    </FormDialog>
  );
}
