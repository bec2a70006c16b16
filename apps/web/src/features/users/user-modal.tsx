import { zodResolver } from '@hookform/resolvers/zod';
import {
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  MenuItem,
  Stack,
  Switch,
  TextField,
} from '@mui/material';
import { can, type PublicUser, type UpdateUserBody, ZCreateUserBody, ZUpdateUserBody } from '@zapdesk/shared';
import { useEffect } from 'react';
import { Controller, type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useCurrentUser } from '../auth/session-context';
import { useConnectionOptions, useQueues, useSaveUser, useUser } from './use-users';

/** Values of the user form (core section 2 "User modal"). */
export interface UserFormValues {
  name: string;
  email: string;
  password: string;
  profile: 'admin' | 'user';
  allTicket: 'enabled' | 'desabled';
  whatsappId: number | null;
  queueIds: number[];
}

const EMPTY: UserFormValues = {
  name: '',
  email: '',
  password: '',
  profile: 'user',
  allTicket: 'desabled',
  whatsappId: null,
  queueIds: [],
};

const toForm = (user: PublicUser): UserFormValues => ({
  name: user.name,
  email: user.email,
  password: '',
  profile: user.profile,
  allTicket: user.allTicket,
  whatsappId: user.whatsappId,
  queueIds: user.queues.map((q) => q.id),
});

interface UserModalProps {
  open: boolean;
  /** The user to edit; absent to add one. */
  userId?: number | null;
  onClose: () => void;
  onSaved?: (user: PublicUser) => void;
}

/**
 * Add/edit user dialog. Validation comes from the shared ZCreateUserBody / ZUpdateUserBody; profile,
 * allTicket and default connection need user-modal:editProfile, queues user-modal:editQueues. The
 * name is read-only when editing oneself.
 */
export function UserModal({ open, userId, onClose, onSaved }: UserModalProps) {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const editing = typeof userId === 'number';
  const self = editing && userId === me.id;
  const canEditProfile = can(me.profile, 'user-modal:editProfile');
  const canEditQueues = can(me.profile, 'user-modal:editQueues');

  const existing = useUser(editing ? userId : null);
  const queues = useQueues(open && canEditQueues);
  const connections = useConnectionOptions(open && canEditProfile);
  const save = useSaveUser();

  const schema = editing ? ZUpdateUserBody : ZCreateUserBody;
  const {
    control,
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<UserFormValues>({
    resolver: zodResolver(schema) as unknown as Resolver<UserFormValues>,
    defaultValues: EMPTY,
  });

  useEffect(() => {
    if (existing.data) reset(toForm(existing.data));
  }, [existing.data, reset]);

  const onSubmit = handleSubmit(async (values) => {
    const body: UpdateUserBody = { email: values.email };
    if (!self) body.name = values.name;
    if (values.password) body.password = values.password;
    if (canEditProfile) {
      body.profile = values.profile;
      body.allTicket = values.allTicket;
      body.whatsappId = values.whatsappId;
    }
    if (canEditQueues) body.queueIds = values.queueIds;
    const saved = await save.mutateAsync({ id: editing ? userId : undefined, body }).catch(() => null);
    if (!saved) return;
    toast.success(t('users.toasts.saved'));
    onSaved?.(saved);
    onClose();
  });

  const message = (key?: string) => (key ? t(`validation.${key}`, { defaultValue: key }) : undefined);
  const loading = editing && existing.isPending;

  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="user-modal-title">
      <DialogTitle id="user-modal-title">
        {editing ? t('userModal.titleEdit') : t('userModal.titleAdd')}
      </DialogTitle>
      {loading ? (
        <Box sx={{ display: 'grid', placeItems: 'center', p: 4 }}>
          <CircularProgress />
        </Box>
      ) : (
        <Box component="form" noValidate onSubmit={onSubmit} data-testid="user-form">
          <DialogContent dividers>
            <Stack spacing={2}>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <TextField
                  label={t('userModal.name')}
                  fullWidth
                  autoFocus={!self}
                  {...register('name')}
                  slotProps={{ htmlInput: { readOnly: self } }}
                  error={!!errors.name}
                  helperText={message(errors.name?.message)}
                />
                <TextField
                  label={t('userModal.password')}
                  type="password"
                  autoComplete="new-password"
                  fullWidth
                  {...register('password')}
                  error={!!errors.password}
                  helperText={message(errors.password?.message)}
                />
              </Stack>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <TextField
                  label={t('userModal.email')}
                  type="email"
                  autoComplete="off"
                  fullWidth
                  {...register('email')}
                  error={!!errors.email}
                  helperText={message(errors.email?.message)}
                />
                {canEditProfile && (
                  <Controller
                    name="profile"
                    control={control}
                    render={({ field }) => (
                      <TextField select label={t('userModal.profile')} fullWidth {...field}>
                        <MenuItem value="admin">{t('users.profiles.admin')}</MenuItem>
                        <MenuItem value="user">{t('users.profiles.user')}</MenuItem>
                      </TextField>
                    )}
                  />
                )}
              </Stack>
              {canEditQueues && (
                <Controller
                  name="queueIds"
                  control={control}
                  render={({ field }) => (
                    <TextField
                      select
                      label={t('userModal.queues')}
                      fullWidth
                      value={field.value}
                      onChange={(e) => {
                        const value = e.target.value as unknown as number[] | string;
                        field.onChange(typeof value === 'string' ? value.split(',').map(Number) : value);
                      }}
                      slotProps={{
                        select: {
                          multiple: true,
                          renderValue: (selected) => (
                            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                              {(selected as number[]).map((id) => {
                                const queue = queues.data?.find((q) => q.id === id);
                                return (
                                  <Chip
                                    key={id}
                                    size="small"
                                    label={queue?.name ?? id}
                                    sx={{ bgcolor: queue?.color, color: queue ? 'common.white' : undefined }}
                                  />
                                );
                              })}
                            </Box>
                          ),
                        },
                      }}
                    >
                      {(queues.data ?? []).map((queue) => (
                        <MenuItem key={queue.id} value={queue.id}>
                          {queue.name}
                        </MenuItem>
                      ))}
                    </TextField>
                  )}
                />
              )}
              {canEditProfile && (
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems="center">
                  <Controller
                    name="whatsappId"
                    control={control}
                    render={({ field }) => (
                      <TextField
                        select
                        label={t('userModal.whatsapp')}
                        fullWidth
                        value={field.value ?? ''}
                        onChange={(e) =>
                          field.onChange(e.target.value === '' ? null : Number(e.target.value))
                        }
                      >
                        <MenuItem value="">{t('common.none')}</MenuItem>
                        {(connections.data ?? []).map((c) => (
                          <MenuItem key={c.id} value={c.id}>
                            {c.name}
                          </MenuItem>
                        ))}
                      </TextField>
                    )}
                  />
                  <Controller
                    name="allTicket"
                    control={control}
                    render={({ field }) => (
                      <FormControlLabel
                        sx={{ width: '100%' }}
                        label={t('userModal.allTicket')}
                        control={
                          <Switch
                            checked={field.value === 'enabled'}
                            onChange={(e) => field.onChange(e.target.checked ? 'enabled' : 'desabled')}
                          />
                        }
                      />
                    )}
                  />
                </Stack>
              )}
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose} disabled={isSubmitting}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" variant="contained" disabled={isSubmitting} data-testid="user-modal-save">
              {editing ? t('common.save') : t('common.add')}
            </Button>
          </DialogActions>
        </Box>
      )}
    </Dialog>
  );
}
