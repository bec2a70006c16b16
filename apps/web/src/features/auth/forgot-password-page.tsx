import { Alert, Link, Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { AuthLayout } from './auth-layout';

/** /forgetpsw placeholder: password reset (document 3) comes later. */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  return (
    <AuthLayout title={t('forgot.title')}>
      <Stack spacing={2}>
        <Alert severity="info">{t('forgot.comingSoon')}</Alert>
        <Link component={RouterLink} to="/login" variant="body2">
          {t('forgot.back')}
        </Link>
      </Stack>
    </AuthLayout>
  );
}
