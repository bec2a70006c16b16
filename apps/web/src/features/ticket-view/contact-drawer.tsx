/**
 * The contact drawer (core sections 2 and 5): name, number (tel: link), email (mailto: link), an edit
 * form (name 2..50 required, number 8..50, email valid; PUT /contacts/:id), the ticket notes and the
 * extra info list.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import CloseIcon from '@mui/icons-material/Close';
import EditIcon from '@mui/icons-material/Edit';
import EventAvailableIcon from '@mui/icons-material/EventAvailable';
import {
  Avatar,
  Box,
  Button,
  Divider,
  IconButton,
  Link,
  List,
  ListItem,
  ListItemText,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { Ticket } from '@zapdesk/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { validationText } from '../../lib/validation-text';
import { useCurrentUser } from '../auth/session-context';
import { TicketNotes } from './ticket-notes';
import { useContact, useSaveContact } from './use-ticket-view';

/** The drawer's contact form rules (core section 5). */
export const ZContactForm = z.object({
  name: z.string().trim().min(1, 'required').min(2, 'tooShort').max(50, 'tooLong'),
  number: z.string().trim().min(8, 'tooShort').max(50, 'tooLong'),
  email: z.union([z.literal(''), z.string().trim().email('invalidEmail')]),
});
type ContactForm = z.infer<typeof ZContactForm>;

function ContactEditForm({
  contactId,
  initial,
  onDone,
}: {
  contactId: number;
  initial: ContactForm;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveContact(contactId);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ContactForm>({ resolver: zodResolver(ZContactForm), defaultValues: initial });
  const message = (key?: string) => (key ? validationText(t, key) : undefined);

  return (
    <Stack
      component="form"
      spacing={1.5}
      noValidate
      data-testid="contact-form"
      onSubmit={handleSubmit((values) =>
        save.mutate(values, {
          onSuccess: () => {
            toast.success(t('ticketView.contactSaved'), { autoClose: 2000 });
            onDone();
          },
        }),
      )}
    >
      <TextField
        size="small"
        label={t('ticketView.contactName')}
        {...register('name')}
        error={!!errors.name}
        helperText={message(errors.name?.message)}
        slotProps={{ htmlInput: { 'data-testid': 'contact-form-name' } }}
      />
      <TextField
        size="small"
        label={t('ticketView.contactNumber')}
        {...register('number')}
        error={!!errors.number}
        helperText={message(errors.number?.message)}
        slotProps={{ htmlInput: { 'data-testid': 'contact-form-number' } }}
      />
      <TextField
        size="small"
        label={t('ticketView.contactEmail')}
        {...register('email')}
        error={!!errors.email}
        helperText={message(errors.email?.message)}
        slotProps={{ htmlInput: { 'data-testid': 'contact-form-email' } }}
      />
      <Stack direction="row" spacing={1} justifyContent="flex-end">
        <Button onClick={onDone}>{t('common.cancel')}</Button>
        <Button type="submit" variant="contained" disabled={save.isPending} data-testid="contact-form-save">
          {t('common.save')}
        </Button>
      </Stack>
    </Stack>
  );
}

export function ContactDrawer({ ticket, onClose }: { ticket: Ticket; onClose: () => void }) {
  const { t } = useTranslation();
  const query = useContact(ticket.contact.id);
  const [editing, setEditing] = useState(false);
  const schedules = useCurrentUser().company.plan?.useSchedules === true;
  const contact = { ...ticket.contact, ...query.data };
  const extraInfo = query.data?.extraInfo ?? [];

  return (
    <Box
      data-testid="contact-drawer"
      sx={{
        width: { xs: '100%', sm: 320 },
        flexShrink: 0,
        borderLeft: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
        overflowY: 'auto',
        height: '100%',
      }}
    >
      <Stack
        direction="row"
        alignItems="center"
        sx={{ px: 1.5, py: 1, borderBottom: 1, borderColor: 'divider' }}
      >
        <Typography fontWeight={600} sx={{ flex: 1 }}>
          {t('ticketView.contactData')}
        </Typography>
        <IconButton aria-label={t('common.close')} onClick={onClose} data-testid="contact-drawer-close">
          <CloseIcon />
        </IconButton>
      </Stack>
      <Stack spacing={1.5} sx={{ p: 2 }}>
        <Stack alignItems="center" spacing={0.5}>
          <Avatar
            src={contact.profilePicUrl ?? undefined}
            alt={contact.name}
            sx={{ width: 96, height: 96 }}
          />
          <Typography fontWeight={600} data-testid="contact-drawer-name">
            {contact.name}
          </Typography>
          <Link href={`tel:${contact.number}`} data-testid="contact-drawer-number">
            {contact.number}
          </Link>
          {contact.email && (
            <Link href={`mailto:${contact.email}`} data-testid="contact-drawer-email">
              {contact.email}
            </Link>
          )}
        </Stack>
        {editing ? (
          <ContactEditForm
            contactId={ticket.contact.id}
            initial={{ name: contact.name, number: contact.number, email: contact.email ?? '' }}
            onDone={() => setEditing(false)}
          />
        ) : (
          <Button
            variant="outlined"
            size="small"
            startIcon={<EditIcon />}
            data-testid="contact-edit"
            onClick={() => setEditing(true)}
          >
            {t('ticketView.editContact')}
          </Button>
        )}
        {schedules && (
          <Button
            variant="outlined"
            size="small"
            startIcon={<EventAvailableIcon />}
            component={RouterLink}
            to={`/schedules?contactId=${ticket.contact.id}`}
            data-testid="contact-schedule"
          >
            {t('schedules.drawerAction')}
          </Button>
        )}
        <Divider />
        <TicketNotes ticketId={ticket.id} contactId={ticket.contact.id} />
        {extraInfo.length > 0 && (
          <>
            <Divider />
            <Typography variant="subtitle2">{t('ticketView.extraInfo')}</Typography>
            <List dense disablePadding data-testid="contact-extra-info">
              {extraInfo.map((info, index) => (
                <ListItem key={info.id ?? `${info.name}-${index}`} disableGutters>
                  <ListItemText primary={info.name} secondary={info.value} />
                </ListItem>
              ))}
            </List>
          </>
        )}
      </Stack>
    </Box>
  );
}
