import { useTranslation } from 'react-i18next';
import { FormTextField } from '../common/form-fields';
import { RecordFormDialog } from '../common/record-form-dialog';
import { useRecordDialog } from '../common/use-record-form';
import { ZFlowNameForm } from './flow-forms';
import { useFlowMessage } from './flow-message';
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
  const flowMessage = useFlowMessage();
  const editing = flow !== null;
  const save = useSaveFlowName();
  const dialog = useRecordDialog<NameValues, Flow, Flow>({
    schema: ZFlowNameForm,
    defaults: { name: '' },
    record: flow ?? undefined,
    toForm,
    save: ({ name }) => save.mutateAsync({ flowId: flow?.id, name }),
    saved: editing ? t('flows.toasts.updated') : t('flows.toasts.created'),
    onClose,
    onSaved: (saved) => {
      if (!editing) onCreated?.(saved);
    },
  });
  return (
    <RecordFormDialog
      dialog={dialog}
      ids={{ title: 'flow-name-dialog-title', form: 'flow-name-dialog', submit: 'flow-name-save' }}
      messages={flowMessage}
      onClose={onClose}
      title={editing ? t('flows.nameDialog.titleEdit') : t('flows.nameDialog.titleAdd')}
      maxWidth="xs"
      editing={editing}
    >
      <FormTextField
        name="name"
        label={t('flows.nameDialog.name')}
        autoFocus
        slotProps={{ htmlInput: { maxLength: 100 } }}
        testId="flow-name-input"
      />
    </RecordFormDialog>
  );
}
