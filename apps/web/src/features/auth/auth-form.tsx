import { Button, Stack } from '@mui/material';
import type { FormEventHandler, ReactNode } from 'react';

/**
 * A form of the public auth pages (signup, password reset), named `label`: the fields (`children`)
 * in a column, the contained submit button (disabled while `pending`; `large` on the signup), then
 * `after` (links or a second action). `testId` is the form's data-testid, `submitTestId` the button's.
 */
export function AuthForm({
  label,
  testId,
  onSubmit,
  submitLabel,
  submitTestId,
  pending,
  large = false,
  children,
  after,
}: {
  label: string;
  testId?: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  submitLabel: string;
  submitTestId: string;
  pending: boolean;
  large?: boolean;
  children: ReactNode;
  after?: ReactNode;
}) {
  return (
    <Stack
      component="form"
      spacing={2}
      noValidate
      aria-label={label}
      data-testid={testId}
      onSubmit={onSubmit}
    >
      {children}
      <Button
        type="submit"
        variant="contained"
        size={large ? 'large' : undefined}
        disabled={pending}
        data-testid={submitTestId}
      >
        {submitLabel}
      </Button>
      {after}
    </Stack>
  );
}
