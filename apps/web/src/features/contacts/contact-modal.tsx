import { zodResolver } from '@hookform/resolvers/zod';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import {
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { type Contact, ZContactBody } from '@zapdesk/shared';
import { useEffect } from 'react';
import { type Resolver, useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiError } from '../../lib/api';
import { useContactDetail, useSaveContactForm } from './use-contacts';

/** Values of the contact form (core section 5 "Contact modal"). */
export interface ContactFormValues {
  name: string;
  number: string;
  email: string;
  extraInfo: { name: string; value: string }[];
}

const EMPTY: ContactFormValues = { name: '', number: '', email: '', extraInfo: [] };

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
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ContactFormValues>({
    resolver: zodResolver(ZContactBody) as unknown as Resolver<ContactFormValues>,
    defaultValues: EMPTY,
  });
  const extra = useFieldArray({ control, name: 'extraInfo' });

  useEffect(() => {
    if (existing.data) {
      reset({
        name: existing.data.name,
        number: existing.data.number,
        email: existing.data.email,
        extraInfo: (existing.data.extraInfo ?? []).map((e) => ({ name: e.name, value: e.value })),
      });
    }
  }, [existing.data, reset]);

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

  const message = (key?: string) =>
    key === 'duplicated'
      ? t('contacts.modal.duplicated')
      : key
        ? t(`validation.${key}`, { defaultValue: key })
        : undefined;
  const loading = editing && existing.isPending;

  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="contact-modal-title">
      <DialogTitle id="contact-modal-title">
        {editing ? t('contacts.modal.titleEdit') : t('contacts.modal.titleAdd')}
      </DialogTitle>
      {loading ? (
        <Box sx={{ display: 'grid', placeItems: 'center', p: 4 }}>
          <CircularProgress />
        </Box>
      ) : (
        <Box component="form" noValidate onSubmit={onSubmit} data-testid="contact-modal">
          <DialogContent dividers>
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
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button
              type="submit"
              variant="contained"
              disabled={isSubmitting}
              data-testid="contact-modal-save"
            >
              {editing ? t('common.save') : t('common.add')}
            </Button>
          </DialogActions>
        </Box>
      )}
    </Dialog>
  );
}
