import { Stack, TextField } from '@mui/material';
import { ZContactListBody, ZContactListItemBody } from '@zapdesk/shared';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useFieldMessage } from '../common/field-message';
import { FormDialog } from '../common/form-dialog';
import { useRecordForm } from '../common/use-record-form';
import {
  useContactList,
  useContactListItem,
  useSaveContactList,
  useSaveContactListItem,
} from './use-contact-lists';

interface ListFormValues {
  name: string;
}

/** Add/edit contact list dialog: name 2 to 50 characters (document 2 section 5). */
export function ContactListModal({ listId, onClose }: { listId: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const editing = typeof listId === 'number';
  const existing = useContactList(editing ? listId : null);
  const save = useSaveContactList();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useRecordForm<ListFormValues, ListFormValues>(ZContactListBody, { name: '' }, existing.data, (r) => ({
    name: r.name,
  }));
  const message = useFieldMessage();
  const onSubmit = handleSubmit(async (values) => {
    const saved = await save.mutateAsync({ id: listId, body: values }).catch(() => null);
    if (!saved) return;
    toast.success(t('contactListsPage.toasts.saved'));
    onClose();
  });
  return (
    <FormDialog
      open
      onClose={onClose}
      title={editing ? t('contactListsPage.modal.titleEdit') : t('contactListsPage.modal.titleAdd')}
      titleId="contact-list-modal-title"
      maxWidth="xs"
      loading={editing && existing.isPending}
      onSubmit={onSubmit}
      formTestId="contact-list-modal"
      editing={editing}
      submitTestId="contact-list-save"
      pending={isSubmitting}
    >
      <TextField
        label={t('contactListsPage.modal.name')}
        autoFocus
        fullWidth
        {...register('name')}
        error={!!errors.name}
        helperText={message(errors.name?.message)}
        slotProps={{ htmlInput: { 'data-testid': 'contact-list-name' } }}
      />
    </FormDialog>
  );
}

interface ItemFormValues {
  name: string;
  number: string;
  email: string;
}

const ZItemForm = ZContactListItemBody.omit({ contactListId: true });

/** Add/edit contact list item dialog: name 2–50, number 8–50, valid email (document 2 section 5). */
export function ContactListItemModal({
  listId,
  itemId,
  onClose,
}: {
  listId: number;
  itemId: number | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const editing = typeof itemId === 'number';
  const existing = useContactListItem(editing ? itemId : null);
  const save = useSaveContactListItem(listId);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useRecordForm<ItemFormValues, ItemFormValues>(
    ZItemForm,
    { name: '', number: '', email: '' },
    existing.data,
    (r) => ({ name: r.name, number: r.number, email: r.email }),
  );
  const message = useFieldMessage();
  const onSubmit = handleSubmit(async (values) => {
    const saved = await save
      .mutateAsync({ id: itemId, body: { ...values, contactListId: listId } })
      .catch(() => null);
    if (!saved) return;
    toast.success(t('contactListsPage.toasts.itemSaved'));
    onClose();
  });
  return (
    <FormDialog
      open
      onClose={onClose}
      title={editing ? t('contactListsPage.itemModal.titleEdit') : t('contactListsPage.itemModal.titleAdd')}
      titleId="contact-list-item-modal-title"
      maxWidth="xs"
      loading={editing && existing.isPending}
      onSubmit={onSubmit}
      formTestId="contact-list-item-modal"
      editing={editing}
      submitTestId="contact-list-item-save"
      pending={isSubmitting}
    >
      <Stack spacing={2}>
        {(['name', 'number', 'email'] as const).map((field, i) => (
          <TextField
            key={field}
            label={t(`contactListsPage.itemModal.${field}`)}
            autoFocus={i === 0}
            fullWidth
            {...register(field)}
            error={!!errors[field]}
            helperText={message(errors[field]?.message)}
            slotProps={{ htmlInput: { 'data-testid': `contact-list-item-${field}` } }}
          />
        ))}
      </Stack>
    </FormDialog>
  );
}
