import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { Box, Button, IconButton, Stack, Typography } from '@mui/material';
import { type Contact, ZContactBody } from '@zapdesk/shared';
import { useFieldArray } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api';
import { FormTextField } from '../common/form-fields';
import { RecordFormDialog } from '../common/record-form-dialog';
import { useRecordEditor } from '../common/use-record-form';
import { useContactDetail, useSaveContactForm } from './use-contacts';

/** Values of the contact form (core section 5 "Contact modal"). */
export interface ContactFormValues {
  name: string;
  number: string;
  email: string;
  extraInfo: { name: string; value: string }[];
}

const EMPTY: ContactFormValues = { name: '', number: '', email: '', extraInfo: [] };

const toForm = (contact: Contact): ContactFormValues => ({
  name: contact.name,
  number: contact.number,
  email: contact.email,
  extraInfo: (contact.extraInfo ?? []).map((e) => ({ name: e.name, value: e.value })),
});

interface ContactModalProps {
  open: boolean;
  /** The contact to edit; absent to add one. */
  contactId?: number | null;
  onClose: () => void;
  onSaved?: (contact: Contact) => void;
}

/**
 * Add/edit contact dialog: name (2..50, required), number (8..50 digits), e-mail (valid or empty) and
 * extra info name/value rows, validated by the shared ZContactBody. A duplicated number shows
 * under the number field.
 */
export function ContactModal({ open, contactId, onClose, onSaved }: ContactModalProps) {
  const { t } = useTranslation();
  const save = useSaveContactForm();
  const { dialog, shell } = useRecordEditor<ContactFormValues, Contact, Contact>(
    contactId,
    useContactDetail,
    {
      schema: ZContactBody,
      defaults: EMPTY,
      toForm,
      save: (values) => save.mutateAsync({ id: contactId ?? undefined, body: values }),
      onError: (error, { setError }) => {
        if (error instanceof ApiError && error.code === 'ERR_DUPLICATED_CONTACT') {
          setError('number', { message: 'duplicated' });
        } else if (error instanceof ApiError && error.code === 'ERR_VALIDATION' && error.body?.field) {
          setError(error.body.field as keyof ContactFormValues, { message: error.body.message });
        }
      },
      saved: t('contacts.toasts.saved'),
      onSaved,
      onClose,
    },
  );
  const extra = useFieldArray({ control: dialog.form.control, name: 'extraInfo' });

  return (
    <RecordFormDialog
      {...shell}
      ids={{ title: 'contact-modal-title', form: 'contact-modal', submit: 'contact-modal-save' }}
      ns="contacts.modal"
      messages={{ extra: { duplicated: t('contacts.modal.duplicated') } }}
      open={open}
      onClose={onClose}
      maxWidth="sm"
    >
      <Stack spacing={2}>
        <Typography variant="subtitle2">{t('contacts.modal.mainInfo')}</Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <FormTextField name="name" autoFocus />
          <FormTextField name="number" placeholder="5541998608485" />
        </Stack>
        <FormTextField name="email" type="email" />
        <Typography variant="subtitle2">{t('contacts.modal.extraInfo')}</Typography>
        {extra.fields.map((field, index) => (
          <Stack key={field.id} direction="row" spacing={1} alignItems="flex-start">
            <FormTextField
              size="small"
              name={`extraInfo.${index}.name`}
              label={t('contacts.modal.extraName')}
            />
            <FormTextField
              size="small"
              name={`extraInfo.${index}.value`}
              label={t('contacts.modal.extraValue')}
            />
            <IconButton
              aria-label={t('contacts.modal.removeExtra')}
              onClick={() => extra.remove(index)}
              data-testid={`contact-extra-remove-${index}`}
            >
              <DeleteOutlineIcon />
            </IconButton>
          </Stack>
        ))}
        <Box>
          <Button
            startIcon={<AddIcon />}
            onClick={() => extra.append({ name: '', value: '' })}
            data-testid="contact-extra-add"
          >
            {t('contacts.modal.addExtra')}
          </Button>
        </Box>
      </Stack>
    </RecordFormDialog>
  );
}
