import { Stack } from '@mui/material';
import { ANNOUNCEMENT_MEDIA_MAX_BYTES, type Announcement, ZAnnouncementBody } from '@zapdesk/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { FormSelect, FormSwitch, FormTextField } from '../common/form-fields';
import {
  type MediaAttachment,
  MediaAttachmentField,
  NO_MEDIA_CHANGE,
} from '../common/media-attachment-field';
import { RecordFormDialog } from '../common/record-form-dialog';
import { useRecordDialog } from '../common/use-record-form';
import { useSaveAnnouncement } from './use-announcements';

/** Values of the announcement form (document 2 sections 3 and 5). */
export interface AnnouncementFormValues {
  title: string;
  text: string;
  priority: number;
  status: boolean;
}

/** Image types the announcement accepts (document 2 section 5). */
export const ANNOUNCEMENT_IMAGE_ACCEPT = '.png,.jpg,.jpeg,image/png,image/jpeg';

/** True when `file` is a png or jpeg within the size limit (the server checks again by content). */
export function isAcceptedAnnouncementImage(file: File): boolean {
  return /\.(png|jpe?g)$/i.test(file.name) && file.size <= ANNOUNCEMENT_MEDIA_MAX_BYTES;
}

/**
 * Add/edit announcement dialog for the super user: title and text (required), priority (1 high,
 * 2 medium, 3 low; 3 by default), active switch and an optional png/jpg/jpeg image.
 */
export function AnnouncementModal({ record, onClose }: { record: Announcement | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveAnnouncement();
  const [media, setMedia] = useState<MediaAttachment>(NO_MEDIA_CHANGE);
  const dialog = useRecordDialog<AnnouncementFormValues>({
    schema: ZAnnouncementBody,
    defaults: record
      ? { title: record.title, text: record.text, priority: record.priority, status: record.status }
      : { title: '', text: '', priority: 3, status: true },
    save: (values) => save.mutateAsync({ id: record?.id, body: values, ...media }),
    saved: t('announcements.toasts.saved'),
    onClose,
  });

  return (
    <RecordFormDialog
      dialog={dialog}
      ids="announcement"
      ns="announcements.modal"
      onClose={onClose}
      maxWidth="sm"
      editing={!!record}
    >
      <Stack spacing={2}>
        <FormTextField name="title" autoFocus />
        <FormTextField name="text" multiline minRows={4} />
        <FormSelect
          name="priority"
          numeric
          fullWidth={false}
          options={[1, 2, 3].map((p) => ({ value: p, label: t(`announcements.priority.${p}`) }))}
        />
        <FormSwitch name="status" label={t('announcements.modal.active')} />
        <MediaAttachmentField
          label={t('announcements.modal.attach')}
          storedName={record?.mediaName}
          value={media}
          onChange={setMedia}
          accept={ANNOUNCEMENT_IMAGE_ACCEPT}
          accepts={(chosen) => {
            if (isAcceptedAnnouncementImage(chosen)) return true;
            toast.error(t('announcements.toasts.invalidImage'));
            return false;
          }}
          testId="announcement"
        />
      </Stack>
    </RecordFormDialog>
  );
}
