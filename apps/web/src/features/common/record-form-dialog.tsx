import { createContext, type ReactNode, useContext } from 'react';
import { type FieldValues, FormProvider } from 'react-hook-form';
import { type FieldMessageOptions, useFieldMessage } from './field-message';
import { FormDialog, type FormDialogProps } from './form-dialog';
import type { RecordDialog } from './use-record-form';

/** A form's own translator of its field errors: a validation key to the text shown, undefined for none. */
export type FieldMessageTranslator = (key?: string) => string | undefined;

const MessageOptions = createContext<FieldMessageOptions | FieldMessageTranslator>({});

/** The translator of the field errors of the enclosing {@link RecordFormDialog} (see useFieldMessage). */
export function useFormFieldMessage(): FieldMessageTranslator {
  const options = useContext(MessageOptions);
  const standard = useFieldMessage(typeof options === 'function' ? {} : options);
  return typeof options === 'function' ? options : standard;
}

/**
 * Sets how the form fields inside (FormTextField, FormSelect) translate their errors: form-specific
 * messages over the standard ones, or the form's own translator.
 */
export function FieldMessages({
  messages,
  children,
}: {
  messages?: FieldMessageOptions | FieldMessageTranslator;
  children: ReactNode;
}) {
  return <MessageOptions.Provider value={messages ?? {}}>{children}</MessageOptions.Provider>;
}

export interface RecordFormDialogProps<T extends FieldValues>
  extends Omit<FormDialogProps, 'onSubmit' | 'pending' | 'titleId' | 'formTestId' | 'submitTestId'> {
  /** The title's id (which labels the dialog), the form's and the save button's data-testid. */
  ids: { title: string; form: string; submit: string };
  /** The modal's form and submit, from useRecordDialog. */
  dialog: RecordDialog<T>;
  /** How the fields translate their errors: form-specific messages, or the form's own translator. */
  messages?: FieldMessageOptions | FieldMessageTranslator;
}

/**
 * An add/edit modal driven by useRecordDialog: the FormDialog shell around fields (FormTextField,
 * FormSwitch, FormSelect) that find the form, and the translator of their errors, by context.
 */
export function RecordFormDialog<T extends FieldValues>({
  dialog,
  ids,
  messages,
  children,
  ...shell
}: RecordFormDialogProps<T>) {
  return (
    <FormProvider {...dialog.form}>
      <FieldMessages messages={messages}>
        <FormDialog
          {...shell}
          titleId={ids.title}
          formTestId={ids.form}
          submitTestId={ids.submit}
          onSubmit={dialog.onSubmit}
          pending={dialog.pending}
        >
          {children}
        </FormDialog>
      </FieldMessages>
    </FormProvider>
  );
}
