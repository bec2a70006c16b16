import { FormControlLabel, MenuItem, Stack, Switch, TextField } from '@mui/material';
import { ANNOUNCEMENT_MEDIA_MAX_BYTES, type Announcement, ZAnnouncementBody } from '@zapdesk/shared';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useFieldMessage } from '../common/field-message';
import { FormDialog } from '../common/form-dialog';
import {
  type MediaAttachment,
  MediaAttachmentField,
  NO_MEDIA_CHANGE,
} from '../common/media-attachment-field';
import { useRecordForm } from '../common/use-record-form';
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
  const {
    control,
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useRecordForm<AnnouncementFormValues>(
    ZAnnouncementBody,
    record
      ? { title: record.title, text: record.text, priority: record.priority, status: record.status }
      : { title: '', text: '', priority: 3, status: true },
  );
  const message = useFieldMessage();

  const onSubmit = handleSubmit(async (values) => {
    const saved = await save.mutateAsync({ id: record?.id, body: values, ...media }).catch(() => null);
    if (!saved) return;
    toast.success(t('announcements.toasts.saved'));
    onClose();
  });

  return (
    <FormDialog
      open
      onClose={onClose}
      title={record ? t('announcements.modal.titleEdit') : t('announcements.modal.titleAdd')}
      titleId="announcement-modal-title"
      maxWidth="sm"
      onSubmit={onSubmit}
      formTestId="announcement-modal"
      editing={!!record}
      submitTestId="announcement-save"
      pending={isSubmitting}
    >
      <Stack spacing={2}>
        <TextField
          label={t('announcements.modal.title')}
          autoFocus
          fullWidth
          {...register('title')}
          error={!!errors.title}
          helperText={message(errors.title?.message)}
          slotProps={{ htmlInput: { 'data-testid': 'announcement-title' } }}
        />
        <TextField
          label={t('announcements.modal.text')}
          multiline
          minRows={4}
          fullWidth
          {...register('text')}
          error={!!errors.text}
          helperText={message(errors.text?.message)}
          slotProps={{ htmlInput: { 'data-testid': 'announcement-text' } }}
        />
        <Controller
          control={control}
          name="priority"
          render={({ field }) => (
            <TextField
              select
              label={t('announcements.modal.priority')}
              value={field.value}
              onChange={(e) => field.onChange(Number(e.target.value))}
              slotProps={{
                select: { SelectDisplayProps: { 'data-testid': 'announcement-priority' } as object },
              }}
            >
              {[1, 2, 3].map((p) => (
                <MenuItem key={p} value={p}>
                  {t(`announcements.priority.${p}`)}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        <Controller
          control={control}
          name="status"
          render={({ field }) => (
            <FormControlLabel
              control={
                <Switch
                  checked={field.value}
                  onChange={(e) => field.onChange(e.target.checked)}
                  slotProps={{ input: { 'data-testid': 'announcement-status' } as object }}
                />
              }
              label={t('announcements.modal.active')}
            />
          )}
        />
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
    </FormDialog>
  );
}
