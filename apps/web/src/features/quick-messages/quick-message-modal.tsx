import { FormControlLabel, Stack, Switch, TextField } from '@mui/material';
import { type QuickMessage, ZQuickMessageBody } from '@zapdesk/shared';
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
import { useSaveQuickMessage } from './use-quick-messages';

/** Values of the quick message form (document 2 sections 3 and 5). */
export interface QuickMessageFormValues {
  shortcode: string;
  message: string;
  geral: boolean;
}

interface QuickMessageModalProps {
  open: boolean;
  /** The quick message to edit; absent to add one. */
  record?: QuickMessage | null;
  onClose: () => void;
}

/**
 * Add/edit quick message dialog: shortcode (required), message, company-wide switch and an optional
 * media file uploaded after the save (document 2 sections 2 and 7).
 */
export function QuickMessageModal({ open, record, onClose }: QuickMessageModalProps) {
  const { t } = useTranslation();
  const save = useSaveQuickMessage();
  const [media, setMedia] = useState<MediaAttachment>(NO_MEDIA_CHANGE);
  const {
    control,
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useRecordForm<QuickMessageFormValues>(
    ZQuickMessageBody,
    record
      ? { shortcode: record.shortcode, message: record.message, geral: record.geral }
      : { shortcode: '', message: '', geral: false },
  );

  const onSubmit = handleSubmit(async (values) => {
    const saved = await save.mutateAsync({ id: record?.id, body: values, ...media }).catch(() => null);
    if (!saved) return;
    toast.success(t('quickMessages.toasts.saved'));
    onClose();
  });

  const message = useFieldMessage();

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={record ? t('quickMessages.modal.titleEdit') : t('quickMessages.modal.titleAdd')}
      titleId="quick-message-modal-title"
      maxWidth="sm"
      onSubmit={onSubmit}
      formTestId="quick-message-modal"
      editing={!!record}
      submitTestId="quick-message-save"
      pending={isSubmitting}
    >
      <Stack spacing={2}>
        <TextField
          label={t('quickMessages.modal.shortcode')}
          autoFocus
          fullWidth
          {...register('shortcode')}
          error={!!errors.shortcode}
          helperText={message(errors.shortcode?.message)}
          slotProps={{ htmlInput: { 'data-testid': 'quick-message-shortcode' } }}
        />
        <TextField
          label={t('quickMessages.modal.message')}
          multiline
          minRows={4}
          fullWidth
          {...register('message')}
          error={!!errors.message}
          helperText={message(errors.message?.message)}
          slotProps={{ htmlInput: { 'data-testid': 'quick-message-message' } }}
        />
        <Controller
          control={control}
          name="geral"
          render={({ field }) => (
            <FormControlLabel
              control={
                <Switch
                  checked={field.value}
                  onChange={(e) => field.onChange(e.target.checked)}
                  slotProps={{ input: { 'data-testid': 'quick-message-geral' } as object }}
                />
              }
              label={t('quickMessages.modal.geral')}
            />
          )}
        />
        <MediaAttachmentField
          label={t('quickMessages.modal.attach')}
          storedName={record?.mediaName}
          value={media}
          onChange={setMedia}
          testId="quick-message"
        />
      </Stack>
    </FormDialog>
  );
}
