import { Button, IconButton, Stack, TextField, Typography } from '@mui/material';
import { FILE_LIST_MAX_OPTIONS, type FileListRecord, ZFileListBody } from '@zapdesk/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../common/form-fields';
import { RecordFormDialog } from '../common/record-form-dialog';
import { useRecordEditor } from '../common/use-record-form';
import { type FileOptionDraft, useFileList, useSaveFileList } from './use-file-lists';

/** Values of the file list form (document 2 section 5: name required, min 3; message required). */
interface FileListFormValues {
  name: string;
  message: string;
}

const EMPTY: FileListFormValues = { name: '', message: '' };
const toForm = ({ name, message }: FileListFormValues): FileListFormValues => ({ name, message });
let nextUid = 1;
const FORM_SCHEMA = ZFileListBody.pick({ name: true, message: true });

interface FileListModalProps {
  open: boolean;
  fileListId?: number | null;
  onClose: () => void;
}

/**
 * Add/edit file list dialog (document 2 sections 4 to 6): name, message and the file options (a
 * name and a file each, at most 20), added and removed in the dialog; files are uploaded after the
 * save, with an uploading state. Toasts fileLists.toasts.saved.
 */
export function FileListModal({ open, fileListId, onClose }: FileListModalProps) {
  const { t } = useTranslation();
  const save = useSaveFileList();
  const [options, setOptions] = useState<FileOptionDraft[]>([]);
  const { existing, dialog, shell } = useRecordEditor<FileListFormValues, FileListRecord>(
    fileListId,
    useFileList,
    {
      schema: FORM_SCHEMA,
      defaults: EMPTY,
      toForm,
      save: (values) => save.mutateAsync({ id: fileListId ?? undefined, ...values, options }),
      saved: t('fileLists.toasts.saved'),
      onClose,
    },
  );

  useEffect(() => {
    if (existing.data)
      setOptions(existing.data.options.map((o) => ({ uid: nextUid++, id: o.id, name: o.name })));
  }, [existing.data]);

  const stored = new Map(existing.data?.options.map((o) => [o.id, o]) ?? []);
  const setOption = (index: number, change: Partial<FileOptionDraft>) =>
    setOptions((all) => all.map((o, i) => (i === index ? { ...o, ...change } : o)));

  return (
    <RecordFormDialog
      {...shell}
      ids="file-list"
      ns="fileLists"
      messages={{ wording: { tooShort: 'nameTooShort' } }}
      open={open}
      onClose={onClose}
      maxWidth="sm"
      submitLabel={dialog.pending ? t('fileLists.uploading') : undefined}
    >
      <Stack spacing={2}>
        <FormTextField name="name" autoFocus />
        <FormTextField name="message" multiline minRows={3} />
        <Typography variant="subtitle2">{t('fileLists.options')}</Typography>
        {options.map((option, index) => {
          const current = option.id === undefined ? undefined : stored.get(option.id);
          return (
            <Stack
              key={option.uid}
              direction="row"
              spacing={1}
              alignItems="center"
              data-testid={`file-option-${index}`}
            >
              <TextField
                size="small"
                label={t('fileLists.optionName')}
                value={option.name}
                onChange={(e) => setOption(index, { name: e.target.value })}
                slotProps={{ htmlInput: { maxLength: 255, 'data-testid': `file-option-name-${index}` } }}
              />
              <Button component="label" variant="outlined" size="small">
                {option.file?.name ??
                  (current?.path ? t('fileLists.replaceFile') : t('fileLists.chooseFile'))}
                <input
                  hidden
                  type="file"
                  data-testid={`file-option-file-${index}`}
                  onChange={(e) => {
                    const file = e.target.files?.[0] ?? null;
                    setOption(index, { file, name: option.name || (file?.name ?? '') });
                  }}
                />
              </Button>
              {current?.path && !option.file && (
                <Typography variant="caption" color="text.secondary">
                  {current.mediaType}
                </Typography>
              )}
              <IconButton
                aria-label={t('fileLists.removeOption')}
                data-testid={`file-option-remove-${index}`}
                onClick={() => setOptions((all) => all.filter((_, i) => i !== index))}
              >
                ×
              </IconButton>
            </Stack>
          );
        })}
        <Button
          variant="text"
          disabled={options.length >= FILE_LIST_MAX_OPTIONS}
          onClick={() => setOptions((all) => [...all, { uid: nextUid++, name: '' }])}
          data-testid="file-option-add"
        >
          {t('fileLists.addOption')}
        </Button>
      </Stack>
    </RecordFormDialog>
  );
}
