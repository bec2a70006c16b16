import { zodResolver } from '@hookform/resolvers/zod';
import type { FormEventHandler, ReactNode } from 'react';
import {
  type DefaultValues,
  type FieldValues,
  FormProvider,
  type Resolver,
  type UseFormReturn,
  useForm,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../common/form-dialog';
import { FieldMessages } from '../../common/record-form-dialog';
import type { RecordDialog } from '../../common/use-record-form';
import { useFlowMessage } from '../flow-message';
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

interface NodeDialogFrameProps {
  /** The node kind, the `flows.dialogs.<kind>` locale section. */
  kind: string;
  editing: boolean;
  onClose: () => void;
  maxWidth?: 'xs' | 'sm' | 'md';
  children: ReactNode;
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
}: NodeDialogFrameProps & {
  onSubmit: FormEventHandler<HTMLFormElement>;
  pending: boolean;
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

/** What a node dialog does with its form: see {@link useNodeDialog}. */
export interface NodeDialogOptions<T extends FieldValues, D> {
  /** The zod schema the values must pass; none to take them as they are. */
  schema?: Parameters<typeof zodResolver>[0];
  /** The starting values (from the node's data when editing). */
  defaults: T;
  /** The node's data from the valid values; undefined to stay open (after marking a field). */
  toData: (values: T, form: UseFormReturn<T>) => D | undefined;
  /** Called with the node's data after the submit delay. */
  onSave: (data: D) => void;
}

/**
 * The react-hook-form of a node dialog and its submit: validates, turns the values into the node's
 * data, waits the submit delay and saves.
 */
export function useNodeDialog<T extends FieldValues, D>({
  schema,
  defaults,
  toData,
  onSave,
}: NodeDialogOptions<T, D>): RecordDialog<T> {
  const form = useForm<T>({
    resolver: schema ? (zodResolver(schema) as unknown as Resolver<T>) : undefined,
    defaultValues: defaults as DefaultValues<T>,
  });
  const onSubmit = form.handleSubmit(async (values) => {
    const data = toData(values, form);
    if (data === undefined) return;
    await submitDelay();
    onSave(data);
  });
  return { form, onSubmit, pending: form.formState.isSubmitting };
}

/**
 * A node dialog driven by {@link useNodeDialog}: the frame around form fields (FormTextField,
 * FormSelect) that find the form by context and show the flow validation messages.
 */
export function NodeFormDialog<T extends FieldValues>({
  dialog,
  ...frame
}: NodeDialogFrameProps & { dialog: RecordDialog<T> }) {
  const message = useFlowMessage();
  return (
    <FormProvider {...dialog.form}>
      <FieldMessages messages={message}>
        <NodeDialogFrame {...frame} onSubmit={dialog.onSubmit} pending={dialog.pending} />
      </FieldMessages>
    </FormProvider>
  );
}
