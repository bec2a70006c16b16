import { type FieldValues, get, type Path, type UseFormReturn } from 'react-hook-form';

/**
 * The props of a text field of the public auth forms (signup, password reset) for the form value
 * `name`: registered with `form`, marked in error while it fails its check, and under it the
 * error's text (`message` translates the validation key) or else `hint`.
 */
export function registeredField<T extends FieldValues, C, O extends FieldValues>(
  form: UseFormReturn<T, C, O>,
  name: Path<T>,
  message: (key?: string) => string | undefined,
  hint?: string,
) {
  const error = get(form.formState.errors, name) as { message?: string } | undefined;
  return { ...form.register(name), error: !!error, helperText: message(error?.message) ?? hint };
}
