import { Stack } from '@mui/material';
import { type Schedule, ZScheduleBody } from '@zapdesk/shared';
import { addHours } from 'date-fns';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { MESSAGE_WORDING } from '../../lib/validation-text';
import { type ContactRef, FormContactField } from '../common/contact-autocomplete';
import { DateTimeInput } from '../common/date-time-input';
import { useFieldMessage } from '../common/field-message';
import { FormTextField } from '../common/form-fields';
import {
  type MediaAttachment,
  MediaAttachmentField,
  NO_MEDIA_CHANGE,
} from '../common/media-attachment-field';
import { RecordFormDialog } from '../common/record-form-dialog';
import { useRecordDialog } from '../common/use-record-form';
import { useSaveSchedule } from './use-schedules';

/** Values of the schedule form: sendAt as a Date (null while empty or incomplete). */
export interface ScheduleFormValues {
  body: string;
  contact: ContactRef | null;
  sendAt: Date | null;
}

/** The form's rules (document 2 section 9): body ≥ 5 ('Mensagem muito curta'), contact and sendAt required. */
const ZScheduleForm = z.object({
  body: ZScheduleBody.shape.body,
  contact: z
    .object({ id: z.number(), name: z.string(), number: z.string() })
    .nullable()
    .refine((c) => c !== null, 'required'),
  sendAt: z
    .date()
    .nullable()
    .refine((d) => d !== null, 'required'),
});

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
  const message = useFieldMessage({ wording: MESSAGE_WORDING });
  const [media, setMedia] = useState<MediaAttachment>(NO_MEDIA_CHANGE);
  const dialog = useRecordDialog<ScheduleFormValues>({
    schema: ZScheduleForm,
    defaults: {
      body: record?.body ?? '',
      contact: record?.contact ?? contact ?? null,
      sendAt: record ? new Date(record.sendAt) : (start ?? addHours(new Date(), 1)),
    },
    save: (values) => {
      const body = {
        body: values.body,
        contactId: values.contact!.id,
        sendAt: values.sendAt!.toISOString(),
      };
      return save.mutateAsync({ id: record?.id, body, ...media });
    },
    saved: t('schedules.toasts.saved'),
    failed: t('schedules.toasts.error'),
    onClose,
  });
  const {
    control,
    formState: { errors },
  } = dialog.form;

  return (
    <RecordFormDialog
      dialog={dialog}
      ids={{ title: 'schedule-modal-title', form: 'schedule-modal', submit: 'schedule-save' }}
      messages={{ wording: MESSAGE_WORDING }}
      onClose={onClose}
      title={record ? t('schedules.modal.titleEdit') : t('schedules.modal.titleAdd')}
      maxWidth="sm"
      editing={!!record}
    >
      <Stack spacing={2}>
        <FormContactField
          name="contact"
          control={control}
          texts="schedules.modal"
          message={message}
          testId="schedule-contact"
        />
        <FormTextField
          name="body"
          label={t('schedules.modal.body')}
          multiline
          minRows={4}
          testId="schedule-body"
        />
        <Controller
          name="sendAt"
          control={control}
          render={({ field }) => (
            <DateTimeInput
              label={t('schedules.modal.sendAt')}
              value={field.value}
              onChange={field.onChange}
              error={message(errors.sendAt?.message)}
              testId="schedule-send-at"
            />
          )}
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
    </RecordFormDialog>
  );
}
