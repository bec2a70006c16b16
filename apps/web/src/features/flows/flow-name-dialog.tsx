import { TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { FormDialog } from '../common/form-dialog';
import { useRecordForm } from '../common/use-record-form';
import { ZFlowNameForm } from './flow-forms';
import type { Flow } from './flow-types';
import { useSaveFlowName } from './use-flows';

interface NameValues {
  name: string;
}

const toForm = (flow: Flow): NameValues => ({ name: flow.name });

/**
 * Add flow / edit name dialog (document 3 sections 2 and 5): the name is required ('Digite um
 * nome!'), 2 to 50 characters ('Muito curto!' / 'Muito longo!'). Creating calls `onCreated` with the
 * new flow (the page opens its editor).
 */
export function FlowNameDialog({
  flow,
  onClose,
  onCreated,
}: {
  flow: Flow | null;
  onClose: () => void;
  onCreated?: (flow: Flow) => void;
}) {
  const { t } = useTranslation();
  const editing = flow !== null;
  const save = useSaveFlowName();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useRecordForm<NameValues, Flow>(ZFlowNameForm, { name: '' }, flow ?? undefined, toForm);
  const onSubmit = handleSubmit(async ({ name }) => {
    const saved = await save.mutateAsync({ flowId: flow?.id, name }).catch(() => null);
    if (!saved) return;
    toast.success(editing ? t('flows.toasts.updated') : t('flows.toasts.created'));
    onClose();
    if (!editing) onCreated?.(saved);
  });
  const error = errors.name?.message;
  return (
    <FormDialog
      onClose={onClose}
      title={editing ? t('flows.nameDialog.titleEdit') : t('flows.nameDialog.titleAdd')}
      titleId="flow-name-dialog-title"
      maxWidth="xs"
      onSubmit={onSubmit}
      formTestId="flow-name-dialog"
      editing={editing}
      submitTestId="flow-name-save"
      pending={isSubmitting}
    >
      <TextField
        label={t('flows.nameDialog.name')}
        autoFocus
        fullWidth
        {...register('name')}
        error={!!error}
        helperText={error ? t(`flows.validation.${error}`) : undefined}
        slotProps={{ htmlInput: { 'data-testid': 'flow-name-input', maxLength: 100 } }}
      />
    </FormDialog>
  );
}
