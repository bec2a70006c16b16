import { Stack } from '@mui/material';
import { ZContactListBody, ZContactListItemBody } from '@zapdesk/shared';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../common/form-fields';
import { RecordFormDialog } from '../common/record-form-dialog';
import { useRecordDialog } from '../common/use-record-form';
import {
  useContactList,
  useContactListItem,
  useSaveContactList,
  useSaveContactListItem,
} from './use-contact-lists';

interface ListFormValues {
  name: string;
}

const listToForm = (r: ListFormValues): ListFormValues => ({ name: r.name });

/** Add/edit contact list dialog: name 2 to 50 characters (document 2 section 5). */
export function ContactListModal({ listId, onClose }: { listId: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const editing = typeof listId === 'number';
  const existing = useContactList(editing ? listId : null);
  const save = useSaveContactList();
  const dialog = useRecordDialog<ListFormValues, ListFormValues>({
    schema: ZContactListBody,
    defaults: { name: '' },
    record: existing.data,
    toForm: listToForm,
    save: (values) => save.mutateAsync({ id: listId, body: values }),
    saved: t('contactListsPage.toasts.saved'),
    onClose,
  });
  return (
    <RecordFormDialog
      dialog={dialog}
      ids="contact-list"
      ns="contactListsPage.modal"
      onClose={onClose}
      maxWidth="xs"
      loading={editing && existing.isPending}
      editing={editing}
    >
      <FormTextField name="name" autoFocus />
    </RecordFormDialog>
  );
}

interface ItemFormValues {
  name: string;
  number: string;
  email: string;
}

const ZItemForm = ZContactListItemBody.omit({ contactListId: true });
const itemToForm = (r: ItemFormValues): ItemFormValues => ({
  name: r.name,
  number: r.number,
  email: r.email,
});

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
  const dialog = useRecordDialog<ItemFormValues, ItemFormValues>({
    schema: ZItemForm,
    defaults: { name: '', number: '', email: '' },
    record: existing.data,
    toForm: itemToForm,
    save: (values) => save.mutateAsync({ id: itemId, body: { ...values, contactListId: listId } }),
    saved: t('contactListsPage.toasts.itemSaved'),
    onClose,
  });
  return (
    <RecordFormDialog
      dialog={dialog}
      ids="contact-list-item"
      ns="contactListsPage.itemModal"
      onClose={onClose}
      maxWidth="xs"
      loading={editing && existing.isPending}
      editing={editing}
    >
      <Stack spacing={2}>
        {(['name', 'number', 'email'] as const).map((field, i) => (
          <FormTextField key={field} name={field} autoFocus={i === 0} />
        ))}
      </Stack>
    </RecordFormDialog>
  );
}
