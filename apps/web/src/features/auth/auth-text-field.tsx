import { TextField } from '@mui/material';
import { type FieldValues, get, type Path, type UseFormReturn } from 'react-hook-form';

/** What a field holds, which sets its input type, autofill hint and keyboard. */
const KINDS = {
  text: {},
  email: { type: 'email', autoComplete: 'email' },
  'new-password': { type: 'password', autoComplete: 'new-password' },
  'one-time-code': { autoComplete: 'one-time-code', inputMode: 'numeric' },
} as const;

/**
 * A required, full-width text field of the public auth forms (signup, password reset) for the form
 * value `name`: registered with `form`, marked in error while it fails its check, and under it the
 * error's text (`message` translates the validation key) or else `hint`; `testId` is the input's
 * data-testid.
 */
export function AuthTextField<T extends FieldValues, C, O extends FieldValues>({
  form,
  name,
  message,
  label,
  kind = 'text',
  hint,
  autoFocus,
  testId,
}: {
  form: UseFormReturn<T, C, O>;
  name: Path<T>;
  message: (key?: string) => string | undefined;
  label: string;
  kind?: keyof typeof KINDS;
  hint?: string;
  autoFocus?: boolean;
  testId?: string;
}) {
  const { inputMode, ...input } = KINDS[kind] as {
    type?: string;
    autoComplete?: string;
    inputMode?: 'numeric';
  };
  const error = get(form.formState.errors, name) as { message?: string } | undefined;
  return (
    <TextField
      label={label}
      {...input}
      required
      fullWidth
      autoFocus={autoFocus}
      {...form.register(name)}
      error={!!error}
      helperText={message(error?.message) ?? hint}
      slotProps={{ htmlInput: { 'data-testid': testId, inputMode } }}
    />
  );
}
