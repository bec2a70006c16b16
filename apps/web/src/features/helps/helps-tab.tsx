import { List, ListItem, ListItemText, Stack } from '@mui/material';
import { type Help, ZHelpBody } from '@zapdesk/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../common/form-fields';
import { useConfirmDelete } from '../common/list-page';
import { RecordFormDialog } from '../common/record-form-dialog';
import { RecordsTab } from '../common/records-tab';
import { RowActions } from '../common/row-actions';
import { useRecordDialog } from '../common/use-record-form';
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
  const dialog = useRecordDialog<HelpFormValues>({
    schema: ZHelpBody,
    defaults: record
      ? { title: record.title, description: record.description, video: record.video }
      : { title: '', description: '', video: '' },
    save: (values) => save.mutateAsync({ id: record?.id, body: values }),
    saved: t('helps.toasts.saved'),
    failed: t('helps.toasts.saveError'),
    onClose,
  });
  return (
    <RecordFormDialog
      dialog={dialog}
      ids="help"
      ns="helps.modal"
      onClose={onClose}
      maxWidth="sm"
      editing={!!record}
    >
      <Stack spacing={2}>
        <FormTextField name="title" autoFocus />
        <FormTextField name="description" multiline minRows={2} />
        <FormTextField name="video" hint={t('helps.modal.videoHint')} />
      </Stack>
    </RecordFormDialog>
  );
}

/** The super user's 'helps' tab of /settings (document 3 section 2): list with add, edit and delete. */
export function HelpsTab() {
  const { t } = useTranslation();
  const list = useHelpsList();
  const [modal, setModal] = useState<{ record: Help | null } | null>(null);
  const confirmDelete = useConfirmDelete<Help>(useDeleteHelp(), {
    title: (record) => t('helps.confirmDelete.title', { title: record?.title ?? '' }),
    message: t('helps.confirmDelete.message'),
    deletedMessage: t('helps.toasts.deleted'),
  });
  const helps = list.data ?? [];
  return (
    <RecordsTab
      testId="helps-tab"
      add={{ label: t('helps.add'), testId: 'add-help-button', onClick: () => setModal({ record: null }) }}
      empty={list.isSuccess && helps.length === 0}
      emptyText={t('helps.empty')}
      modal={modal && <HelpModal record={modal.record} onClose={() => setModal(null)} />}
      deleteDialog={confirmDelete.dialog}
    >
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
                onDelete={() => confirmDelete.ask(help)}
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
    </RecordsTab>
  );
}
