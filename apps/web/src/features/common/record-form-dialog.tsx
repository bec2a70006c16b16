import { createContext, type ReactNode, useContext } from 'react';
import { type FieldValues, FormProvider } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
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

/** How the fields of a form name themselves when not told: their label and data-testid from their `name`. */
export interface FieldNaming {
  label?: (name: string) => string;
  testId?: (name: string) => string;
}

const Naming = createContext<FieldNaming>({});

/** A form field's label and data-testid: the ones given, else as the enclosing {@link RecordFormDialog} names them. */
export function useFieldNaming<L>(name: string, label?: L, testId?: string) {
  const naming = useContext(Naming);
  return { label: label ?? naming.label?.(name), testId: testId ?? naming.testId?.(name) };
}

/** The ids of a record dialog: given one by one, or `p` for `p-modal-title`, `p-modal` and `p-save`. */
export type RecordDialogIds = string | { title: string; form: string; submit: string };

export interface RecordFormDialogProps<T extends FieldValues>
  extends Omit<
    FormDialogProps,
    'onSubmit' | 'pending' | 'titleId' | 'formTestId' | 'submitTestId' | 'title'
  > {
  /**
   * The title's id (which labels the dialog), the form's and the save button's data-testid; given as
   * a prefix `p`, each field's data-testid is also `p-{name}` unless the field gives its own.
   */
  ids: RecordDialogIds;
  /**
   * The dialog's translation namespace `ns`: the title is `ns.titleEdit` when editing, `ns.titleAdd`
   * otherwise (unless `title` is given), and each field's label `ns.{name}` unless it gives its own.
   */
  ns?: string;
  title?: string;
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
  ns,
  title,
  messages,
  children,
  ...shell
}: RecordFormDialogProps<T>) {
  const { t } = useTranslation();
  const prefix = typeof ids === 'string' ? ids : null;
  const {
    title: titleId,
    form,
    submit,
  } = prefix === null
    ? (ids as Exclude<RecordDialogIds, string>)
    : { title: `${prefix}-modal-title`, form: `${prefix}-modal`, submit: `${prefix}-save` };
  const naming: FieldNaming = {
    label: ns === undefined ? undefined : (name) => t(`${ns}.${name}`),
    testId: prefix === null ? undefined : (name) => `${prefix}-${name}`,
  };
  return (
    <FormProvider {...dialog.form}>
      <FieldMessages messages={messages}>
        <Naming.Provider value={naming}>
          <FormDialog
            {...shell}
            title={title ?? t(`${ns}.${shell.editing ? 'titleEdit' : 'titleAdd'}`)}
            titleId={titleId}
            formTestId={form}
            submitTestId={submit}
            onSubmit={dialog.onSubmit}
            pending={dialog.pending}
          >
            {children}
          </FormDialog>
        </Naming.Provider>
      </FieldMessages>
    </FormProvider>
  );
}
