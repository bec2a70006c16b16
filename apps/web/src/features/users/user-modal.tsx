import { Stack } from '@mui/material';
import { can, type PublicUser, type UpdateUserBody, ZCreateUserBody, ZUpdateUserBody } from '@zapdesk/shared';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CLASSIC_WORDING } from '../../lib/validation-text';
import { useCurrentUser } from '../auth/session-context';
import { FormSelect, FormSwitch, FormTextField } from '../common/form-fields';
import { OptionalIdSelect, QueueMultiSelect } from '../common/id-select';
import { RecordFormDialog } from '../common/record-form-dialog';
import { useRecordEditor } from '../common/use-record-form';
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
  maxOpenTickets: number;
}

const EMPTY: UserFormValues = {
  name: '',
  email: '',
  password: '',
  profile: 'user',
  allTicket: 'desabled',
  whatsappId: null,
  queueIds: [],
  maxOpenTickets: 0,
};

const toForm = (user: PublicUser): UserFormValues => ({
  name: user.name,
  email: user.email,
  password: '',
  profile: user.profile,
  allTicket: user.allTicket,
  whatsappId: user.whatsappId,
  queueIds: user.queues.map((q) => q.id),
  maxOpenTickets: user.maxOpenTickets,
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

  const queues = useQueueList({ enabled: open && canEditQueues });
  const connections = useConnectionOptions(open && canEditProfile);
  const save = useSaveUser();

  const schema = editing ? ZUpdateUserBody : ZCreateUserBody;
  const { dialog, shell } = useRecordEditor<UserFormValues, PublicUser, PublicUser>(userId, useUser, {
    schema,
    defaults: EMPTY,
    toForm,
    save: (values) => {
      const body: UpdateUserBody = { email: values.email };
      if (!self) body.name = values.name;
      if (values.password) body.password = values.password;
      if (canEditProfile) {
        body.profile = values.profile;
        body.allTicket = values.allTicket;
        body.whatsappId = values.whatsappId;
        body.maxOpenTickets = values.maxOpenTickets;
      }
      if (canEditQueues) body.queueIds = values.queueIds;
      return save.mutateAsync({ id: editing ? userId : undefined, body });
    },
    saved: t('users.toasts.saved'),
    onSaved,
    onClose,
  });
  const { control } = dialog.form;

  return (
    <RecordFormDialog
      {...shell}
      ids={{ title: 'user-modal-title', form: 'user-form', submit: 'user-modal-save' }}
      // The spec's words for this form (core section 5): 'Too Short!', 'Too Long!', 'Required', 'Invalid email'.
      messages={{ wording: CLASSIC_WORDING }}
      open={open}
      onClose={onClose}
      title={editing ? t('userModal.titleEdit') : t('userModal.titleAdd')}
      maxWidth="sm"
      lockCancel
    >
      <Stack spacing={2}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <FormTextField
            name="name"
            label={t('userModal.name')}
            autoFocus={!self}
            slotProps={{ htmlInput: { readOnly: self } }}
          />
          <FormTextField
            name="password"
            label={t('userModal.password')}
            type="password"
            autoComplete="new-password"
          />
        </Stack>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <FormTextField name="email" label={t('userModal.email')} type="email" autoComplete="off" />
          {canEditProfile && (
            <FormSelect
              name="profile"
              label={t('userModal.profile')}
              options={[
                { value: 'admin', label: t('users.profiles.admin') },
                { value: 'user', label: t('users.profiles.user') },
              ]}
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
            <FormSwitch
              name="allTicket"
              label={t('userModal.allTicket')}
              on="enabled"
              off="desabled"
              sx={{ width: '100%' }}
            />
          </Stack>
        )}
        {canEditProfile && (
          <FormTextField
            name="maxOpenTickets"
            label={t('userModal.maxTickets')}
            type="number"
            number
            testId="user-max-open-tickets"
            slotProps={{ htmlInput: { min: 0, max: 1000 } }}
          />
        )}
      </Stack>
    </RecordFormDialog>
  );
}
