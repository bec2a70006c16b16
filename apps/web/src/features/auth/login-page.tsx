import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Link, Stack, TextField } from '@mui/material';
import { TOAST_ERROR_MS, ZLoginBody } from '@zapdesk/shared';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { toast } from 'react-toastify';
import { ApiError } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { notifyError } from '../../lib/notify';
import { AuthLayout } from './auth-layout';
import { useSession } from './session-context';

/**
 * /login (core section 2): e-mail and password; links to /forgetpsw and /signup. The public route
 * guard sends the user to /tickets once the session is set.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const { login } = useSession();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(ZLoginBody), defaultValues: { email: '', password: '' } });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await login(values);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'ERR_SUBSCRIPTION_EXPIRED') {
        const dueDate = typeof err.body?.dueDate === 'string' ? err.body.dueDate : null;
        toast.error(t('auth.subscriptionExpired', { date: formatDate(dueDate) }), {
          toastId: 'subscription-expired',
          autoClose: TOAST_ERROR_MS * 3,
        });
        return;
      }
      notifyError(err);
    }
  });

  return (
    <AuthLayout title={t('login.title')}>
      <Stack component="form" spacing={2} noValidate onSubmit={onSubmit} aria-label={t('login.title')}>
        <TextField
          label={t('login.email')}
          type="email"
          autoComplete="email"
          autoFocus
          required
          fullWidth
          {...register('email')}
          error={!!errors.email}
          helperText={errors.email?.message ? t(`validation.${errors.email.message}`) : undefined}
        />
        <TextField
          label={t('login.password')}
          type="password"
          autoComplete="current-password"
          required
          fullWidth
          {...register('password')}
          error={!!errors.password}
          helperText={errors.password?.message ? t(`validation.${errors.password.message}`) : undefined}
        />
        <Button
          type="submit"
          variant="contained"
          size="large"
          disabled={isSubmitting}
          data-testid="login-submit"
        >
          {t('login.submit')}
        </Button>
        <Stack direction="row" justifyContent="space-between">
          <Link component={RouterLink} to="/forgetpsw" variant="body2">
            {t('login.forgot')}
          </Link>
          <Link component={RouterLink} to="/signup" variant="body2">
            {t('login.signup')}
          </Link>
        </Stack>
      </Stack>
    </AuthLayout>
  );
}
