import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { Box, Button, IconButton, Stack, TextField, Typography } from '@mui/material';
import { type Contact, ZContactBody } from '@zapdesk/shared';
import { useFieldArray } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiError } from '../../lib/api';
import { useFieldMessage } from '../common/field-message';
import { FormDialog } from '../common/form-dialog';
import { useRecordForm } from '../common/use-record-form';
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
  const editing = typeof contactId === 'number';
  const existing = useContactDetail(editing ? contactId : null);
  const save = useSaveContactForm();
  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useRecordForm<ContactFormValues, Contact>(ZContactBody, EMPTY, existing.data, toForm);
  const extra = useFieldArray({ control, name: 'extraInfo' });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync({ id: editing ? contactId : undefined, body: values });
      toast.success(t('contacts.toasts.saved'));
      onSaved?.(saved);
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'ERR_DUPLICATED_CONTACT') {
        setError('number', { message: 'duplicated' });
      } else if (error instanceof ApiError && error.code === 'ERR_VALIDATION' && error.body?.field) {
        setError(error.body.field as keyof ContactFormValues, { message: error.body.message });
      }
    }
  });

  const message = useFieldMessage({ extra: { duplicated: t('contacts.modal.duplicated') } });
  const loading = editing && existing.isPending;

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={editing ? t('contacts.modal.titleEdit') : t('contacts.modal.titleAdd')}
      titleId="contact-modal-title"
      maxWidth="sm"
      loading={loading}
      onSubmit={onSubmit}
      formTestId="contact-modal"
      editing={editing}
      submitTestId="contact-modal-save"
      pending={isSubmitting}
    >
      <Stack spacing={2}>
        <Typography variant="subtitle2">{t('contacts.modal.mainInfo')}</Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            label={t('contacts.modal.name')}
            fullWidth
            autoFocus
            {...register('name')}
            error={!!errors.name}
            helperText={message(errors.name?.message)}
          />
          <TextField
            label={t('contacts.modal.number')}
            fullWidth
            placeholder="5541998608485"
            {...register('number')}
            error={!!errors.number}
            helperText={message(errors.number?.message)}
          />
        </Stack>
        <TextField
          label={t('contacts.modal.email')}
          type="email"
          fullWidth
          {...register('email')}
          error={!!errors.email}
          helperText={message(errors.email?.message)}
        />
        <Typography variant="subtitle2">{t('contacts.modal.extraInfo')}</Typography>
        {extra.fields.map((field, index) => (
          <Stack key={field.id} direction="row" spacing={1} alignItems="flex-start">
            <TextField
              size="small"
              label={t('contacts.modal.extraName')}
              fullWidth
              {...register(`extraInfo.${index}.name`)}
              error={!!errors.extraInfo?.[index]?.name}
              helperText={message(errors.extraInfo?.[index]?.name?.message)}
            />
            <TextField
              size="small"
              label={t('contacts.modal.extraValue')}
              fullWidth
              {...register(`extraInfo.${index}.value`)}
              error={!!errors.extraInfo?.[index]?.value}
              helperText={message(errors.extraInfo?.[index]?.value?.message)}
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
    </FormDialog>
  );
}
