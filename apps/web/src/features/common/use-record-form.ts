import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { type DefaultValues, type FieldValues, type Resolver, useForm } from 'react-hook-form';

/**
 * The react-hook-form of an add/edit modal: validated by the zod `schema`, starting from
 * `defaultValues`, and reset to `toForm(record)` once the record to edit has loaded (pass a stable,
 * module-level `toForm`).
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
  useEffect(() => {
    if (record && toForm) reset(toForm(record));
  }, [record, toForm, reset]);
  return form;
}
