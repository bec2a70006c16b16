import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Link, Stack } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { ZEmail, ZNewPassword, ZResetCode } from '@zapdesk/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { z } from 'zod';
import { ApiError, api } from '../../lib/api';
import { notifyError, showToast } from '../../lib/notify';
import { useFieldMessage } from '../common/field-message';
import { AuthForm } from './auth-form';
import { AuthLayout } from './auth-layout';
import { AuthTextField } from './auth-text-field';

const ZEmailStep = z.object({ email: ZEmail });
/** Step 2 (document 3 section 5): e-mail, code, new password and its confirmation. */
const ZResetStep = z
  .object({
    email: ZEmail,
    token: ZResetCode,
    password: ZNewPassword,
    confirmPassword: z.string().min(1, 'required'),
  })
  .refine((v) => v.password === v.confirmPassword, {
    path: ['confirmPassword'],
    message: 'passwordMismatch',
  });
type ResetStepInput = z.input<typeof ZResetStep>;

/**
 * /forgetpsw (document 3 sections 2, 4 and 5): step 1 asks for the e-mail and mails a code
 * (POST /forgetpassword); step 2 takes the e-mail, the code and the new password twice
 * (POST /resetpasswords, values in the body, never in the URL) and goes to /login on success.
 * Submitting the e-mail again goes back to step 1.
 */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [step, setStep] = useState<1 | 2>(1);
  const [email, setEmail] = useState('');
  const message = useFieldMessage({
    extra: {
      weakPassword: t('passwordReset.weakPassword'),
      passwordMismatch: t('passwordReset.passwordMismatch'),
    },
  });

  const first = useForm<{ email: string }>({
    resolver: zodResolver(ZEmailStep),
    defaultValues: { email: '' },
  });
  const second = useForm<ResetStepInput>({
    resolver: zodResolver(ZResetStep) as never,
    defaultValues: { email: '', token: '', password: '', confirmPassword: '' },
  });

  const sendCode = useMutation({
    meta: { silent: true },
    mutationFn: (value: string) => api.post('/forgetpassword', { email: value }, { public: true }),
    onSuccess: (_data, value) => {
      showToast('success', t('passwordReset.emailSent'));
      setEmail(value);
      second.reset({ email: value, token: '', password: '', confirmPassword: '' });
      setStep(2);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 404)
        showToast('error', t('passwordReset.emailNotFound'));
      else notifyError(error);
    },
  });
  const resetPassword = useMutation({
    meta: { silent: true },
    mutationFn: (values: ResetStepInput) =>
      api.post(
        '/resetpasswords',
        { email: values.email, token: values.token, password: values.password },
        { public: true },
      ),
    onSuccess: () => {
      showToast('success', t('passwordReset.passwordUpdated'));
      navigate('/login');
    },
    onError: (error) => notifyError(error),
  });

  const resetFields = [
    { name: 'email', label: t('passwordReset.email'), kind: 'email', testId: 'reset-email' },
    {
      name: 'token',
      label: t('passwordReset.code'),
      kind: 'one-time-code',
      hint: t('passwordReset.codeHint'),
      autoFocus: true,
      testId: 'reset-code',
    },
    {
      name: 'password',
      label: t('passwordReset.newPassword'),
      kind: 'new-password',
      hint: t('passwordReset.passwordHint'),
      testId: 'reset-password',
    },
    {
      name: 'confirmPassword',
      label: t('passwordReset.confirmPassword'),
      kind: 'new-password',
      testId: 'reset-confirm',
    },
  ] as const;

  return (
    <AuthLayout title={t('passwordReset.title')}>
      {step === 1 ? (
        <AuthForm
          label={t('passwordReset.title')}
          testId="forgot-step-email"
          onSubmit={first.handleSubmit((values) => sendCode.mutate(values.email.trim()))}
          submitLabel={t('passwordReset.sendEmail')}
          submitTestId="forgot-send"
          pending={sendCode.isPending}
        >
          <AuthTextField
            form={first}
            name="email"
            message={message}
            label={t('passwordReset.email')}
            kind="email"
            autoFocus
            testId="forgot-email"
          />
        </AuthForm>
      ) : (
        <AuthForm
          label={t('passwordReset.title')}
          testId="forgot-step-reset"
          onSubmit={second.handleSubmit((values) => resetPassword.mutate(values))}
          submitLabel={t('passwordReset.resetPassword')}
          submitTestId="reset-submit"
          pending={resetPassword.isPending}
          after={
            <Button
              variant="text"
              onClick={() => {
                first.reset({ email });
                setStep(1);
              }}
              data-testid="forgot-send-again"
            >
              {t('passwordReset.sendAgain')}
            </Button>
          }
        >
          {resetFields.map((field) => (
            <AuthTextField key={field.name} form={second} message={message} {...field} />
          ))}
        </AuthForm>
      )}
      <Stack direction="row" justifyContent="space-between" sx={{ mt: 2 }}>
        <Link component={RouterLink} to="/login" variant="body2">
          {t('passwordReset.backToLogin')}
        </Link>
        <Link component={RouterLink} to="/signup" variant="body2">
          {t('passwordReset.signup')}
        </Link>
      </Stack>
    </AuthLayout>
  );
}
