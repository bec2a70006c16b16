import { FormControlLabel, MenuItem, Stack, Switch, TextField } from '@mui/material';
import { can, type PublicUser, type UpdateUserBody, ZCreateUserBody, ZUpdateUserBody } from '@zapdesk/shared';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useCurrentUser } from '../auth/session-context';
import { useFieldMessage } from '../common/field-message';
import { FormDialog } from '../common/form-dialog';
import { OptionalIdSelect, QueueMultiSelect } from '../common/id-select';
import { useRecordForm } from '../common/use-record-form';
import { useQueueList } from '../queues/use-queues';
import { useConnectionOptions, useSaveUser, useUser } from './use-users';

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
  const queues = useQueueList({ enabled: open && canEditQueues });
  const connections = useConnectionOptions(open && canEditProfile);
  const save = useSaveUser();

  const schema = editing ? ZUpdateUserBody : ZCreateUserBody;
  const {
    control,
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useRecordForm<UserFormValues, PublicUser>(schema, EMPTY, existing.data, toForm);

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

  const message = useFieldMessage();
  const loading = editing && existing.isPending;

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={editing ? t('userModal.titleEdit') : t('userModal.titleAdd')}
      titleId="user-modal-title"
      maxWidth="sm"
      loading={loading}
      onSubmit={onSubmit}
      formTestId="user-form"
      editing={editing}
      submitTestId="user-modal-save"
      pending={isSubmitting}
      lockCancel
    >
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
              <QueueMultiSelect
                label={t('userModal.queues')}
                queues={queues.data}
                value={field.value}
                onChange={field.onChange}
              />
            )}
          />
        )}
        {canEditProfile && (
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems="center">
            <Controller
              name="whatsappId"
              control={control}
              render={({ field }) => (
                <OptionalIdSelect
                  label={t('userModal.whatsapp')}
                  options={connections.data}
                  value={field.value}
                  onChange={field.onChange}
                />
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
    </FormDialog>
  );
}
