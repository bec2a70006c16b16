import { Stack } from '@mui/material';
import { can, ZTagBody } from '@zapdesk/shared';
import { useTranslation } from 'react-i18next';
import { MESSAGE_WORDING } from '../../lib/validation-text';
import { useCurrentUser } from '../auth/session-context';
import { FormSwitch, FormTextField } from '../common/form-fields';
import { RecordFormDialog } from '../common/record-form-dialog';
import { useRecordEditor } from '../common/use-record-form';
import { useSaveTag, useTag } from './use-tags';

/** Values of the tag form (document 2 sections 3 and 5). */
export interface TagFormValues {
  name: string;
  color: string;
  kanban: number;
}

const EMPTY: TagFormValues = { name: '', color: '#5C59A0', kanban: 0 };

const toForm = ({ name, color, kanban }: TagFormValues): TagFormValues => ({ name, color, kanban });

interface TagModalProps {
  open: boolean;
  tagId?: number | null;
  onClose: () => void;
}

/**
 * Add/edit tag dialog: name (required, min 3), colour, and the kanban flag, shown to admins only
 * (document 2 section 5). Toasts tagModal.success on save.
 */
export function TagModal({ open, tagId, onClose }: TagModalProps) {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const admin = can(me.profile, 'user-modal:editProfile');
  const save = useSaveTag();
  const { shell } = useRecordEditor<TagFormValues, TagFormValues>(tagId, useTag, {
    schema: ZTagBody,
    defaults: EMPTY,
    toForm,
    save: (values) => {
      const body = { name: values.name, color: values.color, ...(admin ? { kanban: values.kanban } : {}) };
      return save.mutateAsync({ id: tagId ?? undefined, body });
    },
    saved: t('tagModal.success'),
    onClose,
  });

  return (
    <RecordFormDialog
      {...shell}
      ids="tag"
      ns="tagModal"
      // The tag form's own messages (document 2 section 5: 'Obrigatório', 'Mensagem muito curta').
      messages={{ wording: MESSAGE_WORDING }}
      open={open}
      onClose={onClose}
      maxWidth="xs"
    >
      <Stack spacing={2}>
        <FormTextField name="name" autoFocus />
        <FormTextField name="color" type="color" />
        {admin && <FormSwitch name="kanban" on={1} off={0} />}
      </Stack>
    </RecordFormDialog>
  );
}
