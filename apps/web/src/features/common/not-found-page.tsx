import { Button, Paper, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** Shown for a path that no route matches. */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ p: 4 }} data-testid="not-found">
      <Stack spacing={2} alignItems="flex-start">
        <Typography variant="h5" component="h1">
          {t('pages.notFound.title')}
        </Typography>
        <Typography color="text.secondary">{t('pages.notFound.text')}</Typography>
        <Button component={Link} to="/tickets" variant="contained">
          {t('pages.notFound.back')}
        </Button>
      </Stack>
    </Paper>
  );
}
