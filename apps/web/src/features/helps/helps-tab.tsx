import { Button, List, ListItem, ListItemText, Stack, TextField, Typography } from '@mui/material';
import { type Help, ZHelpBody } from '@zapdesk/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ConfirmDeleteDialog } from '../common/confirmation-dialog';
import { useFieldMessage } from '../common/field-message';
import { FormDialog } from '../common/form-dialog';
import { RowActions } from '../common/row-actions';
import { useRecordForm } from '../common/use-record-form';
import { useDeleteHelp, useHelpsList, useSaveHelp } from './use-helps';

interface HelpFormValues {
  title: string;
  description: string;
  video: string;
}

/** Add/edit help dialog: title and YouTube video id required, description optional. */
function HelpModal({ record, onClose }: { record: Help | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveHelp();
  const message = useFieldMessage();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useRecordForm<HelpFormValues>(
    ZHelpBody,
    record
      ? { title: record.title, description: record.description, video: record.video }
      : { title: '', description: '', video: '' },
  );
  const onSubmit = handleSubmit(async (values) => {
    const saved = await save.mutateAsync({ id: record?.id, body: values }).catch(() => null);
    if (!saved) {
      toast.error(t('helps.toasts.saveError'));
      return;
    }
    toast.success(t('helps.toasts.saved'));
    onClose();
  });
  return (
    <FormDialog
      open
      onClose={onClose}
      title={record ? t('helps.modal.titleEdit') : t('helps.modal.titleAdd')}
      titleId="help-modal-title"
      maxWidth="sm"
      onSubmit={onSubmit}
      formTestId="help-modal"
      editing={!!record}
      submitTestId="help-save"
      pending={isSubmitting}
    >
      <Stack spacing={2}>
        <TextField
          label={t('helps.modal.title')}
          autoFocus
          fullWidth
          {...register('title')}
          error={!!errors.title}
          helperText={message(errors.title?.message)}
          slotProps={{ htmlInput: { 'data-testid': 'help-title' } }}
        />
        <TextField
          label={t('helps.modal.description')}
          multiline
          minRows={2}
          fullWidth
          {...register('description')}
          error={!!errors.description}
          helperText={message(errors.description?.message)}
          slotProps={{ htmlInput: { 'data-testid': 'help-description' } }}
        />
        <TextField
          label={t('helps.modal.video')}
          fullWidth
          {...register('video')}
          error={!!errors.video}
          helperText={message(errors.video?.message) || t('helps.modal.videoHint')}
          slotProps={{ htmlInput: { 'data-testid': 'help-video' } }}
        />
      </Stack>
    </FormDialog>
  );
}

/** The super user's 'helps' tab of /settings (document 3 section 2): list with add, edit and delete. */
export function HelpsTab() {
  const { t } = useTranslation();
  const list = useHelpsList();
  const remove = useDeleteHelp();
  const [modal, setModal] = useState<{ record: Help | null } | null>(null);
  const [toDelete, setToDelete] = useState<Help | null>(null);
  const helps = list.data ?? [];
  return (
    <Stack spacing={2} data-testid="helps-tab">
      <Stack direction="row" justifyContent="flex-end">
        <Button variant="contained" onClick={() => setModal({ record: null })} data-testid="add-help-button">
          {t('helps.add')}
        </Button>
      </Stack>
      <List>
        {helps.map((help) => (
          <ListItem
            key={help.id}
            divider
            data-testid={`help-${help.id}`}
            secondaryAction={
              <RowActions
                testIdPrefix="help"
                id={help.id}
                editLabel={t('helps.edit', { title: help.title })}
                onEdit={() => setModal({ record: help })}
                deleteLabel={t('helps.delete', { title: help.title })}
                onDelete={() => setToDelete(help)}
              />
            }
          >
            <ListItemText
              primary={help.title}
              secondary={`${help.video} · ${help.description}`}
              sx={{ pr: 10 }}
            />
          </ListItem>
        ))}
      </List>
      {list.isSuccess && helps.length === 0 && (
        <Typography color="text.secondary">{t('helps.empty')}</Typography>
      )}
      {modal && <HelpModal record={modal.record} onClose={() => setModal(null)} />}
      <ConfirmDeleteDialog
        target={toDelete}
        title={t('helps.confirmDelete.title', { title: toDelete?.title ?? '' })}
        message={t('helps.confirmDelete.message')}
        deletedMessage={t('helps.toasts.deleted')}
        remove={remove}
        onClose={() => setToDelete(null)}
      />
    </Stack>
  );
}
