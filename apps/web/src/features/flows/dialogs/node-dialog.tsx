import type { FormEventHandler, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../common/form-dialog';
import { FLOW_EDITOR_DELAYS } from '../flow-types';

/** Props every node dialog takes: create or edit mode, the node's data when editing, save and close. */
export interface NodeDialogProps<T> {
  /** The node's current data when editing; absent to create. */
  data?: T;
  /** Called with the node's new data after the submit delay; the dialog closes. */
  onSave: (data: T) => void;
  onClose: () => void;
}

/** Waits the dialogs' submit delay (about 400 ms, document 3 sections 4 and 9). */
export function submitDelay(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, FLOW_EDITOR_DELAYS.dialogSubmitMs));
}

/**
 * The frame of a node dialog: its create or edit title, the fields, Cancel and Adicionar/Editar
 * (document 3 section 2 "Node dialogs").
 */
export function NodeDialogFrame({
  kind,
  editing,
  onClose,
  onSubmit,
  pending,
  maxWidth = 'sm',
  children,
}: {
  /** The node kind, the `flows.dialogs.<kind>` locale section. */
  kind: string;
  editing: boolean;
  onClose: () => void;
  onSubmit: FormEventHandler<HTMLFormElement>;
  pending: boolean;
  maxWidth?: 'xs' | 'sm' | 'md';
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <FormDialog
      onClose={onClose}
      title={editing ? t(`flows.dialogs.${kind}.titleEdit`) : t(`flows.dialogs.${kind}.titleAdd`)}
      titleId={`flow-${kind}-dialog-title`}
      maxWidth={maxWidth}
      scroll="paper"
      onSubmit={onSubmit}
      formTestId={`flow-${kind}-dialog`}
      editing={editing}
      submitLabel={editing ? t('flows.dialogs.edit') : t('flows.dialogs.add')}
      submitTestId={`flow-${kind}-save`}
      pending={pending}
    >
      {children}
    </FormDialog>
  );
}

/** The translated text of a flow validation key, or undefined. */
export function useFlowMessage() {
  const { t } = useTranslation();
  return (key?: string) => (key ? t(`flows.validation.${key}`) : undefined);
}
