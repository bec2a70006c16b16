import { FormControlLabel, Stack, Switch, TextField } from '@mui/material';
import { can, ZTagBody } from '@zapdesk/shared';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useCurrentUser } from '../auth/session-context';
import { useFieldMessage } from '../common/field-message';
import { FormDialog } from '../common/form-dialog';
import { useRecordForm } from '../common/use-record-form';
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
  const editing = typeof tagId === 'number';
  const existing = useTag(editing ? tagId : null);
  const save = useSaveTag();
  const {
    control,
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useRecordForm<TagFormValues, TagFormValues>(ZTagBody, EMPTY, existing.data, toForm);

  const onSubmit = handleSubmit(async (values) => {
    const body = { name: values.name, color: values.color, ...(admin ? { kanban: values.kanban } : {}) };
    const saved = await save.mutateAsync({ id: editing ? tagId : undefined, body }).catch(() => null);
    if (!saved) return;
    toast.success(t('tagModal.success'));
    onClose();
  });

  // The tag form's own messages (document 2 section 5: 'Obrigatório', 'Mensagem muito curta').
  const message = useFieldMessage({
    extra: { required: t('tagModal.errors.required'), tooShort: t('tagModal.errors.tooShort') },
  });

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={editing ? t('tagModal.titleEdit') : t('tagModal.titleAdd')}
      titleId="tag-modal-title"
      maxWidth="xs"
      loading={editing && existing.isPending}
      onSubmit={onSubmit}
      formTestId="tag-modal"
      editing={editing}
      submitTestId="tag-save"
      pending={isSubmitting}
    >
      <Stack spacing={2}>
        <TextField
          label={t('tagModal.name')}
          autoFocus
          fullWidth
          {...register('name')}
          error={!!errors.name}
          helperText={message(errors.name?.message)}
          slotProps={{ htmlInput: { 'data-testid': 'tag-name' } }}
        />
        <TextField
          label={t('tagModal.color')}
          type="color"
          fullWidth
          {...register('color')}
          error={!!errors.color}
          helperText={message(errors.color?.message)}
          slotProps={{ htmlInput: { 'data-testid': 'tag-color' } }}
        />
        {admin && (
          <Controller
            control={control}
            name="kanban"
            render={({ field }) => (
              <FormControlLabel
                control={
                  <Switch
                    checked={field.value === 1}
                    onChange={(e) => field.onChange(e.target.checked ? 1 : 0)}
                    slotProps={{ input: { 'data-testid': 'tag-kanban' } as object }}
                  />
                }
                label={t('tagModal.kanban')}
              />
            )}
          />
        )}
      </Stack>
    </FormDialog>
  );
}
