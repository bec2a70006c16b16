import { Stack } from '@mui/material';
import { type QuickMessage, ZQuickMessageBody } from '@zapdesk/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormSwitch, FormTextField } from '../common/form-fields';
import {
  type MediaAttachment,
  MediaAttachmentField,
  NO_MEDIA_CHANGE,
} from '../common/media-attachment-field';
import { RecordFormDialog } from '../common/record-form-dialog';
import { useRecordDialog } from '../common/use-record-form';
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
  const dialog = useRecordDialog<QuickMessageFormValues>({
    schema: ZQuickMessageBody,
    defaults: record
      ? { shortcode: record.shortcode, message: record.message, geral: record.geral }
      : { shortcode: '', message: '', geral: false },
    save: (values) => save.mutateAsync({ id: record?.id, body: values, ...media }),
    saved: t('quickMessages.toasts.saved'),
    onClose,
  });

  return (
    <RecordFormDialog
      dialog={dialog}
      ids="quick-message"
      ns="quickMessages.modal"
      open={open}
      onClose={onClose}
      maxWidth="sm"
      editing={!!record}
    >
      <Stack spacing={2}>
        <FormTextField name="shortcode" autoFocus />
        <FormTextField name="message" multiline minRows={4} />
        <FormSwitch name="geral" />
        <MediaAttachmentField
          label={t('quickMessages.modal.attach')}
          storedName={record?.mediaName}
          value={media}
          onChange={setMedia}
          testId="quick-message"
        />
      </Stack>
    </RecordFormDialog>
  );
}
