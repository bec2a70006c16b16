import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef } from 'react';
import {
  type DefaultValues,
  type FieldValues,
  type Resolver,
  type UseFormReturn,
  useForm,
} from 'react-hook-form';
import { toast } from 'react-toastify';
import { notifyError } from '../../lib/notify';
import { MediaRefusedError } from '../../lib/save-with-media';

/**
 * The react-hook-form of an add/edit modal: validated by the zod `schema`, starting from
 * `defaultValues`, and reset to `toForm(record)` when the record to edit arrives or changes (a new
 * record object, e.g. after a refetch). `toForm` itself may be a new function on every render: only a
 * new record resets the form, and fields the user has already edited keep what was typed.
 */
export function useRecordForm<T extends FieldValues, R = never>(
  schema: Parameters<typeof zodResolver>[0],
  defaultValues: T,
  record?: R,
  toForm?: (record: R) => T,
) {
  const form = useForm<T>({
    resolver: zodResolver(schema) as unknown as Resolver<T>,
    defaultValues: defaultValues as DefaultValues<T>,
  });
  const { reset } = form;
  // The latest converter, read when the record changes: a converter written inline in the
  // component (a new function each render) must not reset the form, and so wipe what was typed.
  const convert = useRef(toForm);
  convert.current = toForm;
  useEffect(() => {
    if (record && convert.current) reset(convert.current(record), { keepDirtyValues: true });
  }, [record, reset]);
  return form;
}

/** What an add/edit modal does with its form: see {@link useRecordDialog}. */
export interface RecordDialogOptions<T extends FieldValues, R, S = unknown> {
  /** The zod schema the values must pass. */
  schema: Parameters<typeof zodResolver>[0];
  /** The values of a new record, or of the record to edit when it is at hand. */
  defaults: T;
  /** The record to edit once loaded; the form resets to `toForm(record)` when the record changes. */
  record?: R;
  toForm?: (record: R) => T;
  /** Saves the valid values; a rejection or a falsy result counts as a failure (its toast is the mutation's). */
  save: (values: T) => Promise<S | null | undefined>;
  /** Called with a save's rejection (e.g. to mark the field a server error names). */
  onError?: (error: unknown, form: UseFormReturn<T>) => void;
  /** Called with what the save answered, after the success toast and before closing. */
  onSaved?: (result: S) => void;
  /** The success toast's text; the modal then closes. */
  saved: string;
  /** A toast shown on failure, when the mutation shows none. */
  failed?: string;
  onClose: () => void;
}

/** The form of an add/edit modal, its submit handler and whether it is submitting. */
export interface RecordDialog<T extends FieldValues> {
  form: UseFormReturn<T>;
  onSubmit: (event?: React.BaseSyntheticEvent) => Promise<void>;
  pending: boolean;
}

/**
 * The logic of an add/edit modal: the form ({@link useRecordForm}), and a submit that validates,
 * saves, toasts `saved` and closes, or stays open (toasting `failed`, if given) when the save fails.
 */
export function useRecordDialog<T extends FieldValues, R = never, S = unknown>({
  schema,
  defaults,
  record,
  toForm,
  save,
  onError,
  saved,
  onSaved,
  failed,
  onClose,
}: RecordDialogOptions<T, R, S>): RecordDialog<T> {
  const form = useRecordForm<T, R>(schema, defaults, record, toForm);
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await save(values).catch((error: unknown) => {
      // The record was stored and only its file refused: it counts as saved, so a second submit
      // never creates it twice, and the refusal says why (one toast per text, whoever shows it).
      if (error instanceof MediaRefusedError) {
        notifyError(error);
        return error.saved as S;
      }
      onError?.(error, form);
      return null;
    });
    if (!result) {
      if (failed) toast.error(failed);
      return;
    }
    toast.success(saved);
    onSaved?.(result);
    onClose();
  });
  return { form, onSubmit, pending: form.formState.isSubmitting };
}

/** A record's query hook for an add/edit dialog: given null it asks for nothing. */
export type RecordQueryHook<R> = (id: number | null) => { data?: R; isPending: boolean };

/**
 * The add/edit dialog of the record `id` (null or absent to add a new one): `editing`, `existing`
 * (`useRecord`'s query, asked only when editing), `dialog` ({@link useRecordDialog} over the loaded
 * record) and `shell`, RecordFormDialog's `dialog`, `editing` and `loading` (true while the record
 * to edit loads), to spread.
 */
export function useRecordEditor<T extends FieldValues, R = never, S = unknown>(
  id: number | null | undefined,
  useRecord: RecordQueryHook<R>,
  options: Omit<RecordDialogOptions<T, R, S>, 'record'>,
) {
  const editing = typeof id === 'number';
  const existing = useRecord(editing ? id : null);
  const dialog = useRecordDialog<T, R, S>({ ...options, record: existing.data });
  return { editing, existing, dialog, shell: { dialog, editing, loading: editing && existing.isPending } };
}
