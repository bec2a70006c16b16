import { zodResolver } from '@hookform/resolvers/zod';
import {
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Stack,
  Switch,
  TextField,
} from '@mui/material';
import { can, ZTagBody } from '@zapdesk/shared';
import { useEffect } from 'react';
import { Controller, type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useCurrentUser } from '../auth/session-context';
import { useSaveTag, useTag } from './use-tags';

/** Values of the tag form (document 2 sections 3 and 5). */
export interface TagFormValues {
  name: string;
  color: string;
  kanban: number;
}

const EMPTY: TagFormValues = { name: '', color: '#5C59A0', kanban: 0 };

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
    reset,
    formState: { errors, isSubmitting },
  } = useForm<TagFormValues>({
    resolver: zodResolver(ZTagBody) as unknown as Resolver<TagFormValues>,
    defaultValues: EMPTY,
  });

  useEffect(() => {
    if (existing.data)
      reset({ name: existing.data.name, color: existing.data.color, kanban: existing.data.kanban });
  }, [existing.data, reset]);

  const onSubmit = handleSubmit(async (values) => {
    const body = { name: values.name, color: values.color, ...(admin ? { kanban: values.kanban } : {}) };
    const saved = await save.mutateAsync({ id: editing ? tagId : undefined, body }).catch(() => null);
    if (!saved) return;
    toast.success(t('tagModal.success'));
    onClose();
  });

  const message = (key?: string) => (key ? t(`validation.${key}`, { defaultValue: key }) : undefined);

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="tag-modal-title">
      <DialogTitle id="tag-modal-title">
        {editing ? t('tagModal.titleEdit') : t('tagModal.titleAdd')}
      </DialogTitle>
      {editing && existing.isPending ? (
        <Box sx={{ display: 'grid', placeItems: 'center', p: 4 }}>
          <CircularProgress />
        </Box>
      ) : (
        <Box component="form" noValidate onSubmit={onSubmit} data-testid="tag-modal">
          <DialogContent dividers>
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
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" variant="contained" disabled={isSubmitting} data-testid="tag-save">
              {editing ? t('common.save') : t('common.add')}
            </Button>
          </DialogActions>
        </Box>
      )}
    </Dialog>
  );
}
